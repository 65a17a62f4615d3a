import type { MouseEvent } from 'react';
import Form from 'react-bootstrap/Form';
import Table from 'react-bootstrap/Table';
import { Link } from 'react-router';

import { SkeletonRows } from '@/components/SkeletonRows';
import type { WatchList } from '@/features/watch-lists/api/watch-lists';
import { lociPath, watchListFilter } from '@/lib/locus-query';
import { isoUtcText } from '@/lib/time';

import type { RangeSelection, SelectGesture } from './range-selection';

const HEADERS = ['Name', 'Description', 'Slack Channel', 'Objects', 'Created At (UTC)', 'Actions'];

/** Clicks on the row's own controls (name link, View Loci, checkbox) do not select by row. */
function fromControl(event: MouseEvent): boolean {
  return event.target instanceof Element && Boolean(event.target.closest('a, button, input, label'));
}

/**
 * The watch lists of one page. Rows are selectable in range mode (click, Shift-click, Ctrl/Cmd-click;
 * the checkboxes toggle one row, or a range with Shift, for keyboard users).
 */
export function WatchListTable({
  watchLists,
  loading,
  selection,
  onSelect,
  onToggleAll,
}: {
  watchLists: WatchList[];
  loading: boolean;
  selection: RangeSelection;
  onSelect: (id: string, gesture: SelectGesture) => void;
  onToggleAll: () => void;
}) {
  const allSelected = watchLists.length > 0 && watchLists.every((w) => selection.ids.has(w.id));
  const someSelected = !allSelected && watchLists.some((w) => selection.ids.has(w.id));
  return (
    <div style={loading ? { minHeight: 350 } : undefined}>
      <Table responsive hover size="sm" className="align-middle watch-list-table" id="watch-list-table" aria-busy={loading}>
        <caption className="visually-hidden">My watch lists</caption>
        <thead>
          <tr>
            <th scope="col" style={{ width: '2.5rem' }}>
              <Form.Check
                id="watch-list-select-all"
                aria-label="Select all watch lists on this page"
                checked={allSelected}
                ref={(input: HTMLInputElement | null) => {
                  if (input) input.indeterminate = someSelected;
                }}
                disabled={loading || watchLists.length === 0}
                onChange={onToggleAll}
              />
            </th>
            {HEADERS.map((header) => (
              <th key={header} scope="col" className={header === 'Objects' ? 'numeric' : undefined}>
                {header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {loading ? (
            <SkeletonRows rows={5} columns={HEADERS.length + 1} />
          ) : (
            watchLists.map((watchList) => {
              const selected = selection.ids.has(watchList.id);
              return (
                <tr
                  key={watchList.id}
                  data-testid="watch-list-row"
                  aria-selected={selected}
                  className={selected ? 'table-active' : undefined}
                  style={{ cursor: 'pointer' }}
                  // Shift-click must not select the page's text.
                  onMouseDown={(event) => event.shiftKey && event.preventDefault()}
                  onClick={(event) => {
                    if (!fromControl(event)) onSelect(watchList.id, { shift: event.shiftKey, toggle: event.ctrlKey || event.metaKey });
                  }}
                >
                  <td>
                    <Form.Check
                      id={`watch-list-select-${watchList.id}`}
                      aria-label={`Select ${watchList.name}`}
                      checked={selected}
                      onChange={(event) => {
                        const native = event.nativeEvent as globalThis.MouseEvent;
                        onSelect(watchList.id, { shift: Boolean(native.shiftKey), toggle: true });
                      }}
                    />
                  </td>
                  <td>
                    <Link to={`/watch-lists/${watchList.id}`}>{watchList.name}</Link>
                  </td>
                  <td className="cell-fill">
                    <div className="truncate-600" title={watchList.description}>
                      {watchList.description}
                    </div>
                  </td>
                  <td>{watchList.slack_channel ?? ''}</td>
                  <td className="numeric">{watchList.object_count.toLocaleString('en-US')}</td>
                  <td className="text-nowrap">{isoUtcText(watchList.created_at)}</td>
                  <td>
                    <Link to={lociPath([watchListFilter(watchList.id, watchList.name)])}>View Loci</Link>
                  </td>
                </tr>
              );
            })
          )}
        </tbody>
      </Table>
    </div>
  );
}
