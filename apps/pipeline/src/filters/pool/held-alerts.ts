// Which worker holds which alert (ADRs 0007, 0011): one record per alert for all workers, reached
// from the alert object itself after the first look-up, and the batch lines that send each worker the
// alerts it lacks in full and the ones it holds as ids.
import type { BatchDeferral } from './deferred.ts';
import { CHUNK_BYTES, deferredAlert, encodedAlert, LineBuilder, locusBody } from './protocol.ts';
import { triggerAlert } from './requirements.ts';
import type { AlertForFilter, LocusForFilter } from './types.ts';
import type { WorkerProcess } from './worker-process.ts';

/**
 * The pool's record of an alert that workers hold: `holders` has bit i set when the worker in slot i
 * holds `version` of it; `used` orders evictions (least recently referred to first); `live` is false
 * once dropped from the pool's map (an alert object may still point to it).
 */
interface HeldAlert {
  alertId: string;
  quoted: string;
  version: string;
  holders: number;
  used: number;
  live: boolean;
}
const HELD = Symbol('held alert');
type AlertWithRecord = AlertForFilter & { [HELD]?: HeldAlert };

/** A locus' alert ids in order, made once for all the workers it is sent to (its alerts array is not edited). */
const idsOfAlerts = new WeakMap<AlertForFilter[], readonly string[]>();
function alertIds(locus: LocusForFilter): readonly string[] {
  let ids = idsOfAlerts.get(locus.alerts);
  if (ids === undefined) {
    ids = locus.alerts.map((a) => a.alert_id);
    idsOfAlerts.set(locus.alerts, ids);
  }
  return ids;
}

/** What could have changed in an alert a worker holds: a new GW notice can change its associations. */
function alertVersion(alert: AlertForFilter): string {
  return alert.grav_wave_events?.length ? JSON.stringify(alert.grav_wave_events) : '';
}

/** The pool's records of the alerts its workers hold, and the lines that rely on them. */
export class HeldAlerts {
  /**
   * The alerts some worker holds, by id (PROTOCOL.md, alert references). One record per alert for all
   * workers, reached from the alert object itself after the first look-up: Level 2 sends each locus to
   * every filter, and a Map look-up per alert per worker cost more than the rest of the encoding.
   */
  private readonly held = new Map<string, HeldAlert>();
  private useCount = 0;

  /**
   * `slots`: the pool's workers by slot (the pool fills and empties it; a worker's bit is its slot's);
   * `cacheSize`: alerts each worker keeps at most.
   */
  constructor(
    private readonly slots: readonly (WorkerProcess | undefined)[],
    private readonly cacheSize: number,
  ) {}

  /**
   * The batch as this worker is sent it, a chunk at a time (about `CHUNK_BYTES` of JSON each). An alert
   * the worker already holds goes as its id only (most of a locus' alerts were sent with its earlier
   * updates), the rest in full. Loci are resent every time they change, so this cuts what is encoded
   * and decoded per locus run by an order of magnitude. Evictions from what the worker holds are
   * made once the whole batch is encoded (its loci may refer to them) and sent with the next batch.
   * `defer` (deferred.ts): its `deferred` alerts the worker lacks go without their properties, with
   * `loci` so do the loci's own, and with `lists` a locus goes with its triggering alert alone (its
   * whole list is sent if the filter asks for it: `wholeList`).
   */
  batchLines(
    w: WorkerProcess,
    loci: LocusForFilter[],
    defer: BatchDeferral = { loci: false, lists: false },
  ): (prefix: string) => { line: Buffer; last: boolean } {
    let k = 0;
    return (prefix) => {
      const line = new LineBuilder();
      line.add(`${prefix}"batch":[`);
      const end = line.length + CHUNK_BYTES;
      for (let n = 0; k < loci.length && line.length < end; n++) {
        if (n > 0) line.add(',');
        this.encodeLocus(w, loci[k++], line, defer);
      }
      const last = k >= loci.length;
      if (last) this.evict(w);
      line.add(`],"more":${!last}}\n`);
      return { line: line.finish(), last };
    };
  }

