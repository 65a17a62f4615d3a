// One locus replayed as Level 2 saw it (ADR 0030): at each of its detections in time order, the locus
// as it then was (its alerts up to that one, the properties computed from them, and what this filter
// had given it at earlier detections), without reading or writing the locus' stored state.
import { LEVEL2_MIN_MEASUREMENTS } from '../filters/level2.ts';
import type { AlertForFilter, LocusForFilter, LocusReport } from '../filters/pool/index.ts';
import { IncrementalLocusSummary, type LocusAlert } from '../stages/locus-properties.ts';

/** The alert MJDs a backtest covers (inclusive), and how often the filter meets each locus. */
export interface ReplayWindow {
  fromMjd: number;
  toMjd: number;
  /**
   * 'alert' (default): at each packet, as a live stream's Level 2 does; 'night': once per night, at its
   * last packet, as Level 2 over one batch per night does (a filter that looks at the locus' current
   * state can tag once at the end of a night where per packet it tagged, or not, part way through).
   */
  granularity?: 'alert' | 'night';
}

/**
 * Alerts that can have come in a packet of their own: ZTF candidates and Rubin DiaSources. Upper
 * limits and forced photometry only ever come in a packet's history; so do detections older than the
 * archive (a packet carries 30 days of them), which is why a replay asks which alerts came with cutouts.
 */
export function isTriggerAlert(alertId: string): boolean {
  return alertId.startsWith('ztf_candidate:') || alertId.startsWith('lsst:');
}

/** East longitudes of the surveys' sites: a night is named by the local date of its evening. */
const SITE_LONGITUDE_DEG: Record<string, number> = { ztf: -116.8594, lsst: -70.7494 };

/** The observing night of an alert, as the site's local date at the start of that night (YYYY-MM-DD). */
export function nightOf(mjd: number, survey: string | undefined): string {
  const longitude = SITE_LONGITUDE_DEG[survey ?? 'ztf'] ?? 0;
  // Local mean solar time, shifted by half a day: a whole night, across local midnight, is one date.
  const localDay = Math.floor(mjd + longitude / 360 - 0.5);
  return new Date((localDay - 40587) * 86_400_000).toISOString().slice(0, 10);
}

export interface ErrorTally {
  count: number;
  example: { alert_id: string; message: string; traceback: string };
}

/** What a backtest records per locus (stored as backtest_locus.outcome). */
export interface LocusOutcome {
  locus_id: string;
  /** Alert-steps the filter ran on. */
  steps: number;
  /** Filter time over all steps (the sandbox's own measure), and the longest step. */
  cost_ms: number;
  max_step_ms: number;
  /** The first step at which the filter tagged the locus. */
  first_tag: { alert_id: string; mjd: number; night: string; tags: string[] } | null;
  /** Every tag given, in order of first appearance. */
  tags: string[];
  /** Steps run per night, and per night the steps that gave each tag (each one a stream message). */
  steps_by_night: Record<string, number>;
  tagged_by_night: Record<string, Record<string, number>>;
  /** Failures by type: status `error` by the exception's type, else Timeout or WorkerCrash. */
  errors: Record<string, ErrorTally>;
  /** The locus properties the filter had set by the end (its last values). */
  properties: Record<string, unknown>;
}

interface Step {
  /** Alerts [0, end) are the locus' alerts at this step. */
  end: number;
  trigger: AlertForFilter;
  night: string;
}

/**
 * A locus' replay: built from its Level 2 input (every stored alert, oldest first) and the summary
 * properties of those alerts; `next()` gives the input of its next step, `apply()` takes the report.
 */
export class LocusReplay {
  readonly outcome: LocusOutcome;
  private steps: Step[] = [];
  private index = 0;
  private tags: string[] = [];
  private properties: Record<string, unknown> = {};
  /** What the filters it reads from (a chain, ADR 0055) gave the locus at the steps so far, as Level 2 keeps it. */
  private chainTags: string[] = [];
  private chainProperties: Record<string, unknown> = {};
  /** Alerts whose properties the filter extended at an earlier step (Level 2 stores those). */
  private readonly alertOverlays = new Map<string, AlertForFilter>();
  private current: Step | undefined;
  /** The locus properties of the alerts so far, carried from step to step (not recomputed from all of them). */
  private readonly summary: IncrementalLocusSummary;
  private summarized = 0;

  /**
   * `triggers`: the alerts that came as packets (Level 2 ran after each): those stored with cutouts;
   * undefined for a locus without any (then every candidate or DiaSource is taken for one).
   */
  constructor(
    private readonly base: LocusForFilter,
    private readonly summaries: LocusAlert[],
    window: ReplayWindow,
    triggers?: ReadonlySet<string>,
  ) {
    this.summary = new IncrementalLocusSummary(base);
    this.outcome = {
      locus_id: base.locus_id,
      steps: 0,
      cost_ms: 0,
      max_step_ms: 0,
      first_tag: null,
      tags: [],
      steps_by_night: {},
      tagged_by_night: {},
      errors: {},
      properties: {},
    };
    const alerts = base.alerts;
    let detections = 0;
    for (let i = 0; i < alerts.length; i++) {
      const alert = alerts[i];
      if (typeof summaries[i]?.properties.ant_mag === 'number') detections++;
      // Alerts of one time arrive together: the step is at the last of them, with all of them.
      if (i + 1 < alerts.length && alerts[i + 1].mjd === alert.mjd) continue;
      let trigger: AlertForFilter | undefined;
      for (let k = i; k >= 0 && alerts[k].mjd === alert.mjd && !trigger; k--) {
        const id = alerts[k].alert_id;
        if (triggers ? triggers.has(id) : isTriggerAlert(id)) trigger = alerts[k];
      }
      if (!trigger || alert.mjd < window.fromMjd || alert.mjd > window.toMjd) continue;
      // Level 2 runs only on loci with enough measurements.
      if (detections < LEVEL2_MIN_MEASUREMENTS) continue;
      this.steps.push({ end: i + 1, trigger, night: nightOf(trigger.mjd, trigger.survey) });
    }
    if (window.granularity === 'night') {
      const lastOfNight = new Map(this.steps.map((step) => [step.night, step]));
      this.steps = this.steps.filter((step) => lastOfNight.get(step.night) === step);
    }
  }

