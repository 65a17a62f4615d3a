import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { type BacktestJobRow, migrate, openDatabase, type OpenedDatabase, Repositories } from '@antares/db';
import {
  APT_INSTALL,
  type BacktestParams,
  BacktestRunner,
  expandInputs,
  FilterSandboxPool,
  ingestFiles,
  Level2Stage,
  missingSandboxPrerequisites,
} from '@antares/pipeline';
import { SIMULATED_PACKETS_VERSION, simulateSurvey } from '@antares/pipeline/simulate';

import { TRIVIAL } from './filters.ts';
import { argValue, benchSurvey, freshDatabase } from './ingest.ts';

/**
 * `npm run bench -- backtest [--objects N --nights K] [--live-objects N] [--postgres]`: filter backtests
 * (issue #19). A simulated archive is ingested; then (1) a backtest of a trivial filter replays it alone:
 * alert-steps per second (target >= 2,000 on 2 cores); (2) a second simulated survey is ingested live,
 * with Level 2 running the same filter, alone; (3) a third, alike, while backtests run in the same process
 * (as in the server): its throughput against (2) (target >= 70 %), and the backtest's pace meanwhile.
 * `--niceness N` (default 19, as the server): the backtest workers' nice value; on a machine busy with
 * other work, nice-19 workers get almost no CPU, so (1) measures the load; 0 measures the replay itself.
 * `--alone`: (1) only (what a change to the replay is measured by; the live surveys are not simulated).
 */
