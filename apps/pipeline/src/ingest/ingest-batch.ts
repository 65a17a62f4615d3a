import { htmId } from '@antares/astro';
import { alertSummary, type NewThumbnail, type Repositories, retryOnConnectionLoss, warnRetry, type WatchTarget } from '@antares/db';

import { crossmatchPositions } from '../catalogs/crossmatch.ts';
import type { GwMatcher } from '../gw/association.ts';
import { type LocusAlertsCache, locusAlertsCacheOf, type SummaryAlert } from '../loci/locus-alerts-cache.ts';
import type { AlertPacket } from '../sources/alert-avro.ts';
import type { AlertRecord, PacketRow } from '../stages/alert-record.ts';
import { associationRanges, LocusIndex, newLocusId, type PositionedLocus } from '../stages/associate.ts';
import { level1Time, reasonKey } from '../stages/level1.ts';
import { summaryOf } from '../stages/locus-properties.ts';
import { alertOf, historyRowPasses, rowsOf, storedAlertOf, triggerLevel1 } from '../stages/survey-alerts.ts';
import { packetThumbnails } from '../stages/thumbnails.ts';
import type { WatchMatcher } from '../stages/watch-match.ts';
import { type KnownAlerts, knownAlertsOf } from './known-alerts.ts';
import { type RecomputedLoci, recomputeLoci } from './recompute-loci.ts';
import { skyLockTrixels } from './sky-locks.ts';

/** Counters that `antares ingest` reports; one object is threaded through every batch of a run. */
export interface IngestStats {
  packetsRead: number;
  packetsStored: number;
  duplicates: number;
  rejected: Record<string, number>;
  undecodable: Array<{ file: string; index: number; reason: string }>;
  alertsStored: number;
  historyRowsRejected: number;
  lociCreated: number;
  lociUpdated: number;
  thumbnailErrors: number;
}

export function emptyStats(): IngestStats {
  return {
    packetsRead: 0,
    packetsStored: 0,
    duplicates: 0,
    rejected: {},
    undecodable: [],
    alertsStored: 0,
    historyRowsRejected: 0,
    lociCreated: 0,
    lociUpdated: 0,
    thumbnailErrors: 0,
  };
}

interface AcceptedPacket {
  packet: AlertPacket;
  trigger: AlertRecord;
  rows: PacketRow[];
}

/**
 * Ingests one batch of decoded packets in one transaction: Level 1, association, alerts, thumbnails and
 * the recomputed properties of every touched locus. Batching keeps the round trips per alert low (the
 * throughput target is 1,000 alerts/s); the transaction keeps a crash from leaving half a batch.
 * Returns the ids of the loci the batch created or updated (Level 2 runs on them).
 */
export interface IngestBatchOptions {
  /** Watch lists: alerts within a watched object's radius mark the locus and queue a chat message. */
  watch?: WatchMatcher;
  /** Gravitational-wave events: new detections inside an event's 90% region within its window. */
  gw?: GwMatcher;
  /**
   * The batch's writes become visible only once this settles (Level 2 of the batch before has read its
   * loci, ADR 0043). On a server the transaction waits for it before committing; on PGlite, whose one
   * connection the transaction holds from its start, before it begins.
   */
  commitAfter?: Promise<void>;
}

export async function ingestBatch(
  repos: Repositories,
  packets: AlertPacket[],
  stats: IngestStats,
  options: IngestBatchOptions = {},
): Promise<string[]> {
  const timeReceived = Math.floor(Date.now() / 1000);
  const accepted: AcceptedPacket[] = [];
  for (const packet of packets) {
    stats.packetsRead++;
    const rows = rowsOf(packet);
    const triggerRow = rows[0];
    const timeVerdict = level1Time(triggerRow.mjd);
    const verdict = timeVerdict.passed ? triggerLevel1(packet) : timeVerdict;
    if (!verdict.passed) {
      const key = reasonKey(verdict);
      stats.rejected[key] = (stats.rejected[key] ?? 0) + 1;
      continue;
    }
    // Level 1 of the other history fields waits until the row is known to be new (storeBatch): a
    // stored row passed it already, and checking it would decode a Rubin source in full (ADR 0037).
    // The packet's own array when every row passes (nearly always): a Rubin packet has hundreds.
    const historyPasses = (row: PacketRow, k: number) => k === 0 || level1Time(row.mjd).passed;
    const keptRows = rows.every(historyPasses) ? rows : rows.filter(historyPasses);
    stats.historyRowsRejected += rows.length - keptRows.length;
    const trigger = alertOf(packet, triggerRow, timeReceived);
    accepted.push({ packet, trigger, rows: keptRows });
  }
  if (accepted.length === 0) return [];
  accepted.sort((a, b) => a.trigger.mjd - b.trigger.mjd);
  const trixels = skyLockTrixels(accepted.map((p) => ({ ra: p.trigger.ra as number, dec: p.trigger.dec as number })));
  const statsBefore = structuredClone(stats);
  // A lost database connection (a server restart, a failover, a dropped network) rolls the batch's
  // transaction back: it is run again, after a wait, from its first statement. That is safe because a
  // batch is one transaction plus idempotent writes (partitions, cutouts keyed by file): a batch whose
  // COMMIT went through just before the connection went is found stored the second time (ADR 0059).
  return retryOnConnectionLoss(
    async () => {
      Object.assign(stats, structuredClone(statsBefore));
      return storeBatchRetryingDeadlocks(repos, accepted, trixels, timeReceived, stats, options, statsBefore);
    },
    { onRetry: warnRetry('an ingestion batch') },
  );
}

