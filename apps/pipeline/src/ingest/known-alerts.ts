// Alert rows this process knows are stored, and their loci. A Rubin packet repeats up to a year of its
// object's sources, so each batch looked up tens of thousands of rows that an earlier batch had
// stored or found (ADR 0037). Rows are looked up here first, and in the database only when missing.
//
// An entry is true for good once its batch has committed: no statement deletes an alert row or moves
// it to another locus. So entries are added only after the commit (a rolled-back batch adds none),
// and a cache belongs to one database handle. Archiving a month detaches its rows: this process then
// still counts them as stored and does not write them again into a new partition of that month.

/** Most entries kept: about 100 bytes each. A full cache forgets its least recently used rows. */
export const KNOWN_ALERTS_MAX = 500_000;

export class KnownAlerts {
  private readonly locusOf = new Map<string, string>();

  constructor(private readonly max = KNOWN_ALERTS_MAX) {}

  /** The locus of a row known to be stored. */
  get(alertId: string): string | undefined {
    const locusId = this.locusOf.get(alertId);
    if (locusId !== undefined) {
      // Most recently used last: Map keeps insertion order, so the oldest are dropped first.
      this.locusOf.delete(alertId);
      this.locusOf.set(alertId, locusId);
    }
    return locusId;
  }

  /** Rows of a committed batch: stored by it, or found stored. */
  addCommitted(rows: Map<string, string>): void {
    for (const [alertId, locusId] of rows) {
      this.locusOf.delete(alertId);
      this.locusOf.set(alertId, locusId);
    }
    for (const oldest of this.locusOf.keys()) {
      if (this.locusOf.size <= this.max) break;
      this.locusOf.delete(oldest);
    }
  }

  get size(): number {
    return this.locusOf.size;
  }
}

const byDatabase = new WeakMap<object, KnownAlerts>();

/** The cache of one database handle (tests open many databases in one process). */
export function knownAlertsOf(database: object): KnownAlerts {
  let known = byDatabase.get(database);
  if (!known) byDatabase.set(database, (known = new KnownAlerts()));
  return known;
}
