import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Form from 'react-bootstrap/Form';
import Table from 'react-bootstrap/Table';
import { Link } from 'react-router';

import { type Backtest, backtestLociPath, BACKTESTS_KEY, compareTwo, useFilterBacktests } from '@/features/filters/api/backtests';
import { firstError } from '@/lib/api-client';
import { isoUtcText } from '@/lib/time';

const describe = (b: Backtest) =>
  `Backtest ${b.id} of version ${b.filter_version_id ?? '?'} (${isoUtcText(b.finished_at ?? b.created_at)}, ${b.results?.tagged_loci ?? 0} tagged)`;

/**
 * Beside the review buttons: two finished backtests of the filter (say of the old and the new version)
 * and the loci both tag, only the first tags, only the second tags, each a link to the locus list.
 */
export function BacktestComparison({ filterId, versionIds }: { filterId: string; versionIds: string[] }) {
  const backtests = useFilterBacktests(filterId, versionIds);
  const [picked, setPicked] = useState<{ first: string; second: string }>({ first: '', second: '' });
  // Defaults: the newest backtest of another version than the newest one's, else the two newest.
  const first =
    picked.first || backtests.find((b) => b.filter_version_id !== backtests[0]?.filter_version_id)?.id || backtests[1]?.id || '';
  const second = picked.second || backtests[0]?.id || '';
  const ready = first !== '' && second !== '' && first !== second;
  const comparison = useQuery({
    queryKey: [...BACKTESTS_KEY, 'comparison', first, second],
    queryFn: ({ signal }) => compareTwo(first, second, signal),
    enabled: ready,
  });
  if (backtests.length < 2) return null;

  const rows = comparison.data && [
    { label: 'Tagged by both', side: comparison.data.both, term: `${first}&${second}` },
    { label: `Only by backtest ${first}`, side: comparison.data.only_first, term: `${first}-${second}` },
    { label: `Only by backtest ${second}`, side: comparison.data.only_second, term: `${second}-${first}` },
  ];
  const select = (which: 'first' | 'second', value: string, label: string) => (
    <Form.Group controlId={`backtest-compare-${which}`}>
      <Form.Label className="small mb-1">{label}</Form.Label>
      <Form.Select size="sm" value={value} onChange={(e) => setPicked({ first, second, [which]: e.target.value })}>
        {backtests.map((b) => (
          <option key={b.id} value={b.id}>
            {describe(b)}
          </option>
        ))}
      </Form.Select>
    </Form.Group>
  );

  return (
    <section className="border rounded p-2 mb-2" aria-labelledby="backtest-compare-title" data-testid="backtest-comparison">
      <h3 className="h6" id="backtest-compare-title">
        Compare backtests
      </h3>
      <div className="d-flex flex-wrap gap-3 mb-2">
        {select('first', first, 'First (say the old version)')}
        {select('second', second, 'Second (say the new version)')}
      </div>
      {!ready && <p className="small text-body-secondary mb-0">Pick two different backtests.</p>}
      {comparison.isError && (
        <Alert variant="danger" className="py-2 mb-0">
          {firstError(comparison.error).detail ?? 'The comparison failed.'}
        </Alert>
      )}
      {ready && comparison.isPending && <p role="status">Comparing...</p>}
      {rows && (
        <Table size="sm" className="small mb-0" data-testid="backtest-comparison-table">
          <caption className="visually-hidden">Loci tagged by the two backtests</caption>
          <thead>
            <tr>
              <th scope="col">Loci</th>
              <th scope="col" className="numeric">
                Count
              </th>
              <th scope="col">First of them</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.term}>
                <th scope="row">{row.label}</th>
                <td className="numeric">
                  {row.side.count > 0 ? (
                    <Link
                      to={backtestLociPath(row.term, `${row.label} (${first} vs ${second})`)}
                      aria-label={`${row.label}: the ${row.side.count} loci in the locus list`}
                    >
                      {row.side.count}
                    </Link>
                  ) : (
                    0
                  )}
                </td>
                <td>
                  {row.side.locus_ids.slice(0, 5).map((id) => (
                    <Link key={id} to={`/loci/${encodeURIComponent(id)}`} className="me-2">
                      {id}
                    </Link>
                  ))}
                  {row.side.count > 5 && '...'}
                </td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
    </section>
  );
}
