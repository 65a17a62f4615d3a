import {
  backtestEvents,
  cancelBacktest,
  compareBacktests,
  createCodeBacktest,
  createVersionBacktest,
  getBacktest,
  getVersionBacktest,
  listVersionBacktests,
} from '@antares/contract/endpoints';
import type { BacktestJobRow } from '@antares/db';
import { BacktestRunner, missingSandboxPrerequisites } from '@antares/pipeline';
import type { FastifyInstance } from 'fastify';

import { notFound } from '../../errors.ts';
import { backtestComparisonResource, backtestResource } from '../../serializers/backtest.ts';
import { BacktestService } from '../../services/backtest-service.ts';
import { attributesOf } from '../../services/body.ts';
import { FilterService } from '../../services/filter-service.ts';
import type { RouteContext } from '../context.ts';
import { route } from '../endpoint.ts';
import { eventStreams } from '../event-stream.ts';

const HEARTBEAT_MS = 15_000;
const EVENT_INTERVAL_MS = 1000;
const FINISHED = new Set(['done', 'failed', 'cancelled']);

/**
 * Filter backtests (issue #19): jobs queued here run in the background in the pipeline's BacktestRunner
 * (started with the first job, or at start-up when jobs wait), which this server stops when it closes:
 * a job it stops resumes at the next start.
 */
export function backtestRoutes(app: FastifyInstance, { auth, repos, jobRepos, config }: RouteContext): void {
  const runner =
    missingSandboxPrerequisites(config.filterLimits.python).length === 0
      ? new BacktestRunner(jobRepos, {
          workers: config.backtestWorkers,
          retentionDays: config.backtestRetentionDays,
          timeBudgetMs: config.backtestBudgetMs,
          limits: config.filterLimits,
          budget: config.filterBudget,
        })
      : undefined;
  const backtests = new BacktestService(repos, runner, {
    maxLoci: config.backtestMaxLoci,
    retentionDays: config.backtestRetentionDays,
    requireVerifiedEmail: config.requireEmailVerification,
  });
  const filters = new FilterService(repos);
  app.addHook('onReady', async () => {
    if (runner && (await repos.backtests.hasUnfinished())) runner.start();
  });
  const events = eventStreams(app);
  app.addHook('onClose', async () => runner?.close());
  const document = async (job: BacktestJobRow) => ({ data: backtestResource(job, await backtests.resultsOf(job)) });

  route(app, auth, createVersionBacktest, async (request, reply, identity) => {
    const filter = await filters.visible(Number(request.params.filterId), identity);
    const job = await backtests.createForVersion(identity, filter, Number(request.params.versionId), attributesOf(request.body));
    return reply.status(202).send(await document(job));
  });

  route(app, auth, createCodeBacktest, async (request, reply, identity) => {
    const job = await backtests.createForCode(identity, attributesOf(request.body));
    return reply.status(202).send(await document(job));
  });

  route(app, auth, listVersionBacktests, async (request, _reply, identity) => {
    const filter = await filters.visible(Number(request.params.filterId), identity);
    const jobs = await backtests.listForVersion(identity, filter, Number(request.params.versionId));
    return { data: jobs.map((job) => backtestResource(job, job.results as never)), meta: { count: jobs.length } };
  });

  route(app, auth, getVersionBacktest, async (request, _reply, identity) => {
    const job = await backtests.visible(identity, Number(request.params.backtestId));
    if (String(job.filter_version_id) !== request.params.versionId || String(job.filter_id) !== request.params.filterId)
      throw notFound(`No backtest ${request.params.backtestId} of version ${request.params.versionId}`);
    return document(job);
  });

  route(app, auth, getBacktest, async (request, _reply, identity) =>
    document(await backtests.visible(identity, Number(request.params.backtestId))),
  );

  route(app, auth, cancelBacktest, async (request, _reply, identity) =>
    document(await backtests.cancel(identity, Number(request.params.backtestId))),
  );

  route(app, auth, compareBacktests, async (request, _reply, identity) => {
    const [first, second] = [Number(request.params.backtestId), Number(request.params.otherId)];
    return { data: backtestComparisonResource(first, second, await backtests.compare(identity, first, second)) };
  });

  // Progress as server-sent events: the job now, then at every change, until it ends.
  route(app, auth, backtestEvents, async (request, reply, identity) => {
    const id = Number(request.params.backtestId);
    await backtests.visible(identity, id);
    const out = events.open(reply);
    let closed = false;
    let sending = Promise.resolve();
    const end = () => {
      if (closed) return;
      closed = true;
      unsubscribe();
      clearInterval(heartbeat);
      forget();
      out.end();
    };
    // At most one event a second (each reads the job and its results so far), one at a time, in order:
    // changes in between are coalesced into the next, which reads the newest state.
    let pending = false;
    let last = 0;
    const send = () => {
      if (pending || closed) return;
      pending = true;
      setTimeout(
        () => {
          pending = false;
          last = Date.now();
          sending = sending.then(async () => {
            if (closed) return;
            const job = await repos.backtests.findById(id);
            if (!job || closed) return end();
            out.write(`event: progress\ndata: ${JSON.stringify(await document(job))}\n\n`);
            if (FINISHED.has(job.state)) end();
          });
          sending.catch(end);
        },
        Math.max(0, last + EVENT_INTERVAL_MS - Date.now()),
      );
    };
    const unsubscribe = backtests.subscribe(id, send);
    const heartbeat = setInterval(() => out.write(': keep-alive\n\n'), HEARTBEAT_MS);
    const forget = events.track(end);
    request.raw.once('close', end);
    send();
  });
}