async function storeBatchRetryingDeadlocks(
  repos: Repositories,
  accepted: AcceptedPacket[],
  trixels: number[],
  timeReceived: number,
  stats: IngestStats,
  options: IngestBatchOptions,
  statsBefore: IngestStats,
): Promise<string[]> {
  await repos.refreshPlannerStatsIfGrown();
  // A month met for the first time gets its partition now, committed on its own: made in the batch's
  // transaction, it would lock the whole alert table, and so every other worker, until the batch commits.
  await repos.alerts.ensurePartitions(rowMjds(accepted));

  if (repos.kind !== 'postgres') await options.commitAfter;
  const caches = { known: knownAlertsOf(repos.db), locusAlerts: locusAlertsCacheOf(repos.db) };
  for (let attempt = 1; ; attempt++) {
    try {
      const { touched, stored, looked, recomputed } = await storeBatch(repos, accepted, trixels, timeReceived, stats, options, caches);
      caches.known.addCommitted(committedByKey(stored, looked));
      caches.locusAlerts.addCommitted(recomputed.loci, recomputed.epoch);
      return touched;
    } catch (error) {
      // A deadlock with another worker (only possible through a locus outside the batch's regions,
      // reached by a history row stored on it): PostgreSQL rolled this batch back; run it again.
      if (attempt >= DEADLOCK_RETRIES || (error as { code?: unknown }).code !== '40P01') throw error;
      Object.assign(stats, structuredClone(statsBefore));
    }
  }
}

const DEADLOCK_RETRIES = 3;

function* rowMjds(accepted: AcceptedPacket[]): Generator<number> {
  for (const { rows } of accepted) for (const row of rows) yield row.mjd;
}

const noCutouts = { thumbnails: [], errors: 0 };