export async function benchBacktest(args: string[]): Promise<void> {
  const missing = missingSandboxPrerequisites();
  if (missing.length > 0) throw new Error(`the backtest benchmark needs ${missing.join(' and ')}: ${APT_INSTALL}`);
  const archive = await benchSurvey(args);
  const aloneOnly = args.includes('--alone');
  const liveObjects = Number(argValue(args, '--live-objects') ?? 400);
  const [liveAlone, liveWith] = aloneOnly ? [[], []] : await Promise.all([liveSurvey(liveObjects, 101), liveSurvey(liveObjects, 102)]);
  const postgres = args.includes('--postgres');
  const pgliteDir = postgres ? undefined : mkdtempSync(path.join(os.tmpdir(), 'antares-bench-backtest-'));
  let database: OpenedDatabase | undefined;
  const pool = new FilterSandboxPool({ maxWorkers: 8 });
  let runner: BacktestRunner | undefined;
  try {
    database = postgres
      ? await openDatabase({
          databaseUrl: await freshDatabase(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test', 'antares_bench_backtest'),
        })
      : await openDatabase({ pgliteDir });
    await migrate(database.db);
    const repos = new Repositories(database.db, postgres ? 'postgres' : 'pglite');
    const label = postgres ? 'PostgreSQL server' : 'PGlite (embedded)';
    let started = performance.now();
    const archived = await ingestFiles(repos, archive);
    console.log(
      `${label}: archive of ${archived.packetsRead} packets (${archived.alertsStored} alert rows, ${archived.lociCreated} loci) ingested in ` +
        `${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
    const owner = (await repos.users.create({
      username: 'bench-backtest',
      email: 'bench@example.org',
      name: 'Bench',
      password_hash: 'x',
    }))!;
    const filter = (await repos.filters.create({ user_id: owner.user_id, name: 'Bench trivial', description: 'bench' }))!;
    const version = await repos.filters.createVersion({
      filter_id: filter.filter_id,
      code: TRIVIAL,
      comment: 'v1',
      declared_outputs: null,
    });
    const niceness = Number(argValue(args, '--niceness') ?? 19);
    // The server's poll interval: a job is taken at once anyway (wake), and a faster poll is load of its own.
    runner = new BacktestRunner(repos, { workers: 1, niceness });
    runner.start();
    const params: BacktestParams = { from_mjd: 0, to_mjd: 100_000, search: null, max_loci: 1_000_000, granularity: 'alert' };
    const queue = async () => {
      const job = await repos.backtests.create({
        user_id: owner.user_id,
        filter_id: filter.filter_id,
        filter_version_id: version.filter_version_id,
        code: TRIVIAL,
        filter_class: null,
        params: params as never,
      });
      runner!.wake();
      return job.backtest_id;
    };
    // A job is read when the runner reports on it (and once a second besides), not polled every few
    // milliseconds: on PGlite each read runs on the thread that also feeds the backtest and ingestion,
    // and the server has no such poller.
    const until = (id: number, test: (job: BacktestJobRow) => boolean): Promise<BacktestJobRow> =>
      new Promise((resolve, reject) => {
        let settled = false;
        const check = () =>
          void repos.backtests.findById(id).then((job) => {
            if (settled || !job || !test(job)) return;
            settled = true;
            off();
            clearInterval(timer);
            resolve(job);
          }, reject);
        const off = runner!.subscribe((event) => {
          if (event.backtest_id === id) check();
        });
        const timer = setInterval(check, 1000);
        check();
      });
    const ended = (job: BacktestJobRow) => ['done', 'failed', 'cancelled'].includes(job.state);

    // (1) A backtest alone: from the job's start (its filter loaded) to its end.
    const alone = await until(await queue(), ended);
    const aloneSeconds = (alone.finished_at!.getTime() - alone.started_at!.getTime()) / 1000;
    console.log(
      `Backtest alone (workers at nice ${niceness}): ${alone.loci_done} loci, ${alone.steps_done} alert-steps in ${aloneSeconds.toFixed(1)} s (filter load and results included): ` +
        `${(Number(alone.steps_done) / aloneSeconds).toFixed(0)} alert-steps/s (target >= 2000)`,
    );
    if (aloneOnly) return;

    // (2) Live ingestion with Level 2 alone, then (3) while backtests run.
    await repos.filters.transition(filter.filter_id, version.filter_version_id, 'ENABLED', null);
    const level2 = new Level2Stage(repos, pool);
    await level2.refresh();
    started = performance.now();
    const soloStats = await ingestFiles(repos, liveAlone, { level2 });
    const soloRate = soloStats.packetsRead / ((performance.now() - started) / 1000);
    console.log(`Live ingestion with Level 2, alone: ${soloStats.packetsRead} packets at ${soloRate.toFixed(0)} alerts/s`);

    let current = await queue();
    await until(current, (job) => job.state === 'running' && Number(job.steps_done) > 0);
    const stepsAt = async (id: number) => Number((await repos.backtests.findById(id))!.steps_done);
    let stepsBefore = await stepsAt(current);
    let steps = 0;
    let ingesting = true;
    started = performance.now();
    // Backtests one after another for as long as the ingestion runs.
    const keepBusy = (async () => {
      while (ingesting) {
        const job = await until(current, (j) => ended(j) || !ingesting);
        if (!ended(job)) break;
        steps += Number(job.steps_done) - stepsBefore;
        current = await queue();
        stepsBefore = 0;
      }
    })();
    const withStats = await ingestFiles(repos, liveWith, { level2 });
    const seconds = (performance.now() - started) / 1000;
    ingesting = false;
    await keepBusy;
    steps += (await stepsAt(current)) - stepsBefore;
    await repos.backtests.requestCancel(current, 1);
    const withRate = withStats.packetsRead / seconds;
    console.log(
      `Live ingestion with Level 2, while backtests run: ${withStats.packetsRead} packets at ${withRate.toFixed(0)} alerts/s: ` +
        `${((100 * withRate) / soloRate).toFixed(0)} % of alone (target >= 70 %); the backtests meanwhile: ${(steps / seconds).toFixed(0)} alert-steps/s`,
    );
    await until(current, ended);
  } finally {
    await runner?.close();
    await pool.close();
    await database?.close();
    if (pgliteDir) rmSync(pgliteDir, { recursive: true, force: true });
  }
}

/** A survey ingested live during the benchmark, after the archive's nights; made once, kept in the temporary folder. */
async function liveSurvey(objects: number, seed: number): Promise<string[]> {
  const dir = path.join(os.tmpdir(), `antares-bench-live-v${SIMULATED_PACKETS_VERSION}-${objects}-${seed}`);
  if (!existsSync(dir) || readdirSync(dir).length === 0) {
    console.log(`Simulating ${objects} live objects (seed ${seed}) into ${dir} ...`);
    await simulateSurvey({ objects, nights: 10, seed, outDir: dir, startMjd: 61_100, processes: 1 });
  }
  return expandInputs([dir]);
}
