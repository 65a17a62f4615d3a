// Test support for backtest jobs: queue one with a code and parameters, wait for a state (runner tests).
import type { BacktestJobRow, Repositories } from '@antares/db';

import type { BacktestParams } from '../backtest/runner.ts';

/** The whole archive, alert by alert: what most backtest tests replay. */
export const ALL_ALERTS: BacktestParams = { from_mjd: 0, to_mjd: 1e6, search: null, max_loci: 10_000, granularity: 'alert' };

export function backtestJobs(repos: () => Repositories, defaults: BacktestParams = ALL_ALERTS) {
  /** A queued job of `user` for `code` (no stored filter). */
  const queue = (code: string, user: number, params: Partial<BacktestParams> = {}) =>
    repos().backtests.create({
      user_id: user,
      filter_id: null,
      filter_version_id: null,
      code,
      filter_class: null,
      params: { ...defaults, ...params } as never,
    });
  /** The job once `test` holds for it, read every 50 ms for at most `seconds`. */
  const until = async (id: number, test: (job: BacktestJobRow) => boolean, seconds = 120): Promise<BacktestJobRow> => {
    for (let i = 0; i < seconds * 20; i++) {
      const job = (await repos().backtests.findById(id))!;
      if (test(job)) return job;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`backtest ${id} never got there`);
  };
  const finished = (job: BacktestJobRow) => ['done', 'failed', 'cancelled'].includes(job.state);
  return { queue, until, finished };
}
