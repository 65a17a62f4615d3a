import { useParams } from 'react-router';

import { useFilter, useVersions } from '@/features/filters/api/filters';
import { useSession } from '@/lib/use-session';

import { RunnerBudgetPanel } from './budget/RunnerBudgetPanel';
import { FilesPanel } from './files/FilesPanel';
import { FilterPageState } from './FilterPageState';
import { FilterSummary } from './FilterSummary';
import { usePublicToggle } from './use-public-toggle';
import { useVersionSelection } from './use-version-selection';
import { VersionsViewer } from './versions/VersionsViewer';

/**
 * A filter: name, creation date, description, the Public switch (for those who may act on it: the
 * owner or an admin), the versions viewer and the filter's data files.
 */
export function Component() {
  const filterId = useParams().filterId ?? '';
  // Another filter is another page: its selection and drafts start afresh.
  return <FilterDetail key={filterId} filterId={filterId} />;
}

function FilterDetail({ filterId }: { filterId: string }) {
  const { user } = useSession();
  const filter = useFilter(filterId);
  const versions = useVersions(filterId);
  const [selectedId, select] = useVersionSelection(filter.data, versions.data);
  const visibility = usePublicToggle();

  if (!filter.isSuccess) return <FilterPageState filter={filter} />;
  const mayAct = Boolean(user && (user.id === filter.data.user_id || user.admin));
  return (
    <section>
      <FilterSummary filter={filter.data} publicSwitch={mayAct && visibility.switchFor(filter.data, { label: 'Public' })} />
      {visibility.elements}
      <RunnerBudgetPanel filter={filter.data} />
      <VersionsViewer
        key={filter.data.id}
        filter={filter.data}
        versions={versions}
        selectedId={selectedId}
        onSelect={select}
        mayAct={mayAct}
      />
      <FilesPanel filter={filter.data} mayAct={mayAct} />
    </section>
  );
}
