import type { ResourceObject } from '@antares/contract';
import type { BacktestJobRow } from '@antares/db';
import type { BacktestResults } from '@antares/pipeline';

/** The /v1/loci search document of the loci a backtest tagged (`value`: see packages/db backtest-term.ts). */
export function backtestQuery(value: string): { query: { term: { backtest_id: string } } } {
  return { query: { term: { backtest_id: value } } };
}

const lociLink = (value: string) =>
  `/v1/loci?elasticsearch_query[locus_listing]=${encodeURIComponent(JSON.stringify(backtestQuery(value)))}`;
const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** A backtest job with its progress (and ETA from its pace so far) and its results, final or so far. */
export function backtestResource(job: BacktestJobRow, results: BacktestResults | null, now = Date.now()): ResourceObject {
  const params = job.params as Record<string, unknown>;
  const id = String(job.backtest_id);
  const total = job.loci_total;
  const elapsed = job.started_at ? (Math.min(now, job.finished_at?.getTime() ?? now) - job.started_at.getTime()) / 1000 : null;
  const running = job.state === 'running';
  const stepsDone = Number(job.steps_done);
  return {
    type: 'backtest',
    id,
    attributes: {
      state: job.state,
      filter_id: job.filter_id === null ? null : String(job.filter_id),
      filter_version_id: job.filter_version_id === null ? null : String(job.filter_version_id),
      filter_class: job.filter_class,
      params: {
        from_mjd: params.from_mjd,
        to_mjd: params.to_mjd,
        elasticsearch_query: params.search ?? null,
        max_loci: params.max_loci,
        granularity: params.granularity,
      },
      progress: {
        loci_done: job.loci_done,
        loci_total: total,
        steps_done: stepsDone,
        fraction: total ? job.loci_done / total : total === 0 ? 1 : null,
        steps_per_second: elapsed && elapsed > 0 ? Math.round((stepsDone / elapsed) * 10) / 10 : null,
        eta_seconds:
          running && total && job.loci_done > 0 && elapsed ? Math.round(((total - job.loci_done) * elapsed) / job.loci_done) : null,
      },
      error: job.error,
      resumes: job.resumes,
      created_at: job.created_at.toISOString(),
      started_at: iso(job.started_at),
      finished_at: iso(job.finished_at),
      expires_at: iso(job.expires_at),
      tagged_loci_query: backtestQuery(id),
      results: results as unknown as Record<string, unknown> | null,
    },
    links: { self: `/v1/backtests/${id}`, tagged_loci: lociLink(id), events: `/v1/backtests/${id}/events` },
  };
}

type Side = { count: number; locus_ids: string[] };

/** Two backtests side by side: the loci both tag, only the first, only the second, each with its search. */
export function backtestComparisonResource(
  first: number,
  second: number,
  sides: Record<'both' | 'only_first' | 'only_second', Side>,
): ResourceObject {
  const withQuery = (side: Side, value: string) => ({ ...side, query: backtestQuery(value) });
  return {
    type: 'backtest_comparison',
    id: `${first}-${second}`,
    attributes: {
      first: String(first),
      second: String(second),
      both: withQuery(sides.both, `${first}&${second}`),
      only_first: withQuery(sides.only_first, `${first}-${second}`),
      only_second: withQuery(sides.only_second, `${second}-${first}`),
    },
  };
}
