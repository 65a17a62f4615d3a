// What every survey's packet becomes (ztf-alerts.ts, lsst-alerts.ts) and ingestion stores: the
// survey-neutral shapes, apart from any one survey's mapping.

/** One alert as the pipeline stores it (before association gives it a locus). */
export interface AlertRecord {
  alert_id: string;
  survey: 'ztf' | 'lsst';
  mjd: number;
  properties: Record<string, unknown>;
  /** Detections have a position; upper limits do not. */
  ra: number | null;
  dec: number | null;
}

/**
 * A row of a packet with the id its alert will have: ZTF's candidate or a prv_candidates row, Rubin's
 * DiaSource, an earlier one or a forced measurement.
 */
export interface PacketRow {
  alert_id: string;
  /**
   * The row's key in this process's cache of stored rows (known-alerts.ts): the same for two rows
   * exactly when their alert ids are the same, and for a Rubin row made without its id's decimal
   * digits, short and cheap to hash.
   */
  key: string;
  row: Record<string, unknown>;
  isDetection: boolean;
  /** When it was observed, exactly as its alert's mjd will be: stored alerts are looked up by (id, mjd). */
  mjd: number;
}

/**
 * An alert as ingestion stores it when nothing else reads it (a history row): the few properties that
 * locus summaries are computed from, and all of them only as JSON text. Both are made when the row is
 * sent (on a PostgreSQL server while the database parses the rows before it, ADR 0037), not when the
 * batch decides to store it, when the server has nothing to do; `summary` is made once.
 */
export interface StoredAlert {
  alert_id: string;
  survey: 'ztf' | 'lsst';
  mjd: number;
  writeProperties: () => string;
  summary: () => Record<string, unknown>;
}
