import { type LocusRow, type Repositories, retryOnConnectionLoss, warnRetry } from '@antares/db';

import { locusAlertsCacheOf } from '../loci/locus-alerts-cache.ts';
import type { ChatNotifier } from '../sinks/chat.ts';
import { filesOfVersion } from './filter-files.ts';
import { type ChainMember, chainSides, orderFilters } from './filter-order.ts';
import { type BudgetRun, Level2Budget, type Level2BudgetOptions } from './level2-budget.ts';
import { alertPropertyLoader, type ListedAlert, locusInputsFor } from './locus-inputs.ts';
import type { FilterSandboxPool, LocusForFilter, LocusReport } from './pool/index.ts';

/** Level 2 runs only on loci with at least this many measurements (wire format section 5). */
export const LEVEL2_MIN_MEASUREMENTS = 2;
/** A batch's loci go through the filters in about this many chunks (of at least LEVEL2_MIN_CHUNK loci). */
const LEVEL2_CHUNKS = 8;
const LEVEL2_MIN_CHUNK = 16;

export interface Level2Options {
  /** A filter failing on this many loci in a row is disabled (its enabled version becomes DISABLED). */
  maxConsecutiveFailures?: number;
  /**
   * A filter timing out on this many loci in a row (or timing out while loading on this many refreshes)
   * is disabled sooner: every timeout holds the loci behind it for the locus time limit, so a hung
   * filter pauses ingestion for about this many times that limit, once. Default 3.
   */
  maxConsecutiveTimeouts?: number;
  /** Tells a filter's error channel (its ERROR_SLACK_CHANNEL) when it starts failing and when it is disabled. */
  notifier?: ChatNotifier;
  /** Budgets and yields (ADR 0056): the limits, the admins' channel, a clock for tests. */
  budget?: Omit<Level2BudgetOptions, 'notifier'>;
}

/** What one run covers. */
export interface Level2RunOptions {
  /** Only these filter versions run (the catch-up: the versions that missed the loci); default all enabled. */
  versions?: ReadonlySet<number>;
  /**
   * Stream only the tags a locus did not have yet. The catch-up runs filters on loci whose alerts are
   * old news: a tag the locus already carries (a filter that ran before these runs were recorded) is
   * not announced again.
   */
  newTagsOnly?: boolean;
  /**
   * Called once the loci, their alert lists and the rest of the filters' inputs have been read (a run
   * with nothing to read does not call it: its caller takes the run's end instead). Ingestion commits
   * its next batch only then, so that the filters see each locus as the batch that touched it left it
   * (ADR 0043).
   */
  onLociRead?: () => void;
  /** The alerts of the batch the loci come from (what the filters' budget is counted per); default one per locus. */
  alerts?: number;
}

export interface Level2Stats {
  lociRun: number;
  tagsAdded: number;
  failures: number;
  disabled: string[];
}

/** `reads`/`writes`: the locus properties its load outputs name, which order chained filters (ADR 0055). */
interface LoadedFilter extends ChainMember {
  key: string;
  filterId: number;
  versionId: number;
  name: string;
  /** The filter's ERROR_SLACK_CHANNEL (else SLACK_CHANNEL); '' when it declares none. */
  errorChannel: string;
}

/**
 * Level 2: the enabled user filters, in priority order, on every updated locus with at least two
 * measurements. Each filter sees the tags and properties that earlier filters gave the locus; what they
 * produce is stored on the locus (tags, properties) and its triggering alert. A filter that fails on
 * too many loci in a row is disabled with the error as feedback.
 */
export class Level2Stage {
  private filters: LoadedFilter[] = [];
  private readonly consecutiveFailures = new Map<number, number>();
  private readonly consecutiveTimeouts = new Map<number, number>();
  /** Refreshes on which a filter's load timed out, by filter key (a busy machine gets a few chances). */
  private readonly loadTimeouts = new Map<string, number>();
  readonly stats: Level2Stats = { lociRun: 0, tagsAdded: 0, failures: 0, disabled: [] };
  private readonly budget: Level2Budget;

  constructor(
    private readonly repos: Repositories,
    private readonly pool: FilterSandboxPool,
    private readonly options: Level2Options = {},
  ) {
    this.budget = new Level2Budget(repos, { ...options.budget, notifier: options.notifier });
  }

