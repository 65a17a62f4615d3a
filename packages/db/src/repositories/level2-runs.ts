import { type Kysely, sql } from 'kysely';

import type { Database } from '../schema.ts';

/** One filter version having run on one locus. */
export interface Level2RunRecord {
  filter_version_id: number;
  locus_id: string;
}

/** Which loci each filter version ran on (level2_run): Level 2 records it, the catch-up reads it. */
export class Level2RunRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Records runs (now), replacing an earlier run of the same version on the same locus. */
  async record(runs: Level2RunRecord[]): Promise<void> {
    if (runs.length === 0) return;
    await sql`INSERT INTO level2_run (filter_version_id, locus_id)
      SELECT * FROM unnest(${runs.map((r) => r.filter_version_id)}::bigint[], ${runs.map((r) => r.locus_id)}::text[])
      ON CONFLICT (filter_version_id, locus_id) DO UPDATE SET ran_at = now()`.execute(this.db);
  }

  /**
   * The loci (with at least `minMeasurements`) that a filter version missed: an alert of theirs arrived
   * after the version was enabled and after the version last ran on them. Level 2 runs on a batch's loci
   * after their alerts are stored, so a locus it ran on has no later alert unless a later batch missed it.
   */
  async missedLoci(filterVersionId: number, minMeasurements: number): Promise<string[]> {
    const rows = await sql<{ locus_id: string }>`
      SELECT l.locus_id
      FROM filter_version v
      JOIN locus l ON l.num_mag_values >= ${minMeasurements}
      LEFT JOIN level2_run r ON r.filter_version_id = v.filter_version_id AND r.locus_id = l.locus_id
      WHERE v.filter_version_id = ${filterVersionId}
        AND EXISTS (SELECT 1 FROM alert a WHERE a.locus_id = l.locus_id
          AND a.processed_at > greatest(coalesce(v.enabled_at, '-infinity'::timestamptz), coalesce(r.ran_at, '-infinity'::timestamptz)))
      ORDER BY l.locus_id`.execute(this.db);
    return rows.rows.map((r) => r.locus_id);
  }
}