  private encodeLocus(w: WorkerProcess, locus: LocusForFilter, line: LineBuilder, defer: BatchDeferral): void {
    const { deferred } = defer;
    const trigger = defer.lists && locus.alerts.length > 1 ? triggerAlert(locus) : undefined;
    if (trigger) {
      // Neither side's list for the locus changes: the worker keeps what it had, and so does the record here.
      line.add('{"alerts_deferred":true,"alerts":[');
      this.encodeAlert(w, trigger, line, deferred);
    } else {
      this.encodeAlerts(w, locus, line, deferred);
    }
    line.add(locusBody(locus, defer.loci));
    if (!trigger) this.keep(w, locus);
  }

  /**
   * A locus' whole alert list for a worker that was sent its triggering alert alone and asks for the
   * rest (PROTOCOL.md, "Deferred alert lists"): `{"kept":n,"alerts":[...]}`, as a batch would send it.
   * Alerts the worker lacks go in full if loaded, else without their properties (asked for if read).
   */
  wholeList(w: WorkerProcess, locus: LocusForFilter): Buffer {
    const line = new LineBuilder();
    const unloaded = new Set(locus.alerts.filter((a) => a.properties === undefined && a.propertiesJson === undefined));
    this.encodeAlerts(w, locus, line, unloaded);
    line.add(']}');
    this.keep(w, locus);
    return line.finish();
  }

  /** `{"kept":n,"alerts":[` and the alerts after the kept ones, as ids or in full (the list left open). */
  private encodeAlerts(w: WorkerProcess, locus: LocusForFilter, line: LineBuilder, deferred?: ReadonlySet<AlertForFilter>): void {
    const kept = this.keptPrefix(w, locus);
    line.add(kept > 0 ? `{"kept":${kept},"alerts":[` : '{"alerts":[');
    for (let i = 0; i < locus.alerts.length; i++) {
      const alert = locus.alerts[i];
      if (i < kept) {
        this.heldRecord(alert).used = ++this.useCount; // in the worker's list already (and held as it is now: keptPrefix checked)
        continue;
      }
      if (i > kept) line.add(',');
      this.encodeAlert(w, alert, line, deferred);
    }
  }

  /** One alert: its id if the worker holds it as it now is, else in full (or deferred); the worker then holds it. */
  private encodeAlert(w: WorkerProcess, alert: AlertForFilter, line: LineBuilder, deferred?: ReadonlySet<AlertForFilter>): void {
    const held = this.heldRecord(alert);
    held.used = ++this.useCount;
    const version = alertVersion(alert);
    if (held.version === version && (held.holders & w.bit) !== 0) {
      line.add(held.quoted);
      return;
    }
    if (held.version !== version) {
      // Its GW associations changed: whoever holds the old version drops it and is sent it again.
      this.release(held, held.holders & ~w.bit, true);
      held.version = version;
    }
    if ((held.holders & w.bit) === 0) {
      held.holders |= w.bit;
      w.heldCount++;
    }
    // Sent in full now: a pending "forget" of it (an invalidation) must not drop this copy.
    w.forget.delete(alert.alert_id);
    line.add(deferred?.has(alert) ? deferredAlert(alert, version) : encodedAlert(alert, version));
  }

  /**
   * How many of the locus' first alerts the worker has in its list for the locus, each held as it now
   * is: those go as a count, not as ids (PROTOCOL.md, "Kept alert lists"). A locus comes back with its
   * new alerts at the end of the same list, and Rubin loci carry hundreds of alerts: their ids were
   * most of a batch's bytes, written to every worker and parsed by each. The prefix stops at the first
   * alert the worker no longer holds (evicted, or its properties or GW associations changed).
   */
  private keptPrefix(w: WorkerProcess, locus: LocusForFilter): number {
    const before = w.keptLoci.get(locus.locus_id);
    if (before === undefined) return 0;
    const { alerts } = locus;
    const end = Math.min(before.length, alerts.length);
    let n = 0;
    while (n < end && alerts[n].alert_id === before[n] && this.holds(w, alerts[n])) n++;
    return n;
  }