  private get maxTimeouts(): number {
    return this.options.maxConsecutiveTimeouts ?? 3;
  }

  get filterCount(): number {
    return this.filters.length;
  }

  /**
   * Brings the loaded filters in line with the enabled ones, in priority order with chained filters
   * after the filters they read from (filter-order.ts): new versions are
   * loaded, versions no longer enabled are unloaded, loaded ones stay (a long-running pipeline calls
   * this before each batch). A filter that fails to load is disabled.
   */
  async refresh(): Promise<void> {
    const current = new Map(this.filters.map((f) => [f.key, f]));
    const wanted: LoadedFilter[] = [];
    for (const f of await this.repos.filters.listForPipeline()) {
      const key = `filter-${f.filter_id}-v${f.version_id}`;
      const known = current.get(key);
      if (known) {
        wanted.push(known);
        current.delete(key);
        continue;
      }
      const result = await this.pool.load(key, f.code, await filesOfVersion(this.repos, f.version_id), f.filter_class ?? undefined);
      const filter: LoadedFilter = {
        key,
        filterId: f.filter_id,
        versionId: f.version_id,
        name: f.name,
        errorChannel: result.outputs?.error_channel ?? '',
        ...chainSides(result.outputs),
      };
      const timeouts = result.error?.type === 'Timeout' ? (this.loadTimeouts.get(key) ?? 0) + 1 : 0;
      this.loadTimeouts.set(key, timeouts);
      if (result.ok) wanted.push(filter);
      else if (timeouts === 0 || timeouts >= this.maxTimeouts)
        await this.disable(filter, `it failed to load: ${result.error?.message ?? 'unknown error'}`);
    }
    for (const gone of current.values()) await this.pool.unload(gone.key).catch(() => {});
    // Priority order, except that a filter reading a property another one writes runs after it.
    this.filters = orderFilters(wanted);
  }

  /**
   * The alert lists that this process's ingestion keeps (loci/locus-alerts-cache.ts) of the loci still
   * at the revision they were kept at: exactly their alerts now, so Level 2 does not read them again. A
   * batch's loci were just recomputed by it, so nearly all of them are there.
   */
  private async alertListsKept(loci: LocusRow[]): Promise<Map<string, readonly ListedAlert[]>> {
    const revisions = await this.repos.loci.alertsRevisions(loci.map((l) => l.locus_id));
    const epoch = await this.repos.alertPartitions.archiveEpoch();
    return locusAlertsCacheOf(this.repos.db).lookup(revisions, epoch).cached;
  }

  /** Filter versions loaded and running, in the order they run. */
  get versionIds(): number[] {
    return this.filters.map((f) => f.versionId);
  }

  /**
   * Runs the filters on the loci and stores what they gave. A run whose database connection was lost
   * runs again after a wait (ADR 0059): its results are written in one transaction at its end, so a
   * failed run stored nothing (its budget counts the filters' work twice).
   */
  async run(locusIds: string[], options: Level2RunOptions = {}): Promise<void> {
    return retryOnConnectionLoss(() => this.runOnce(locusIds, options), { onRetry: warnRetry('a Level 2 run') });
  }

