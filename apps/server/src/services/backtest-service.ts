import { MESSAGES } from '@antares/contract';
import { BACKTEST_DEFAULT_LOCI } from '@antares/contract/endpoints';
import { type BacktestJobRow, compileLocusSearch, type FilterRow, type JsonObject, type Repositories } from '@antares/db';
import { aggregateResults, type BacktestEvent, type BacktestParams, type BacktestResults, type BacktestRunner } from '@antares/pipeline';

import type { Identity } from '../auth/authenticator.ts';
import { badRequest, notFound, tooManyRequests, unavailable } from '../errors.ts';
import { policies } from '../policies/index.ts';
import { stringField } from './body.ts';
import { filterForCode } from './filter-file-service.ts';
import { filterClassOf } from './filter-service.ts';

/** Request bodies are capped by the server (1 MiB by default); code is checked again here for a clear message. */
const CODE_MAX_CHARS = 512 * 1024;
/** The whole archive, when a request names no window (MJD 0 is 1858, 100,000 is 2132). */
const ARCHIVE = { from: 0, to: 100_000 };
const LIST_LIMIT = 50;
const COMPARISON_SAMPLE = 100;

export interface BacktestLimits {
  maxLoci: number;
  retentionDays: number;
  /** Backtests wait for a confirmed e-mail address (config.requireEmailVerification). */
  requireVerifiedEmail?: boolean;
}

/**
 * Filter backtests (issue #19): who may start, see and cancel them, and what a request may ask. The
 * work itself is the pipeline's BacktestRunner; undefined where this server has no filter sandbox.
 */
export class BacktestService {
  constructor(
    private readonly repos: Repositories,
    private readonly runner: BacktestRunner | undefined,
    private readonly limits: BacktestLimits,
  ) {}

  /** A saved version: its filter's owner or an admin. */
  async createForVersion(
    identity: Identity,
    filter: FilterRow,
    versionId: number,
    attributes: Record<string, unknown>,
  ): Promise<BacktestJobRow> {
    policies.assertFilterOwnerOrAdmin(identity, filter, 'backtest');
    const version = await this.repos.filters.findVersion(filter.filter_id, versionId);
    if (!version) throw notFound(`No version ${versionId} of filter ${filter.filter_id}`);
    const params = this.paramsOf(attributes);
    return this.queue(identity, {
      filter_id: filter.filter_id,
      filter_version_id: version.filter_version_id,
      code: version.code,
      filter_class: version.filter_class,
      params,
    });
  }

  /** Unsaved code, as a dry run takes it (code, filter_class). */
  async createForCode(identity: Identity, attributes: Record<string, unknown>): Promise<BacktestJobRow> {
    const code = stringField(attributes, 'code') ?? '';
    if (code.trim() === '') throw badRequest(`code: ${MESSAGES.required}`);
    if (code.length > CODE_MAX_CHARS) throw badRequest(`code: ${MESSAGES.maxLength(CODE_MAX_CHARS)}`);
    const filterClass = filterClassOf(attributes) ?? null;
    const params = this.paramsOf(attributes);
    // With filter_id, the runner gives the code that filter's data files (ADR 0053).
    const filter = await filterForCode(this.repos, identity, attributes);
    return this.queue(identity, { filter_id: filter?.filter_id ?? null, filter_version_id: null, code, filter_class: filterClass, params });
  }

  /** A backtest the caller may see: their own, one of their filter's, or any for an admin; else "not found". */
  async visible(identity: Identity, id: number): Promise<BacktestJobRow> {
    const job = await this.repos.backtests.findById(id);
    if (job && (job.user_id === identity.user.user_id || identity.user.admin)) return job;
    if (job?.filter_id != null && (await this.repos.filters.findById(job.filter_id))?.user_id === identity.user.user_id) return job;
    throw notFound(`No backtest with id ${id}`);
  }

  /** A version's backtests: all of them for the filter's owner and admins, else the caller's own. */
  async listForVersion(identity: Identity, filter: FilterRow, versionId: number): Promise<BacktestJobRow[]> {
    const version = await this.repos.filters.findVersion(filter.filter_id, versionId);
    if (!version) throw notFound(`No version ${versionId} of filter ${filter.filter_id}`);
    const all = identity.user.admin || filter.user_id === identity.user.user_id;
    return this.repos.backtests.list({
      filterVersionId: version.filter_version_id,
      userId: all ? undefined : identity.user.user_id,
      limit: LIST_LIMIT,
    });
  }