  /** The worker now keeps this locus' list; the oldest lists go past `cacheSize` alerts in all. */
  private keep(w: WorkerProcess, locus: LocusForFilter): void {
    const before = w.keptLoci.get(locus.locus_id);
    if (before !== undefined) {
      w.keptLoci.delete(locus.locus_id);
      w.keptAlerts -= before.length;
    }
    const ids = alertIds(locus);
    w.keptLoci.set(locus.locus_id, ids);
    w.keptAlerts += ids.length;
    w.forgetLoci.delete(locus.locus_id);
    for (const [locusId, list] of w.keptLoci) {
      if (w.keptAlerts <= this.cacheSize || locusId === locus.locus_id) break;
      w.keptLoci.delete(locusId);
      w.keptAlerts -= list.length;
      w.forgetLoci.add(locusId);
    }
  }

  /** The pool's record of this alert, made on first sight and kept on the alert object. */
  private heldRecord(alert: AlertForFilter): HeldAlert {
    let held = this.knownRecord(alert);
    if (held === undefined) {
      held = {
        alertId: alert.alert_id,
        quoted: JSON.stringify(alert.alert_id),
        version: alertVersion(alert),
        holders: 0,
        used: 0,
        live: true,
      };
      this.held.set(alert.alert_id, held);
      (alert as AlertWithRecord)[HELD] = held;
    }
    return held;
  }

  /** The pool's record of this alert if it has one, kept on the alert object once found. */
  private knownRecord(alert: AlertForFilter): HeldAlert | undefined {
    const withRecord = alert as AlertWithRecord;
    const attached = withRecord[HELD];
    if (attached?.live) return attached;
    const held = this.held.get(alert.alert_id);
    if (held) withRecord[HELD] = held;
    return held;
  }

  /** Whether the worker holds this alert as it now is (else it is sent in full). */
  holds(w: WorkerProcess, alert: AlertForFilter): boolean {
    const held = this.knownRecord(alert);
    return held !== undefined && (held.holders & w.bit) !== 0 && held.version === alertVersion(alert);
  }

  /**
   * The workers in `bits` no longer hold the alert: they are told to forget it with their next batch.
   * The record goes once no worker holds it, unless `keep` (it is about to be sent again).
   */
  private release(held: HeldAlert, bits: number, keep = false): void {
    for (const w of this.slots) {
      if (!w || (held.holders & bits & w.bit) === 0) continue;
      held.holders &= ~w.bit;
      w.heldCount--;
      w.forget.add(held.alertId);
    }
    if (held.holders === 0 && !keep) this.discard(held);
  }

  /** No worker holds it any more: the record goes (alert objects that still point to it look it up again). */
  private discard(held: HeldAlert): void {
    held.live = false;
    this.held.delete(held.alertId);
  }

  /** A new worker in this slot (or none) holds nothing. */
  dropHoldings(slot: number): void {
    const bit = 1 << slot;
    for (const held of this.held.values()) {
      if ((held.holders & bit) === 0) continue;
      held.holders &= ~bit;
      if (held.holders === 0) this.discard(held);
    }
  }

  /**
   * Bounded memory on both sides: the least recently used alerts are forgotten, down to a tenth below
   * the limit. Finding them scans every alert record of the pool, so it is done once per tenth of the
   * cache, not at every batch past the limit: with 20 filters over Rubin loci (100-200 alerts each) the
   * workers were past 50,000 at every batch, and this scan was most of Level 2's Node.js time (ADR 0057).
   */
  private evict(w: WorkerProcess): void {
    if (w.heldCount <= this.cacheSize) return;
    const excess = w.heldCount - (this.cacheSize - Math.floor(this.cacheSize / 10));
    const mine = [...this.held.values()].filter((held) => (held.holders & w.bit) !== 0);
    for (const held of mine.sort((a, b) => a.used - b.used).slice(0, excess)) this.release(held, w.bit);
  }

  /** Alerts whose properties changed (Level 2 added some): sent in full again next time. */
  invalidate(alertIds: string[]): void {
    for (const id of alertIds) {
      const held = this.held.get(id);
      if (held) this.release(held, held.holders);
    }
  }
}
