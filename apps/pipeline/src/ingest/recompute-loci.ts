// A batch's touched loci get their position and properties again, from all their alerts: pure stages
// (locus-properties.ts) and one bulk update. A locus this process summarized before goes on from that
// summary instead of going over a year of Rubin history at every packet (ADR 0038).
import type { Repositories } from '@antares/db';

import type { CommittedLocus, SummaryAlert } from '../loci/locus-alerts-cache.ts';
import { IncrementalLocusSummary } from '../stages/locus-properties.ts';

export interface RecomputedLoci {
  /** The loci's new positions. */
  positions: Array<{ id: string; ra: number; dec: number }>;
  /** The loci whose update gave them the revision after the one read, with all their alerts and summary: for the cache. */
  loci: CommittedLocus[];
}

/** Loci summarized before (the cache's): their alerts then, oldest first, and the summary of exactly those. */
export interface SummarizedBefore {
  alerts: Map<string, SummaryAlert[]>;
  summaries: Map<string, IncrementalLocusSummary>;
}

/**
 * Recomputes position and properties of loci from all their alerts, given by locus (pure stage + one
 * bulk update). `revisions`: the loci's alerts_revision when their alerts were read (a new locus has 0).
 * A locus summarized `before` whose new alerts all come after those goes on from that summary (running
 * sums; light-curve features again only for the bands with new detections): the same result, bit for
 * bit, as from all its alerts, without going over a year of Rubin history at every packet.
 */
export async function recomputeLoci(
  repos: Repositories,
  alertsByLocus: Map<string, SummaryAlert[]>,
  newThumbnailAlertIds: string[],
  revisions: Map<string, number>,
  before: SummarizedBefore = { alerts: new Map(), summaries: new Map() },
): Promise<RecomputedLoci> {
  const locusIds = [...alertsByLocus.keys()];
  if (locusIds.length === 0) return { positions: [], loci: [] };
  const loci = await repos.loci.findManyPositions(locusIds);
  const withThumbnails = await repos.thumbnails.alertIdsWithThumbnails(locusIds);
  // Oldest first, the same whether read or given: the newest alert with cutouts is the last one here.
  for (const list of alertsByLocus.values())
    list.sort((a, b) => a.mjd - b.mjd || (a.alert_id < b.alert_id ? -1 : a.alert_id > b.alert_id ? 1 : 0));
  const thumbnailAlerts = new Set([...withThumbnails, ...newThumbnailAlertIds]);
  const incremental = new Map<string, IncrementalLocusSummary>();
  const updates = loci.map((locus) => {
    const locusAlerts = alertsByLocus.get(locus.locus_id) ?? [];
    const summarized = goOnFrom(before, locus.locus_id, locusAlerts) ?? { summary: new IncrementalLocusSummary(locus), from: 0 };
    summarized.summary.add(locusAlerts.slice(summarized.from));
    incremental.set(locus.locus_id, summarized.summary);
    let newestWithThumbnails: string | null = null;
    for (let i = locusAlerts.length - 1; i >= 0 && newestWithThumbnails === null; i--)
      if (thumbnailAlerts.has(locusAlerts[i].alert_id)) newestWithThumbnails = locusAlerts[i].alert_id;
    return { locus_id: locus.locus_id, ...summarized.summary.summary(locus), newest_thumbnail_alert_id: newestWithThumbnails };
  });
  const newRevisions = await repos.loci.updateMany(updates);
  return {
    positions: updates.map((u) => ({ id: u.locus_id, ra: u.ra, dec: u.dec })),
    loci: updates
      .filter((u) => newRevisions.get(u.locus_id) === (revisions.get(u.locus_id) ?? 0) + 1)
      .map((u) => ({
        locus_id: u.locus_id,
        revision: newRevisions.get(u.locus_id)!,
        alerts: alertsByLocus.get(u.locus_id)!,
        summary: incremental.get(u.locus_id),
      })),
  };
}

/**
 * A copy of the locus's earlier summary and where its new alerts start in `sorted` (all its alerts,
 * oldest first), when the earlier alerts are still its first ones there (every new alert is newer);
 * undefined when the locus must be summarized from all its alerts.
 */
function goOnFrom(
  before: SummarizedBefore,
  locusId: string,
  sorted: SummaryAlert[],
): { summary: IncrementalLocusSummary; from: number } | undefined {
  const earlier = before.alerts.get(locusId);
  const summary = before.summaries.get(locusId);
  if (!earlier || !summary || earlier.length === 0) return undefined;
  // Sorting permutes the list: the earlier newest alert keeps its index only if nothing new went before it.
  if (sorted[earlier.length - 1] !== earlier[earlier.length - 1]) return undefined;
  return { summary: summary.clone(), from: earlier.length };
}
