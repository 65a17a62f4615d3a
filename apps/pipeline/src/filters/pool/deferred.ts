// Deferred alert properties (filter-runtime/PROTOCOL.md, "Deferred properties"): an alert may go to a
// worker without its properties, which the worker asks for (`fetch`) the first time its filter reads
// them. A Rubin locus brings a year of alerts and most filters read only the triggering alert's
// properties, if any: reading every alert's from the database, writing them to every worker and having
// each scan them cost more than running the filters (ADR 0040).
import { packedLocusProperties, packedProperties } from './protocol.ts';
import { triggerAlert } from './requirements.ts';
import type { AlertForFilter, AlertPropertyLoader, LocusForFilter } from './types.ts';
import { WorkerFailure, type WorkerProcess } from './worker-process.ts';

/**
 * Above this share of a batch's loci on which the filter read properties it had not read before (the
 * locus' own, the triggering alert's, the other alerts', counted apart), its next batch sends those in
 * full: a round trip per locus would cost more than sending them.
 */
const EAGER_ABOVE = 0.25;

/**
 * What a filter's next batch sends deferred: the properties of its loci, of their triggering alerts, of
 * the others, and the loci's alert lists (`lists`: the triggering alert alone, the rest if asked for).
 */
export interface Deferral {
  triggers: boolean;
  others: boolean;
  loci: boolean;
  lists: boolean;
}

const DEFER_ALL: Deferral = { triggers: true, others: true, loci: true, lists: true };
const DEFER_NONE: Deferral = { triggers: false, others: false, loci: false, lists: false };

/** What a batch to a worker sends deferred (held-alerts.ts encodes it so). */
export interface BatchDeferral {
  /** Alerts that go without their properties. */
  deferred?: ReadonlySet<AlertForFilter>;
  /** The loci's own properties go deferred. */
  loci: boolean;
  /** The loci go with their triggering alerts alone. */
  lists: boolean;
}

/**
 * What a filter's batch sends deferred, with `loadProperties` (Level 2): at first everything
 * (`deferral` unset), then as its last batch said (`deferralAfter`); nothing without a loader or when
 * `enabled` is false. The alerts it sends in full and lacks properties of are loaded first.
 */
export async function batchDeferral(
  segment: LocusForFilter[],
  lacks: (alert: AlertForFilter) => boolean,
  enabled: boolean,
  deferral: Deferral | undefined,
  loadProperties: AlertPropertyLoader | undefined,
): Promise<BatchDeferral> {
  if (!loadProperties) return { loci: false, lists: false };
  const defer = enabled ? (deferral ?? DEFER_ALL) : DEFER_NONE;
  const send = alertsToSend(segment, lacks, defer);
  if (send.load.length > 0) await loadProperties(send.load);
  return { deferred: send.deferred, loci: defer.loci, lists: defer.lists };
}

/**
 * Which alerts the worker lacks (it holds the others) must be loaded before the batch is sent, and
 * which go deferred. A triggering alert is loaded even when deferred: its properties are checked
 * against requirements, and a fetch of them is then answered without the database.
 */
export function alertsToSend(
  segment: LocusForFilter[],
  lacks: (alert: AlertForFilter) => boolean,
  defer: Deferral,
): { load: AlertForFilter[]; deferred: Set<AlertForFilter> } {
  const load: AlertForFilter[] = [];
  const deferred = new Set<AlertForFilter>();
  for (const locus of segment) {
    const trigger = triggerAlert(locus);
    // A deferred list sends the triggering alert alone; the others are loaded if the worker asks for them.
    for (const a of defer.lists && trigger ? [trigger] : locus.alerts) {
      if (!lacks(a)) continue;
      const isTrigger = a === trigger;
      if (isTrigger ? defer.triggers : defer.others) deferred.add(a);
      if (isTrigger || !defer.others) {
        if (a.properties === undefined && a.propertiesJson === undefined) load.push(a);
      }
    }
  }
  return { load, deferred };
}

/** What the filter's next batch may send deferred, from what its worker said in `done` of this one. */
export function deferralAfter(done: {
  n?: unknown;
  history_reads?: unknown;
  trigger_reads?: unknown;
  locus_reads?: unknown;
  list_reads?: unknown;
}): Deferral {
  const n = typeof done.n === 'number' ? done.n : 0;
  const few = (reads: unknown) => n === 0 || (typeof reads === 'number' ? reads : 0) <= EAGER_ABOVE * n;
  return { triggers: few(done.trigger_reads), others: few(done.history_reads), loci: few(done.locus_reads), lists: few(done.list_reads) };
}

/**
 * Answers a worker's `fetch` for the locus in flight: its own properties (`locus: true`), its whole
 * alert list (`alerts: true`, `wholeList`) and the properties of alerts of that locus only (a forged
 * line naming others fails the worker). Alerts' properties come from the alert objects if loaded, else
 * from `loadProperties`; if that fails, the answer says so and the worker reports that locus' error.
 */
export async function answerFetch(
  w: WorkerProcess,
  msg: { id: unknown; i: unknown; alert_ids: unknown; locus?: unknown; alerts?: unknown },
  inFlight: number,
  locus: LocusForFilter | undefined,
  loadProperties: AlertPropertyLoader | undefined,
  wholeList: (locus: LocusForFilter) => Buffer,
): Promise<void> {
  const ids = msg.alert_ids;
  const byId = new Map(locus?.alerts.map((a) => [a.alert_id, a]));
  const wanted = Array.isArray(ids) ? ids.map((id) => byId.get(id as string)) : [];
  const withLocus = msg.locus === true;
  const withList = msg.alerts === true;
  if (
    msg.i !== inFlight ||
    !locus ||
    !loadProperties ||
    (wanted.length === 0 && !withLocus && !withList) ||
    wanted.some((a) => a === undefined)
  ) {
    return w.fail(new WorkerFailure('protocol', 'the worker asked for properties outside the locus in flight'));
  }
  const head = `{"op":"fetched","id":${JSON.stringify(msg.id)},"i":${inFlight}`;
  if (withList) return w.send(Buffer.concat([Buffer.from(`${head},"alerts":`), wholeList(locus), Buffer.from('}\n')]));
  const alerts = wanted as AlertForFilter[];
  let answer: string;
  try {
    const missing = alerts.filter((a) => a.properties === undefined && a.propertiesJson === undefined);
    if (missing.length > 0) await loadProperties(missing);
    const packed = alerts.map((a) => `${JSON.stringify(a.alert_id)}:"${packedProperties(a)}"`).join(',');
    const own = withLocus ? `,"locus_packed":"${packedLocusProperties(locus)}"` : '';
    answer = `${head},"packed":{${packed}}${own}}\n`;
  } catch (e) {
    answer = `${JSON.stringify({ op: 'fetched', id: msg.id, i: inFlight, error: (e as Error).message ?? String(e) })}\n`;
  }
  w.send(answer);
}
