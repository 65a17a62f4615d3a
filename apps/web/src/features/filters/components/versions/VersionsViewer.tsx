import { useQueryClient, type UseQueryResult } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';

import { addVersion, type Filter, FILTERS_KEY, type FilterVersion, useVersion } from '@/features/filters/api/filters';
import { BacktestPanel } from '@/features/filters/components/backtests/BacktestPanel';

import { CodeEditor } from './CodeEditor';
import { CodeFileButtons } from './CodeFileButtons';
import { FilterClassField } from './FilterClassField';
import { NewVersionForm } from './NewVersionForm';
import { TestPanel } from './TestPanel';
import { NO_VERSIONS_WARNING, TEMPLATE_CODE, VERSION_LOAD_ERROR_CODE } from './version-format';
import { VersionPicker } from './VersionPicker';

export interface VersionsViewerProps {
  filter: Filter;
  versions: UseQueryResult<FilterVersion[]>;
  selectedId: string | null;
  onSelect: (id: string) => void;
  /** Whether the viewer may submit new versions (the owner or an admin). */
  mayAct: boolean;
  /** Extra controls for the selected version (the admin transition buttons). */
  versionActions?: (version: FilterVersion) => ReactNode;
}

const REFRESH_WARNING = 'Your filter was successfully updated but there was a problem refreshing the page.';

/**
 * The versions viewer: the selected version's code, read-only, with its dropdown; or the editor of a
 * new version (a filter with no versions opens in it, with starter code and a warning). Code downloads
 * as {filter name}.py, files can be uploaded, the Test panel dry-runs what the editor shows, and the
 * Backtest panel replays the selected version (or the editor's unsaved code) over the archive.
 */
export function VersionsViewer({ filter, versions, selectedId, onSelect, mayAct, versionActions }: VersionsViewerProps) {
  const client = useQueryClient();
  const [draft, setDraft] = useState<string | null>(null);
  const [warning, setWarning] = useState<string | null>(null);
  // The new version's filter class (blank: the last the code defines) and the filters a test found in it.
  const [filterClass, setFilterClass] = useState('');
  const [found, setFound] = useState<string[]>([]);
  const list = versions.data ?? [];
  const listed = list.find((v) => v.id === selectedId);
  const fetched = useVersion(filter.id, selectedId, versions.isSuccess && !listed);
  const selected = listed ?? fetched.data;
  const noVersions = versions.isSuccess && list.length === 0;
  const editing = mayAct && (draft !== null || noVersions);
  const editorCode = editing ? (draft ?? TEMPLATE_CODE) : selected ? selected.code : fetched.isError ? VERSION_LOAD_ERROR_CODE : '';

  if (versions.isPending) return <p role="status">Loading...</p>;
  if (versions.isError) {
    return (
      <Alert variant="danger" role="alert">
        There was an error fetching data. Please try again later.
      </Alert>
    );
  }

  const submit = async (comment: string) => {
    const chosen = filterClass.trim();
    const version = await addVersion(filter.id, { code: editorCode, comment, ...(chosen ? { filter_class: chosen } : {}) });
    try {
      await client.refetchQueries({ queryKey: FILTERS_KEY, type: 'active' }, { throwOnError: true });
    } catch {
      setWarning(REFRESH_WARNING);
    }
    onSelect(version.id);
    setDraft(null);
    setFilterClass('');
  };
  const startDraft = () => {
    setDraft(selected?.code ?? TEMPLATE_CODE);
    setFilterClass(selected?.filter_class ?? '');
  };

  return (
    <section aria-labelledby="versions-title">
      <h2 className="h5" id="versions-title">
        {editing ? 'New Version' : 'Versions'}
      </h2>
      {warning && (
        <Alert variant="warning" dismissible onClose={() => setWarning(null)}>
          {warning}
        </Alert>
      )}
      {noVersions && (
        <Alert variant="warning" data-testid="no-versions-warning">
          {mayAct ? NO_VERSIONS_WARNING : 'This filter does not have submitted versions yet.'}
        </Alert>
      )}
      {!editing && list.length > 0 && <VersionPicker versions={list} selected={selected} onSelect={onSelect} />}
      {!editing && selected && versionActions?.(selected)}
      <div className="d-flex flex-wrap gap-2 my-2">
        {mayAct && !editing && list.length > 0 && (
          <Button size="sm" onClick={startDraft}>
            New Version
          </Button>
        )}
        <CodeFileButtons filterName={filter.name} code={editorCode} onUpload={mayAct ? (code) => setDraft(code) : undefined} />
      </div>
      {(editing || selected || fetched.isError) && (
        <CodeEditor
          value={editorCode}
          readOnly={!editing}
          onChange={editing ? setDraft : undefined}
          label={`Python code of ${filter.name}`}
        />
      )}
      {editing && <FilterClassField value={filterClass} onChange={setFilterClass} found={found} />}
      {editing && (
        <NewVersionForm
          code={editorCode}
          filterClass={filterClass}
          canCancel={list.length > 0}
          onSubmit={submit}
          onCancel={() => setDraft(null)}
        />
      )}
      {editorCode.trim() !== '' && editorCode !== VERSION_LOAD_ERROR_CODE && (
        <TestPanel
          code={editorCode}
          filterClass={editing ? filterClass : (selected?.filter_class ?? '')}
          onReport={(report) => setFound(report.outputs?.filter_classes ?? [])}
        />
      )}
      {mayAct && !editing && selected && <BacktestPanel key={selected.id} target={{ filterId: filter.id, versionId: selected.id }} />}
      {editing && editorCode.trim() !== '' && <BacktestPanel target={{ code: editorCode, filterClass }} />}
    </section>
  );
}
