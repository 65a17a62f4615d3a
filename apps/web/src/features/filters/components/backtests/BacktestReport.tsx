import type { ReactNode } from 'react';
import Table from 'react-bootstrap/Table';
import { Link } from 'react-router';

import { type Backtest, backtestLociPath, type BacktestResults } from '@/features/filters/api/backtests';
import { formatPropertyValue } from '@/lib/format';

import { projectionTexts } from '../budget/budget-view';
import { msText, shareText } from './backtest-form';
import { NightlyChart } from './NightlyChart';

const FIRST_TAGS_SHOWN = 50;

function Section({ title, children, testId }: { title: string; children: ReactNode; testId: string }) {
  return (
    <section className="mb-3" data-testid={testId}>
      <h3 className="h6">{title}</h3>
      {children}
    </section>
  );
}

/** What a finished backtest would have done: nightly counts, the tagged loci, first tags, errors, cost and properties. */
export default function BacktestReport({ backtest, results }: { backtest: Backtest; results: BacktestResults }) {
  const { projection, cost } = results;
  return (
    <div data-testid="backtest-report">
      <p className="mb-1" data-testid="backtest-summary">
        Replayed {results.loci_replayed.toLocaleString('en-US')} loci ({results.steps.toLocaleString('en-US')} alerts):{' '}
        {results.tagged_loci > 0 ? (
          <Link to={backtestLociPath(backtest.id, `Tagged by backtest ${backtest.id}`)} data-testid="backtest-tagged-link">
            {results.tagged_loci.toLocaleString('en-US')} loci tagged
          </Link>
        ) : (
          'no locus tagged'
        )}
        .
      </p>
      <p className="small mb-3" data-testid="backtest-projection">
        Projected for the live stream: about {projection.alerts_per_night.toLocaleString('en-US')} tagged alerts per night
        {projection.scale > 1 && ` (scaled ×${projection.scale} from the loci replayed to all the search matched)`}
        {Object.keys(projection.by_tag).length > 1 &&
          `: ${Object.entries(projection.by_tag)
            .map(([tag, n]) => `${tag} ${n.toLocaleString('en-US')}`)
            .join(', ')}`}
        .
      </p>
      {results.nights.length > 0 && <NightlyChart nights={results.nights} />}

      <Section title="Cost" testId="backtest-cost">
        <p className="small mb-0">
          Per locus: p50 {msText(cost.per_locus_ms.p50)}, p90 {msText(cost.per_locus_ms.p90)}, p99 {msText(cost.per_locus_ms.p99)}; per
          alert: mean {msText(cost.per_step_ms.mean)}, max {msText(cost.per_step_ms.max)}. At{' '}
          {cost.ingest_rate_per_s.toLocaleString('en-US')} alerts/s (the rate of {cost.ingest_rate_source}) this filter would take{' '}
          {shareText(cost.projected_cpu_share)} of one core.
        </p>
      </Section>

      {results.budget && (
        <Section title="Budget and yield" testId="backtest-budget">
          <p className={`small mb-0${results.budget.over_share ? ' text-danger' : ''}`}>{projectionTexts(results.budget).share}</p>
          <p className={`small mb-0${results.budget.over_yield_average || results.budget.over_yield_max ? ' text-danger' : ''}`}>
            {projectionTexts(results.budget).yield}
          </p>
        </Section>
      )}

      <Section title="Errors" testId="backtest-errors">
        {results.errors.length === 0 ? (
          <p className="small mb-0">No error or timeout.</p>
        ) : (
          <Table size="sm" responsive className="small align-middle">
            <caption className="visually-hidden">Errors by type, with an example</caption>
            <thead>
              <tr>
                <th scope="col">Type</th>
                <th scope="col" className="numeric">
                  Alerts
                </th>
                <th scope="col" className="numeric">
                  Loci
                </th>
                <th scope="col">Example</th>
              </tr>
            </thead>
            <tbody>
              {results.errors.map((e) => (
                <tr key={e.type}>
                  <td>
                    <code>{e.type}</code>
                  </td>
                  <td className="numeric">{e.count}</td>
                  <td className="numeric">{e.loci}</td>
                  <td>
                    <span className="text-danger">{e.example.message}</span> at{' '}
                    <Link to={`/loci/${encodeURIComponent(e.example.locus_id)}`}>{e.example.locus_id}</Link>
                    {e.example.traceback && (
                      <details>
                        <summary>Traceback</summary>
                        <pre className="small mb-0 text-wrap">{e.example.traceback}</pre>
                      </details>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </Table>
        )}
      </Section>

      {results.first_tags.length > 0 && (
        <Section title="First tagged at" testId="backtest-first-tags">
          <Table size="sm" responsive className="small">
            <caption className="visually-hidden">The alert at which each locus was first tagged</caption>
            <thead>
              <tr>
                <th scope="col">Locus</th>
                <th scope="col">Night</th>
                <th scope="col" className="numeric">
                  MJD
                </th>
                <th scope="col">Alert</th>
                <th scope="col">Tags</th>
              </tr>
            </thead>
            <tbody>
              {results.first_tags.slice(0, FIRST_TAGS_SHOWN).map((f) => (
                <tr key={f.locus_id}>
                  <td>
                    <Link to={`/loci/${encodeURIComponent(f.locus_id)}`}>{f.locus_id}</Link>
                  </td>
                  <td>{f.night}</td>
                  <td className="numeric">{f.mjd.toFixed(5)}</td>
                  <td>
                    <code>{f.alert_id}</code>
                  </td>
                  <td>
                    {f.tags.map((t) => (
                      <code key={t} className="me-1">
                        {t}
                      </code>
                    ))}
                  </td>
                </tr>
              ))}
            </tbody>
          </Table>
          {results.first_tags_total > FIRST_TAGS_SHOWN && (
            <p className="small text-body-secondary">
              The first {FIRST_TAGS_SHOWN} of {results.first_tags_total.toLocaleString('en-US')}, by locus id.
            </p>
          )}
        </Section>
      )}

      {results.properties.length > 0 && (
        <Section title="Properties set" testId="backtest-properties">
          {results.properties.map((p) => (
            <div key={p.name} className="small mb-2">
              <code>{p.name}</code> on {p.loci} loci
              {p.kind === 'number' ? (
                <>
                  : min {formatPropertyValue(p.min)}, mean {formatPropertyValue(p.mean)}, max {formatPropertyValue(p.max)}
                  <ul className="list-unstyled mb-0 ms-3">
                    {p.histogram.map((bin) => (
                      <li key={bin.from}>
                        {formatPropertyValue(bin.from)} to {formatPropertyValue(bin.to)}: {bin.count}
                      </li>
                    ))}
                  </ul>
                </>
              ) : (
                <ul className="list-unstyled mb-0 ms-3">
                  {p.values.map((v) => (
                    <li key={v.value}>
                      <code>{v.value}</code>: {v.count}
                    </li>
                  ))}
                </ul>
              )}
            </div>
          ))}
        </Section>
      )}
    </div>
  );
}