  async cancel(identity: Identity, id: number): Promise<BacktestJobRow> {
    const job = await this.visible(identity, id);
    return (await this.repos.backtests.requestCancel(job.backtest_id, this.limits.retentionDays)) ?? job;
  }

  /** Final results, or for a job still at work those of the loci it has done. */
  async resultsOf(job: BacktestJobRow): Promise<BacktestResults | null> {
    if (job.results) return job.results as unknown as BacktestResults;
    if (job.loci_done === 0) return null;
    const outcomes = await this.repos.backtests.outcomes(job.backtest_id);
    return aggregateResults(
      outcomes.map((o) => o.outcome as never),
      { lociMatched: job.loci_total ?? outcomes.length, alertsLastDay: await this.repos.backtests.alertsStoredSince(24) },
    );
  }

  async compare(identity: Identity, first: number, second: number) {
    const [a, b] = [await this.visible(identity, first), await this.visible(identity, second)];
    return this.repos.backtests.compare(a.backtest_id, b.backtest_id, COMPARISON_SAMPLE);
  }

  /** Progress of one job, until it ends; returns the unsubscribe function. */
  subscribe(id: number, listener: (event: BacktestEvent) => void): () => void {
    return this.runner?.subscribe((event) => event.backtest_id === id && listener(event)) ?? (() => {});
  }

  private async queue(
    identity: Identity,
    job: { filter_id: number | null; filter_version_id: number | null; code: string; filter_class: string | null; params: BacktestParams },
  ): Promise<BacktestJobRow> {
    policies.assertEmailVerified(identity, this.limits.requireVerifiedEmail);
    if (!this.runner) throw unavailable('Filters cannot be backtested on this server: its filter sandbox is not available');
    // One at a time per user (admins may queue more): a job holds a sandbox worker for minutes.
    const active = await this.repos.backtests.activeOf(identity.user.user_id);
    if (active.length > 0 && !identity.user.admin)
      throw tooManyRequests(
        `You already have a backtest ${active[0].state} (id ${active[0].backtest_id}): wait for it to finish or cancel it`,
      );
    const row = await this.repos.backtests.create({ user_id: identity.user.user_id, ...job, params: job.params as unknown as JsonObject });
    this.runner.start();
    this.runner.wake();
    return row;
  }

  private paramsOf(attributes: Record<string, unknown>): BacktestParams {
    const mjd = (name: string, fallback: number) => {
      const value = attributes[name];
      if (value === undefined || value === null) return fallback;
      if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > 1e6)
        throw badRequest(`${name} must be an MJD (a number)`);
      return value;
    };
    const from = mjd('from_mjd', ARCHIVE.from);
    const to = mjd('to_mjd', ARCHIVE.to);
    if (from > to) throw badRequest('from_mjd must not be after to_mjd');
    const cap = attributes.max_loci ?? Math.min(BACKTEST_DEFAULT_LOCI, this.limits.maxLoci);
    if (typeof cap !== 'number' || !Number.isInteger(cap) || cap < 1 || cap > this.limits.maxLoci)
      throw badRequest(`max_loci must be a whole number from 1 to ${this.limits.maxLoci}`);
    const granularity = attributes.granularity ?? 'alert';
    if (granularity !== 'alert' && granularity !== 'night') throw badRequest('granularity must be "alert" or "night"');
    let search: unknown = attributes.elasticsearch_query ?? null;
    if (typeof search === 'string') {
      try {
        search = JSON.parse(search) as unknown;
      } catch {
        throw badRequest('elasticsearch_query must be a JSON object such as {"query": {...}}');
      }
    }
    if (search !== null && (typeof search !== 'object' || Array.isArray(search)))
      throw badRequest('elasticsearch_query must be a JSON object such as {"query": {...}}');
    compileLocusSearch(search); // a bad search is a 400 now, not a failed job later
    return { from_mjd: from, to_mjd: to, search, max_loci: cap, granularity };
  }
}
