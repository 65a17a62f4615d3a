import {
  budgetBucketOf,
  budgetFigures,
  DEFAULT_FILTER_BUDGET,
  emptyBudgetHistogram,
  type FilterBudgetLimits,
  nightStartOf,
  windowStartOf,
} from '@antares/contract';
import type { BudgetWindowAdd, BudgetWindowRow, Repositories } from '@antares/db';

import type { ChatNotifier } from '../sinks/chat.ts';
import type { LocusReport } from './pool/index.ts';

/** How Level 2 keeps its filters' budgets and yields (ADR 0056). */
export interface Level2BudgetOptions {
  /** The limits; DEFAULT_FILTER_BUDGET (30 s per 10,000 alerts, yields 20 and 100) when left out. */
  limits?: FilterBudgetLimits;
  /** What time it is (tests step it through short windows). */
  clock?: () => Date;
  /** The admins' chat channel, told of every pause ('' or unset: none). */
  adminChannel?: string;
  notifier?: ChatNotifier;
}

/** A filter as the budget knows it. */
export interface BudgetedFilter {
  filterId: number;
  versionId: number;
  name: string;
  /** Its ERROR_SLACK_CHANNEL, where its owner hears of failures, pauses and yields ('' for none). */
  errorChannel: string;
}

interface Tally {
  filter: BudgetedFilter;
  loci: number;
  passed: number;
  time: number;
  histogram: number[];
}

/** One Level 2 run's counts, per filter; `finish` adds them to the windows. */
export class BudgetRun {
  private readonly tallies = new Map<BudgetedFilter, Tally>();

  constructor(
    private readonly budget: Level2Budget,
    filters: readonly BudgetedFilter[],
    private readonly loaded: number,
  ) {
    for (const filter of filters) this.tallies.set(filter, { filter, loci: 0, passed: 0, time: 0, histogram: emptyBudgetHistogram() });
  }

  /** A report of a locus the filter ran on: its time, and whether it passed (tagged) the locus' alert. */
  count(filter: BudgetedFilter, report: LocusReport): void {
    const tally = this.tallies.get(filter);
    if (!tally || report.status === 'crash' || report.status === 'skipped') return;
    tally.loci++;
    tally.time += report.t;
    tally.histogram[budgetBucketOf(report.t)]++;
    if (report.status === 'ok' && report.new_tags.length > 0) tally.passed++;
  }

  /**
   * Adds the run (over the batches' `alertsSeen` alerts) to the current hour and night, and once per
   * window judges the windows that have closed: returns the filters it paused, which Level 2 stops running.
   */
  finish(alertsSeen: number): Promise<BudgetedFilter[]> {
    return this.budget.finish([...this.tallies.values()], alertsSeen, this.loaded);
  }
}

/**
 * Level 2's accounting: per filter version, per window (an hour by default) and per night, the alerts
 * seen, loci run, time per locus (a histogram) and passing alerts, added up in the database by every
 * process. A filter over its share of the budget for `pauseAfterWindows` consecutive closed windows is
 * paused (its runner switch off, its owner and the admins told); one over the yield is reported to its owner.
 */
export class Level2Budget {
  readonly limits: FilterBudgetLimits;
  private readonly clock: () => Date;
  /** The window whose closed predecessors this process has judged last (ms since the epoch). */
  private judged = -1;

  constructor(
    private readonly repos: Repositories,
    private readonly options: Level2BudgetOptions = {},
  ) {
    this.limits = options.limits ?? DEFAULT_FILTER_BUDGET;
    this.clock = options.clock ?? (() => new Date());
  }

  /** Starts a run of these filters, out of `loaded` filters Level 2 has loaded. */
  start(filters: readonly BudgetedFilter[], loaded: number): BudgetRun {
    return new BudgetRun(this, filters, loaded);
  }

  /** @internal BudgetRun.finish. */
  async finish(tallies: Tally[], alertsSeen: number, loaded: number): Promise<BudgetedFilter[]> {
    if (tallies.length === 0) return [];
    const now = this.clock();
    const hour = windowStartOf(now, this.limits.windowSeconds);
    const night = nightStartOf(now);
    const adds: BudgetWindowAdd[] = tallies.flatMap((t) =>
      (
        [
          ['hour', hour, this.limits.windowSeconds],
          ['night', night, 86_400],
        ] as const
      ).map(([kind, start, seconds]) => ({
        filter_version_id: t.filter.versionId,
        kind,
        window_start: start,
        window_s: seconds,
        alerts_seen: alertsSeen,
        loci_run: t.loci,
        alerts_passed: t.passed,
        time_s: t.time,
        enabled_filters: loaded,
        time_histogram: t.histogram,
      })),
    );
    await this.repos.filterBudgets.add(adds);
    if (hour.getTime() === this.judged) return [];
    this.judged = hour.getTime();
    const paused: BudgetedFilter[] = [];
    for (const { filter } of tallies) {
      if (await this.judge(filter, hour, night)) paused.push(filter);
    }
    return paused;
  }