async function storeBatch(
  repos: Repositories,
  accepted: AcceptedPacket[],
  trixels: number[],
  timeReceived: number,
  stats: IngestStats,
  options: IngestBatchOptions,
  caches: { known: KnownAlerts; locusAlerts: LocusAlertsCache },
): Promise<{
  touched: string[];
  stored: Map<string, string>;
  looked: Map<string, PacketRow>;
  recomputed: RecomputedLoci & { epoch: number };
}> {
  const { known } = caches;
  return repos.transaction(async (tx) => {
    // The sky regions this batch can touch: other workers' batches elsewhere go on at the same time.
    await tx.lockSkyRegions(trixels);
    await tx.deferCommitFlush();
    // Each row's locus when stored: from this process's cache (most of a Rubin packet's history), else
    // looked up once per batch. `stored` (the rows found in the database, then the batch's own as they are
    // assigned) stays small: rows the cache knows are not copied into it (ADR 0037).
    // Each packet's rows the cache does not know are listed by index: the few that later steps look at
    // again, instead of going over hundreds of history rows per packet twice more.
    const cachedLoci: Array<Array<string | undefined>> = [];
    const uncached: number[][] = [];
    const unknown = new Map<string, PacketRow>();
    for (const { rows } of accepted) {
      const loci = new Array<string | undefined>(rows.length);
      const missing: number[] = [];
      for (let k = 0; k < rows.length; k++) {
        loci[k] = known.get(rows[k].key);
        if (loci[k] !== undefined) continue;
        missing.push(k);
        if (!unknown.has(rows[k].alert_id)) unknown.set(rows[k].alert_id, rows[k]);
      }
      cachedLoci.push(loci);
      uncached.push(missing);
    }
    const stored = await tx.alerts.findExisting([...unknown.values()]);
    const packets = accepted.map((p, i) => ({
      ...p,
      uncached: uncached[i],
      locusOfRow: (k: number) => cachedLoci[i][k] ?? stored.get(p.rows[k].alert_id),
    }));
    // A packet that came earlier in this batch is a duplicate. One whose triggering alert is stored
    // already is one too, unless it brings rows or cutouts the database lacks: a later packet of the
    // object ingested first (another worker, files out of order) stored that alert as history only.
    // Then the result does not depend on the order packets arrive in.
    const fresh: typeof packets = [];
    const seen = new Set<string>();
    for (const p of packets) {
      if (seen.has(p.trigger.alert_id)) stats.duplicates++;
      else fresh.push(p);
      seen.add(p.trigger.alert_id);
    }
    const storedTriggerLoci = [...new Set(fresh.flatMap((p) => p.locusOfRow(0) ?? []))];
    const withCutouts = new Set(await tx.thumbnails.alertIdsWithThumbnails(storedTriggerLoci));
    if (fresh.length === 0) return { touched: [], stored, looked: unknown, recomputed: { loci: [], positions: [], epoch: -1 } };

    const index = new LocusIndex(
      await tx.loci.findInHtmRanges(fresh.flatMap((p) => associationRanges(p.trigger.ra as number, p.trigger.dec as number))),
    );
    const newLoci: PositionedLocus[] = [];
    const touched = new Set<string>();
    const alertsToStore = [];
    const watchMatches: WatchMatch[] = [];
    if (options.watch) await options.watch.refresh(tx);
    if (options.gw) await options.gw.refresh(tx);
    const gwAssociations: Array<{ alert_id: string; locus_id: string; gracedb_id: string; contour_level: number; contour_area: number }> =
      [];
    const thumbnails: NewThumbnail[] = [];
    const year = new Date().getUTCFullYear();
    for (const p of fresh) {
      const ra = p.trigger.ra as number;
      const dec = p.trigger.dec as number;
      // A stored trigger keeps its locus. Loci created earlier in this batch are in the index too.
      const triggerLocus = p.locusOfRow(0);
      let locus = triggerLocus ? { locus_id: triggerLocus, ra, dec } : index.nearest(ra, dec);
      if (!locus) {
        // No locus within 1": the packet's history may already sit on a locus of the same object.
        const knownLocusId = p.rows.map((_, k) => p.locusOfRow(k)).find((id) => id !== undefined);
        locus = knownLocusId ? { locus_id: knownLocusId, ra, dec } : { locus_id: newLocusId(year), ra, dec };
        if (!knownLocusId) {
          newLoci.push(locus);
          index.add(locus);
        }
      }
      const triggerStored = triggerLocus !== undefined;
      const cutouts =
        triggerStored && withCutouts.has(p.trigger.alert_id) ? noCutouts : packetThumbnails(p.packet, p.trigger.alert_id, locus.locus_id);
      // Rows neither the cache nor the database knew, nor an earlier packet of this batch stored.
      const newRows = p.uncached.filter((k) => stored.get(p.rows[k].alert_id) === undefined).map((k) => p.rows[k]);
      const keptRows = newRows.filter((r) => r === p.rows[0] || historyRowPasses(p.packet, r));
      stats.historyRowsRejected += newRows.length - keptRows.length;
      if (triggerStored && cutouts.thumbnails.length === 0 && keptRows.length === 0) {
        stats.duplicates++;
        continue;
      }
      touched.add(locus.locus_id);
      for (const row of keptRows) {
        if (stored.has(row.alert_id)) continue; // a row twice in one packet
        stored.set(row.alert_id, locus.locus_id);
        // The triggering alert's properties are read again (watch lists, GW); a history row's are
        // only stored, and go to JSON text directly.
        const alert = row === p.rows[0] ? p.trigger : storedAlertOf(p.packet, row, timeReceived);
        alertsToStore.push({
          alert_id: alert.alert_id,
          locus_id: locus.locus_id,
          survey: alert.survey,
          mjd: alert.mjd,
          properties: 'properties' in alert ? alert.properties : alert.writeProperties,
          summary: 'properties' in alert ? summaryOf(alert.properties) : alert.summary,
        });
      }
      for (const target of options.watch?.match(ra, dec) ?? []) watchMatches.push({ locus_id: locus.locus_id, alert: p.trigger, target });
      for (const a of options.gw?.match(ra, dec, p.trigger.mjd) ?? [])
        gwAssociations.push({ alert_id: p.trigger.alert_id, locus_id: locus.locus_id, ...a });
      thumbnails.push(...cutouts.thumbnails);
      stats.thumbnailErrors += cutouts.errors;
      stats.packetsStored++;
    }
    // On a PostgreSQL server the cutouts go in over a second connection, in a transaction of their own (a
    // binary COPY needs one), while this transaction does the rest (two cores at work instead of one).
    // They are keyed by file name and written idempotently, so a batch that fails after them only leaves
    // cutouts that the next ingestion of the same files reuses. PGlite has one connection: there they
    // are written in the transaction. With ANTARES_CUTOUT_DIR the bytes go to a pack file, flushed to
    // disk before the rows pointing into it are written (ADR 0051).
    const cutoutsWritten =
      repos.kind === 'postgres' ? repos.transaction((own) => own.thumbnails.insertMany(thumbnails)) : tx.thumbnails.insertMany(thumbnails);
    cutoutsWritten.catch(() => {});
    // The touched loci's alerts stored before this batch, read before its own are added: a locus is
    // recomputed from them and the batch's new alerts (in memory), not by reading those back too. The
    // ones this process kept since it last recomputed the locus are not read again (locus-alerts-cache.ts).
    const newLocusIds = new Set(newLoci.map((l) => l.locus_id));
    const storedLoci = [...touched].filter((id) => !newLocusIds.has(id));
    const epoch = await tx.alertPartitions.archiveEpoch();
    const revisions = await tx.loci.alertsRevisions(storedLoci);
    const { cached, summaries, missing } = caches.locusAlerts.lookup(revisions, epoch);
    const alertsByLocus = new Map<string, SummaryAlert[]>([...touched].map((id) => [id, [...(cached.get(id) ?? [])]]));
    const read = await tx.alerts.listSummariesByLoci(missing);
    await tx.loci.insertMany(newLoci.map((l) => ({ ...l, htm16: htmId(l.ra, l.dec) })));
    stats.alertsStored += await tx.alerts.insertMany(alertsToStore);
    stats.lociCreated += newLoci.length;
    stats.lociUpdated += touched.size - newLoci.length;
    for (const a of read) alertsByLocus.get(a.locus_id)?.push(a);
    for (const a of alertsToStore)
      alertsByLocus
        .get(a.locus_id)
        ?.push({ alert_id: a.alert_id, locus_id: a.locus_id, survey: a.survey, mjd: a.mjd, properties: alertSummary(a) });
    const recomputed = await recomputeLoci(
      tx,
      alertsByLocus,
      thumbnails.map((t) => t.alert_id),
      revisions,
      { alerts: cached, summaries },
    );
    // Catalog matches at the loci's new positions (wire format section 5: catalog lookup).
    await crossmatchPositions(tx, recomputed.positions);
    if (options.watch && watchMatches.length > 0) await recordWatchMatches(tx, options.watch, watchMatches);
    await tx.gravWaves.addAssociations(gwAssociations);
    await cutoutsWritten;
    await options.commitAfter;
    return { touched: [...touched], stored, looked: unknown, recomputed: { ...recomputed, epoch } };
  });
}

