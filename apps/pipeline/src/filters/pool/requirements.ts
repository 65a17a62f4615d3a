// A filter's requirements (REQUIRED_*, class API A's INPUT_*, TRIGGERING_SURVEY,
// REQUIRED_GRAV_WAVE_PROB_REGION), checked before a locus is sent. The worker makes the same checks
// (Declarations.skip_reason in filter-runtime/antares_runtime/core.py) and reports what it loaded as
// these checks, in its order and with its reasons; a locus the pool can tell the filter would skip gets
// the worker's own report without going to it. A ZTF-only filter (REQUIRED_ALERT_PROPERTIES such as
// ztf_sigmapsf) then costs nothing on Rubin loci: before, each was sent every new Rubin alert in full.
import { emptyReport } from './reports.ts';
import type { AlertForFilter, AlertPropertyLoader, BatchResult, LocusForFilter, LocusReport, Requirement } from './types.ts';

/**
 * `run` on the loci the filter's requirements do not rule out; the others get the skip report the
 * worker would give them, in their places. The triggering alerts' properties are loaded first when a
 * check needs them. Past a batch that stopped early, the loci after its last report get none.
 */
export async function runMeetingRequirements(
  requirements: readonly Requirement[] | undefined,
  loci: LocusForFilter[],
  loadProperties: AlertPropertyLoader | undefined,
  run: (loci: LocusForFilter[]) => Promise<BatchResult>,
): Promise<BatchResult> {
  const triggers = loadProperties ? triggerAlertsLacking(requirements, loci) : [];
  if (triggers.length > 0) await loadProperties!(triggers);
  const skips = loci.map((locus) => skipReason(requirements, locus));
  if (skips.every((reason) => reason === undefined)) return run(loci);
  const sent = loci.filter((_, i) => skips[i] === undefined);
  const result: BatchResult =
    sent.length > 0
      ? await run(sent)
      : { reports: [], restarts: 0, t_50_percentile: null, t_90_percentile: null, t_95_percentile: null, t_99_percentile: null };
  const reports: LocusReport[] = [];
  let k = 0;
  for (const [i, locus] of loci.entries()) {
    const reason = skips[i];
    if (reason !== undefined) reports.push(skippedReport(locus, reason));
    else if (k < result.reports.length) reports.push(result.reports[k++]);
    else break; // the batch stopped early: the loci from here on were not run
  }
  return { ...result, reports };
}

const UNKNOWN = Symbol('unknown');

/**
 * The reason the filter would give for skipping this locus, or undefined when it would run it or the
 * pool cannot tell (the triggering alert's properties are not here: only the worker holds them). So
 * a locus is kept back only when the worker's answer is certain.
 */
export function skipReason(requirements: readonly Requirement[] | undefined, locus: LocusForFilter): string | undefined {
  if (!requirements?.length) return undefined;
  let trigger: AlertForFilter | undefined | typeof UNKNOWN = UNKNOWN;
  for (const c of requirements) {
    let met: boolean | undefined;
    if (c.check === 'locus_property') met = has(locus.properties, c.name);
    else if (c.check === 'tag') met = locus.tags.includes(c.name);
    else {
      if (trigger === UNKNOWN) trigger = triggerAlert(locus);
      met = alertCheck(c, trigger);
    }
    if (met === undefined) return undefined;
    if (!met) return c.reason;
  }
  return undefined;
}

/** Whether the triggering alert meets the check; undefined when that cannot be told here. */
function alertCheck(c: Requirement, trigger: AlertForFilter | undefined): boolean | undefined {
  switch (c.check) {
    case 'alert_property': {
      const props = trigger === undefined ? {} : propertiesOf(trigger);
      return props === undefined ? undefined : has(props, c.name) || has(props, `ant_${c.name}`);
    }
    case 'triggering_survey':
      return surveyOf(trigger) === c.survey;
    case 'grav_wave_region':
      return (trigger?.grav_wave_events ?? []).some(
        (e) => e !== null && typeof e === 'object' && e.contour_level != null && e.contour_level <= c.region,
      );
    default:
      return undefined; // a check this pool does not know: the worker decides
  }
}

/** The triggering alerts whose properties the checks need and that have none here yet (to load them first). */
export function triggerAlertsLacking(requirements: readonly Requirement[] | undefined, loci: LocusForFilter[]): AlertForFilter[] {
  if (!requirements?.some((c) => c.check === 'alert_property')) return [];
  const lacking: AlertForFilter[] = [];
  for (const locus of loci) {
    const trigger = triggerAlert(locus);
    if (trigger && trigger.properties === undefined && trigger.propertiesJson === undefined) lacking.push(trigger);
  }
  return lacking;
}

/** The report the worker gives a locus it skips. */
export function skippedReport(locus: LocusForFilter, reason: string): LocusReport {
  return { ...emptyReport(locus, 'skipped'), skip_reason: reason };
}

/** As sent, a key is there when its value survives JSON (undefined values are dropped). */
function has(object: Record<string, unknown>, name: string): boolean {
  return Object.hasOwn(object, name) && object[name] !== undefined;
}

/** The locus' `alert_id` among its alerts, else its last alert (core.py's trigger_alert). */
export function triggerAlert(locus: LocusForFilter): AlertForFilter | undefined {
  if (locus.alert_id !== undefined) {
    const found = locus.alerts.find((a) => a.alert_id === locus.alert_id);
    if (found) return found;
  }
  return locus.alerts.at(-1);
}

/** Its `survey`, else what its id's prefix says (core.py's alert_survey). */
function surveyOf(alert: AlertForFilter | undefined): string | undefined {
  if (!alert) return undefined;
  if (alert.survey) return String(alert.survey).toLowerCase();
  return alert.alert_id.startsWith('lsst') ? 'lsst' : alert.alert_id.startsWith('ztf') ? 'ztf' : undefined;
}

/** The alert's properties as the worker would see them; undefined when they are not here. Parsed once per alert. */
const parsed = new WeakMap<AlertForFilter, Record<string, unknown>>();
function propertiesOf(alert: AlertForFilter): Record<string, unknown> | undefined {
  if (alert.properties !== undefined) return alert.properties ?? {};
  if (alert.propertiesJson === undefined) return undefined;
  let props = parsed.get(alert);
  if (props === undefined) {
    let value: unknown;
    try {
      value = JSON.parse(alert.propertiesJson);
    } catch {
      return undefined; // the worker will say what it makes of them
    }
    props = value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
    parsed.set(alert, props);
  }
  return props;
}