  /** Judges a filter's closed windows before `hour`: true when it was paused for its budget. */
  private async judge(filter: BudgetedFilter, hour: Date, night: Date): Promise<boolean> {
    const { windowSeconds, pauseAfterWindows } = this.limits;
    const state = (await this.repos.filterBudgets.states([filter.filterId])).get(filter.filterId);
    const from = new Date(Math.max(hour.getTime() - pauseAfterWindows * windowSeconds * 1000, state?.resumed_at?.getTime() ?? 0));
    const windows = (await this.repos.filterBudgets.windowsBetween(filter.versionId, 'hour', from, hour)).filter(
      (w) => w.window_s === windowSeconds,
    );
    const previousHour = windows[0]?.window_start.getTime() === hour.getTime() - windowSeconds * 1000 ? windows[0] : undefined;
    if (previousHour) await this.reportYield(filter, previousHour, 'hour');
    const previousNight = (
      await this.repos.filterBudgets.windowsBetween(filter.versionId, 'night', new Date(night.getTime() - 86_400_000), night)
    )[0];
    if (previousNight) await this.reportYield(filter, previousNight, 'night');

    // windowsBetween gives at most one row per start, so K rows in K windows' span are K consecutive windows.
    const figures = windows.map((w) => budgetFigures(w, this.limits, filter.name));
    if (windows.length < pauseAfterWindows || pauseAfterWindows < 1 || !figures.every((f) => f.over_share)) return false;
    const shares = figures
      .map((f) => percent(f.share!))
      .reverse()
      .join(', ');
    const reason =
      `its time was over its share of the filter budget for ${pauseAfterWindows} consecutive windows of ${windowSeconds} s ` +
      `(${shares} of the budget for all enabled filters; its share: ${percent(figures[0].allowed_share)}; ` +
      `budget: ${this.limits.secondsPer10k} s per 10,000 alerts)`;
    if (!(await this.repos.filterBudgets.pause(filter.filterId, reason, this.clock()))) return true;
    const text = `Filter "${filter.name}" (version ${filter.versionId}) was paused: ${reason}. An admin resumes it on the Filter Runner page.`;
    await this.notify(filter.errorChannel, text);
    if (this.options.adminChannel && this.options.adminChannel !== filter.errorChannel) await this.notify(this.options.adminChannel, text);
    return true;
  }

  /** Tells the owner, once per window, of a closed window over the yield (an hour over the most, a night over the average). */
  private async reportYield(filter: BudgetedFilter, window: BudgetWindowRow, kind: 'hour' | 'night'): Promise<void> {
    const figures = budgetFigures(window, this.limits, filter.name);
    const over = kind === 'hour' ? figures.over_yield_max : figures.over_yield_average;
    if (!over || !(await this.repos.filterBudgets.claimYieldNotice(filter.filterId, kind, window.window_start))) return;
    const limit = kind === 'hour' ? `at most ${this.limits.yieldMaxPer10k}` : `${this.limits.yieldAveragePer10k} on average`;
    const span = kind === 'hour' ? `the window of ${window.window_s} s from` : 'the night from';
    await this.notify(
      filter.errorChannel,
      `Filter "${filter.name}" (version ${filter.versionId}) passed ${round(figures.yield_per_10k!)} alerts per 10,000 in ${span} ` +
        `${window.window_start.toISOString()} (${window.alerts_passed} of ${window.alerts_seen}); the yield asked of a filter is ${limit}.`,
    );
  }

  private async notify(channel: string, text: string): Promise<void> {
    if (!this.options.notifier || channel === '') return;
    await this.options.notifier.send({ channel, text: text.slice(0, 4000) });
  }
}

function percent(fraction: number): string {
  return `${round(fraction * 100)}%`;
}

function round(x: number): number {
  return Number(x.toPrecision(3));
}