/**
 * What the cache of stored rows learns once a batch commits: the rows it did not know (`looked`, looked
 * up in the database), found there or stored by the batch (`stored`, locus by alert id), by row key.
 */
function committedByKey(stored: Map<string, string>, looked: Map<string, PacketRow>): Map<string, string> {
  const byKey = new Map<string, string>();
  for (const row of looked.values()) {
    const locusId = stored.get(row.alert_id);
    if (locusId !== undefined) byKey.set(row.key, locusId);
  }
  return byKey;
}

interface WatchMatch {
  locus_id: string;
  alert: AlertRecord;
  target: WatchTarget;
}

/**
 * Marks the matched loci and queues one chat message per (watch object, alert), in the batch's
 * transaction: a crash loses neither, and ingesting the same alert again queues nothing new.
 */
async function recordWatchMatches(tx: Repositories, watch: WatchMatcher, matches: WatchMatch[]): Promise<void> {
  const byLocus = new Map<string, { locus_id: string; watch_list_ids: string[]; watch_object_ids: string[] }>();
  for (const m of matches) {
    const entry = byLocus.get(m.locus_id) ?? { locus_id: m.locus_id, watch_list_ids: [], watch_object_ids: [] };
    entry.watch_list_ids.push(String(m.target.watch_list_id));
    entry.watch_object_ids.push(String(m.target.watch_object_id));
    byLocus.set(m.locus_id, entry);
  }
  await tx.loci.addWatchMatches([...byLocus.values()]);
  await tx.chatOutbox.enqueue(
    matches
      .filter((m) => m.target.slack_channel)
      .map((m) => ({
        channel: m.target.slack_channel!,
        text: watch.message(m.target, m.locus_id, m.alert),
        dedup_key: `watch:${m.target.watch_object_id}:${m.alert.alert_id}`,
      })),
  );
}