  get stepCount(): number {
    return this.steps.length;
  }

  get done(): boolean {
    return this.index >= this.steps.length;
  }

  /** The locus as Level 2 saw it at its next step. */
  next(): LocusForFilter {
    const step = this.steps[this.index];
    this.current = step;
    let alerts = this.base.alerts.slice(0, step.end);
    if (this.alertOverlays.size > 0) alerts = alerts.map((a) => this.alertOverlays.get(a.alert_id) ?? a);
    this.summary.add(this.summaries.slice(this.summarized, step.end));
    this.summarized = step.end;
    const summary = this.summary.summary();
    // The GW events of the alerts so far (most loci have none).
    let metadata = this.base.grav_wave_events_metadata ?? {};
    if (Object.keys(metadata).length > 0) {
      const events = new Set(alerts.flatMap((a) => (a.grav_wave_events ?? []).map((e) => e.gracedb_id)));
      metadata = Object.fromEntries(Object.entries(metadata).filter(([id]) => events.has(id)));
    }
    const own = Object.keys(this.chainProperties).length > 0 ? { ...this.chainProperties, ...this.properties } : this.properties;
    return {
      locus_id: this.base.locus_id,
      ra: summary.ra,
      dec: summary.dec,
      // A new object at each step either way (the pool reuses a locus' encoding while its properties are the same object).
      properties: Object.keys(own).length > 0 ? { ...summary.properties, ...own } : summary.properties,
      tags: this.chainTags.length > 0 ? [...new Set([...this.chainTags, ...this.tags])] : [...this.tags],
      alerts,
      alert_id: step.trigger.alert_id,
      catalog_objects: this.base.catalog_objects,
      grav_wave_events_metadata: metadata,
    };
  }

  /** Keeps what a filter the tested one reads from gave the locus at this step (not the tested filter's outcome). */
  applyDependency(report: LocusReport): void {
    if (report.status !== 'ok') return;
    for (const tag of report.new_tags) if (!this.chainTags.includes(tag)) this.chainTags = [...this.chainTags, tag];
    if (Object.keys(report.new_locus_properties).length > 0)
      this.chainProperties = { ...this.chainProperties, ...report.new_locus_properties };
  }

  /**
   * Takes the filter's report on the step `next()` gave; returns the alert whose properties changed
   * (the pool must send it in full again), if any.
   */
  apply(report: LocusReport): string | undefined {
    const step = this.current!;
    this.index++;
    const o = this.outcome;
    o.steps++;
    o.steps_by_night[step.night] = (o.steps_by_night[step.night] ?? 0) + 1;
    const ms = report.t * 1000;
    o.cost_ms += ms;
    o.max_step_ms = Math.max(o.max_step_ms, ms);
    if (report.status === 'skipped') return undefined;
    if (report.status !== 'ok') {
      const type = report.status === 'error' ? (report.error?.type ?? 'Error') : report.status === 'timeout' ? 'Timeout' : 'WorkerCrash';
      const tally = (o.errors[type] ??= {
        count: 0,
        example: { alert_id: step.trigger.alert_id, message: report.error?.message ?? '', traceback: report.error?.traceback ?? '' },
      });
      tally.count++;
      return undefined;
    }
    if (report.new_tags.length > 0) {
      const night = (o.tagged_by_night[step.night] ??= {});
      for (const tag of new Set(report.new_tags)) {
        night[tag] = (night[tag] ?? 0) + 1;
        if (!this.tags.includes(tag)) this.tags = [...this.tags, tag];
        if (!o.tags.includes(tag)) o.tags.push(tag);
      }
      o.first_tag ??= { alert_id: step.trigger.alert_id, mjd: step.trigger.mjd, night: step.night, tags: [...new Set(report.new_tags)] };
    }
    if (Object.keys(report.new_locus_properties).length > 0) {
      this.properties = { ...this.properties, ...report.new_locus_properties };
      o.properties = { ...this.properties };
    }
    if (Object.keys(report.new_alert_properties).length > 0) {
      const trigger = this.alertOverlays.get(step.trigger.alert_id) ?? step.trigger;
      const own = trigger.properties ?? (trigger.propertiesJson ? (JSON.parse(trigger.propertiesJson) as Record<string, unknown>) : {});
      this.alertOverlays.set(step.trigger.alert_id, {
        alert_id: trigger.alert_id,
        mjd: trigger.mjd,
        survey: trigger.survey,
        grav_wave_events: trigger.grav_wave_events,
        properties: { ...own, ...report.new_alert_properties },
      });
      return step.trigger.alert_id;
    }
    return undefined;
  }
}