  private async runOnce(locusIds: string[], options: Level2RunOptions): Promise<void> {
    const filters = this.filters.filter((f) => !options.versions || options.versions.has(f.versionId));
    if (filters.length === 0 || locusIds.length === 0) return;
    const budget = this.budget.start(filters, this.filters.length);
    const alertsSeen = options.alerts ?? locusIds.length;
    const loci = (await this.repos.loci.findMany(locusIds)).filter(
      (l) => Number(l.properties.num_mag_values ?? 0) >= LEVEL2_MIN_MEASUREMENTS,
    );
    if (loci.length === 0) return this.pauseOverBudget(budget, alertsSeen);
    // `emitted`: every tag a filter gave the locus in this run, new or not (each feeds its stream).
    const results = new Map(
      loci.map((l) => [
        l.locus_id,
        {
          tags: new Set<string>(),
          emitted: new Set<string>(),
          properties: {} as Record<string, unknown>,
          alert: {} as Record<string, unknown>,
        },
      ]),
    );
    // A wavefront over chunks of the loci: filter k runs on chunk c once filter k - 1 is done with
    // chunk c and filter k with chunk c - 1. Each locus still meets the filters one after another in
    // priority order (a filter sees what earlier ones gave it), while several filters' workers (each
    // its own process) and this thread's encoding work at once. The chunks' inputs are all asked for
    // now (as one query would be), and the first filter starts on a chunk as soon as it has arrived.
    const size = Math.max(LEVEL2_MIN_CHUNK, Math.ceil(loci.length / LEVEL2_CHUNKS));
    const listed = await this.alertListsKept(loci);
    const chunks: Promise<LocusForFilter[]>[] = [];
    for (let start = 0; start < loci.length; start += size)
      chunks.push(locusInputsFor(this.repos, loci.slice(start, start + size), listed));
    if (options.onLociRead) void Promise.allSettled(chunks).then(options.onLociRead);
    // Which loci each version ran on (whatever the outcome): recorded with the results (level2_run).
    const ran: Array<{ filter_version_id: number; locus_id: string }> = [];
    const loadProperties = alertPropertyLoader(this.repos);
    const stages: Promise<void>[][] = [];
    for (const [k, filter] of filters.entries()) {
      const row: Promise<void>[] = [];
      stages.push(row);
      for (const [c, inputsOfChunk] of chunks.entries())
        row.push(
          Promise.all([inputsOfChunk, stages[k - 1]?.[c], row[c - 1]]).then(async ([chunk]) => {
            if (!this.filters.includes(filter)) return; // disabled by its failures on an earlier chunk
            // The pool stops the chunk at the timeout that disables the filter: the loci after it would only wait.
            const allowance = this.maxTimeouts - (this.consecutiveTimeouts.get(filter.filterId) ?? 0);
            const { reports } = await this.pool.runBatch(filter.key, chunk, loadProperties, { stopAfterTimeouts: Math.max(1, allowance) });
            for (const [i, report] of reports.entries()) {
              const input = chunk[i];
              const result = results.get(input.locus_id)!;
              budget.count(filter, report);
              // The filter saw the locus, whatever it made of it; a crashed worker may not have run it at all.
              if (report.status !== 'crash') ran.push({ filter_version_id: filter.versionId, locus_id: input.locus_id });
              if (report.status === 'ok') {
                this.consecutiveFailures.set(filter.filterId, 0);
                this.consecutiveTimeouts.set(filter.filterId, 0);
                // Later filters see what earlier ones produced. New objects, not edits: the pool reuses a
                // locus' encoding while its properties and tags are the same objects.
                for (const tag of report.new_tags) {
                  result.emitted.add(tag);
                  if (!input.tags.includes(tag)) {
                    input.tags = [...input.tags, tag];
                    result.tags.add(tag);
                  }
                }
                if (Object.keys(report.new_locus_properties).length > 0)
                  input.properties = { ...input.properties, ...report.new_locus_properties };
                Object.assign(result.properties, report.new_locus_properties);
                Object.assign(result.alert, report.new_alert_properties);
              } else if (report.status !== 'skipped') {
                await this.recordFailure(filter, report);
              }
            }
          }),
        );
    }
    const all = [...chunks, ...stages.flat()];
    // A failure ends the run, once the steps under way have ended: a run again (a lost connection)
    // must not send a worker a chunk while it still runs one of this run's.
    const failed = (await Promise.allSettled(all)).find((s) => s.status === 'rejected');
    if (failed) throw failed.reason;
    const inputs = (await Promise.all(chunks)).flat();
    this.stats.lociRun += inputs.length;
    const byId = new Map(loci.map((l) => [l.locus_id, l]));
    const updates = [...results]
      .map(([locus_id, r]) => ({
        locus_id,
        tags: [...r.tags],
        properties: changedProperties(byId.get(locus_id)!.properties, r.properties),
      }))
      .filter((u) => u.tags.length > 0 || Object.keys(u.properties).length > 0);
    this.stats.tagsAdded += updates.reduce((n, u) => n + u.tags.length, 0);
    const alertUpdates = inputs
      .map((l) => ({ alert_id: l.alert_id!, properties: results.get(l.locus_id)!.alert }))
      .filter((u) => Object.keys(u.properties).length > 0);
    // Output streams: the locus as it now is, once per tag it was given.
    const messages = inputs.flatMap((input) =>
      [...results.get(input.locus_id)![options.newTagsOnly ? 'tags' : 'emitted']].map((stream) => {
        const row = byId.get(input.locus_id)!;
        return {
          stream,
          locus_id: input.locus_id,
          alert_id: input.alert_id ?? null,
          locus: {
            ra: row.ra,
            dec: row.dec,
            htm16: row.htm16,
            properties: input.properties,
            tags: [...input.tags].sort(),
            catalogs: row.catalogs,
            grav_wave_events: row.grav_wave_events,
          },
        };
      }),
    );
    await this.repos.transaction(async (tx) => {
      await tx.lockPipelineWrites();
      await tx.loci.applyFilterResults(updates);
      await tx.alerts.mergeProperties(alertUpdates);
      await tx.streams.append(messages);
      await tx.level2Runs.record(ran);
    });
    // Workers hold the alerts they were sent: these changed, so they are sent again in full.
    this.pool.invalidateAlerts(alertUpdates.map((u) => u.alert_id));
    await this.pauseOverBudget(budget, alertsSeen);
  }

