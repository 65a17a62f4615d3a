// The alerts (their summaries) of loci this process recomputed lately. Each batch recomputes every
// locus it touches from all of the locus's alerts, and read them all from the database to do so: a
// Rubin locus holds up to a year of sources, so the read grew with the locus's age, for every packet.
//
// A copy is used only while it is exact. It is taken at the locus's alerts_revision, which goes up
// by one at every recompute, in whichever process (migration 0019); so a locus another worker has
// changed since is read again. Archiving or restoring alert partitions moves the archive epoch, and
// then every copy is dropped. Copies are added only after their batch commits (a rolled-back batch
// adds none), and only where the batch's update gave the locus the revision after the one it read:
// another revision means another worker wrote the locus in between, and its alerts may be missing.

import type { IncrementalLocusSummary } from '../stages/locus-properties.ts';
import { perDatabase } from './per-database.ts';

/** An alert as a locus is recomputed from it: its summary fields as `properties`. */
export interface SummaryAlert {
  alert_id: string;
  locus_id: string;
  survey: string;
  mjd: number;
  properties: Record<string, unknown>;
}

/** Most alerts kept, over all loci: about 300 bytes each. A full cache forgets its least recently used loci. */
export const LOCUS_ALERTS_MAX = 300_000;

interface Entry {
  revision: number;
  /** Oldest first, as recomputeLoci orders them. */
  alerts: SummaryAlert[];
  /** The locus's summary of exactly these alerts, to go on from when the next ones are newer (never changed). */
  summary?: IncrementalLocusSummary;
}

/** A committed locus as the cache takes it. */
export interface CommittedLocus extends Entry {
  locus_id: string;
}

export class LocusAlertsCache {
  private readonly entries = new Map<string, Entry>();
  private alertCount = 0;
  private epoch: number | undefined;

  constructor(private readonly maxAlerts = LOCUS_ALERTS_MAX) {}

  /**
   * The kept alerts of the loci whose revision is still the one they were kept at (`revisions`: read in
   * the batch's transaction), and the loci to read from the database. `epoch`: the archive epoch now.
   */
  lookup(
    revisions: Map<string, number>,
    epoch: number,
  ): { cached: Map<string, SummaryAlert[]>; summaries: Map<string, IncrementalLocusSummary>; missing: string[] } {
    if (epoch !== this.epoch) {
      this.clear();
      this.epoch = epoch;
    }
    const cached = new Map<string, SummaryAlert[]>();
    const summaries = new Map<string, IncrementalLocusSummary>();
    const missing: string[] = [];
    for (const [locusId, revision] of revisions) {
      const entry = this.entries.get(locusId);
      if (entry?.revision === revision) {
        // Most recently used last: Map keeps insertion order, so the oldest are dropped first.
        this.entries.delete(locusId);
        this.entries.set(locusId, entry);
        cached.set(locusId, entry.alerts);
        if (entry.summary) summaries.set(locusId, entry.summary);
      } else missing.push(locusId);
    }
    return { cached, summaries, missing };
  }

  /** Loci of a committed batch, each with the revision its update gave it and all its alerts, oldest first (and their summary). */
  addCommitted(loci: CommittedLocus[], epoch: number): void {
    if (epoch !== this.epoch) return; // an archive or restore came in between: keep nothing of this batch
    for (const locus of loci) {
      this.remove(locus.locus_id);
      if (locus.alerts.length > this.maxAlerts) continue;
      this.entries.set(locus.locus_id, { revision: locus.revision, alerts: locus.alerts, summary: locus.summary });
      this.alertCount += locus.alerts.length;
    }
    for (const oldest of this.entries.keys()) {
      if (this.alertCount <= this.maxAlerts) break;
      this.remove(oldest);
    }
  }

  /** Loci kept, and their alerts. */
  get size(): { loci: number; alerts: number } {
    return { loci: this.entries.size, alerts: this.alertCount };
  }

  private remove(locusId: string): void {
    const entry = this.entries.get(locusId);
    if (!entry) return;
    this.entries.delete(locusId);
    this.alertCount -= entry.alerts.length;
  }

  private clear(): void {
    this.entries.clear();
    this.alertCount = 0;
  }
}

/** The cache of loci alerts of one database handle. */
export const locusAlertsCacheOf = perDatabase(() => new LocusAlertsCache());
