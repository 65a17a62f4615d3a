// Alert rows this process knows are stored, and their loci. A Rubin packet repeats up to a year of its
// object's sources, so each batch looked up tens of thousands of rows that an earlier batch had
// stored or found (ADR 0037). Rows are looked up here first, and in the database only when missing.
// They are looked up by their key (PacketRow.key): a Rubin row's is made without its id's digits.
//
// An entry is true for good once its batch has committed: no statement deletes an alert row or moves
// it to another locus. So entries are added only after the commit (a rolled-back batch adds none),
// and a cache belongs to one database handle. Archiving a month detaches its rows: this process then
// still counts them as stored and does not write them again into a new partition of that month.

import { perDatabase } from '../loci/per-database.ts';

/** Most entries kept: about 100 bytes each. A full cache forgets the rows least recently used. */
export const KNOWN_ALERTS_MAX = 500_000;

/**
 * Two generations instead of an exact LRU order: a hit in the current one costs one lookup (an exact
 * order moved every hit to the end of the Map, a delete and a set for each of a packet's hundreds of
 * history rows). A row found only in the previous generation moves to the current one; when the
 * current one is full, it becomes the previous and the old previous is dropped. So the rows used since
 * the last turn, at least max / 2 of them, are always kept, and never more than max.
 */
export class KnownAlerts {
  private current = new Map<string, string>();
  private previous = new Map<string, string>();

  constructor(private readonly max = KNOWN_ALERTS_MAX) {}

  /** The locus of a row known to be stored, by the row's key. */
  get(key: string): string | undefined {
    const locusId = this.current.get(key);
    if (locusId !== undefined) return locusId;
    const old = this.previous.get(key);
    if (old !== undefined) this.keep(key, old);
    return old;
  }

  /** Rows of a committed batch, stored by it or found stored: locus by row key. */
  addCommitted(rows: Map<string, string>): void {
    for (const [key, locusId] of rows) if (this.current.get(key) !== locusId) this.keep(key, locusId);
  }

  get size(): number {
    let n = this.current.size;
    for (const key of this.previous.keys()) if (!this.current.has(key)) n++;
    return n;
  }

  private keep(key: string, locusId: string): void {
    if (this.current.size >= Math.ceil(this.max / 2)) {
      this.previous = this.current;
      this.current = new Map();
    }
    this.current.set(key, locusId);
  }
}

/** The cache of stored rows of one database handle. */
export const knownAlertsOf = perDatabase(() => new KnownAlerts());