  /** Records the run's budget; a filter it pauses (its runner switch is off now) stops running here too. */
  private async pauseOverBudget(budget: BudgetRun, alertsSeen: number): Promise<void> {
    for (const paused of await budget.finish(alertsSeen)) {
      const filter = this.filters.find((f) => f === paused);
      if (!filter) continue;
      this.filters = this.filters.filter((f) => f !== filter);
      await this.pool.unload(filter.key).catch(() => {});
    }
  }

  private async recordFailure(filter: LoadedFilter, report: LocusReport): Promise<void> {
    this.stats.failures++;
    const count = (this.consecutiveFailures.get(filter.filterId) ?? 0) + 1;
    this.consecutiveFailures.set(filter.filterId, count);
    const timeouts = report.status === 'timeout' ? (this.consecutiveTimeouts.get(filter.filterId) ?? 0) + 1 : 0;
    this.consecutiveTimeouts.set(filter.filterId, timeouts);
    // The first failure of a run of them is told at once; the rest only if they disable the filter.
    if (count === 1)
      await this.notify(
        filter,
        `Filter "${filter.name}" (version ${filter.versionId}) failed on locus ${report.locus_id}:\n${describe(report)}`,
      );
    if (!this.filters.includes(filter)) return;
    if (timeouts >= this.maxTimeouts) {
      await this.disable(filter, `it timed out on ${timeouts} loci in a row; the last (${report.locus_id}): ${describe(report)}`);
    } else if (count >= (this.options.maxConsecutiveFailures ?? 10)) {
      await this.disable(filter, `it failed on ${count} loci in a row; the last (${report.locus_id}): ${describe(report)}`);
    }
  }

  private async disable(filter: LoadedFilter, why: string): Promise<void> {
    this.filters = this.filters.filter((f) => f !== filter);
    this.stats.disabled.push(filter.name);
    await this.repos.filters.transition(filter.filterId, filter.versionId, 'DISABLED', `Disabled automatically: ${why}`.slice(0, 4000));
    await this.pool.unload(filter.key).catch(() => {});
    await this.notify(filter, `Filter "${filter.name}" (version ${filter.versionId}) was disabled: ${why}`);
  }

  private async notify(filter: LoadedFilter, text: string): Promise<void> {
    if (!this.options.notifier || filter.errorChannel === '') return;
    await this.options.notifier.send({ channel: filter.errorChannel, text: text.slice(0, 4000) });
  }
}

/**
 * The properties filters wrote whose values the stored locus does not have already. A feature extractor
 * writes every feature at every run, mostly the values it wrote last time (a Rubin locus has no ZTF
 * features to change): rewriting them updated the locus row and its JSON a second time per batch.
 * Filters write only numbers, strings and nulls, so `===` is the comparison.
 */
function changedProperties(stored: Record<string, unknown>, written: Record<string, unknown>): Record<string, unknown> {
  const changed: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(written)) if (!(Object.hasOwn(stored, name) && stored[name] === value)) changed[name] = value;
  return changed;
}

function describe(report: LocusReport): string {
  return report.error ? `${report.error.type}: ${report.error.message}\n${report.error.traceback}`.trim() : report.status;
}
