import type { ColumnType, Generated } from 'kysely';

/** Row types of the tables, as Kysely sees them. JSON columns hold plain JSON values. */
export type JsonObject = Record<string, unknown>;

export interface LocusTable {
  locus_id: string;
  ra: number;
  dec: number;
  htm16: number;
  properties: ColumnType<JsonObject, string, string>;
  tags: ColumnType<string[], string[] | undefined, string[]>;
  catalogs: ColumnType<string[], string[] | undefined, string[]>;
  grav_wave_events: ColumnType<string[], string[] | undefined, string[]>;
  newest_thumbnail_alert_id: string | null;
  ztf_object_ids: ColumnType<string[], string[] | undefined, string[]>;
  watch_list_ids: ColumnType<string[], string[] | undefined, string[]>;
  watch_object_ids: ColumnType<string[], string[] | undefined, string[]>;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
  ztf_object_id: ColumnType<string | null, never, never>;
  num_mag_values: ColumnType<number | null, never, never>;
  newest_alert_observation_time: ColumnType<number | null, never, never>;
  oldest_alert_observation_time: ColumnType<number | null, never, never>;
  lsst_dia_object_ids: ColumnType<string[], never, never>;
  /** Goes up by one at every recompute of the locus (migration 0019): ingest processes' copies of its alerts are checked against it. */
  alerts_revision: Generated<number>;
}

export interface AlertTable {
  alert_id: string;
  locus_id: string;
  survey: string;
  mjd: number;
  properties: ColumnType<JsonObject, string, string>;
  grav_wave_events: ColumnType<JsonObject[], string | undefined, string>;
  summary: ColumnType<JsonObject | null, string | undefined, string>;
  processed_at: Generated<Date>;
}

export interface AlertThumbnailTable {
  filename: string;
  alert_id: string;
  locus_id: string;
  thumbnail_type: 'science' | 'template' | 'difference';
  /** The cutout as received, or null when it lies in a pack under ANTARES_CUTOUT_DIR (migration 0023). */
  cutout: Uint8Array | null;
  png: Uint8Array | null;
  pack: string | null;
  /** bigint: read back as text by the server's driver. */
  pack_offset: ColumnType<string | number | null, number | null | undefined, number | null>;
  pack_length: number | null;
}

export interface AppUserTable {
  user_id: Generated<number>;
  username: string;
  email: string;
  name: string;
  password_hash: string;
  admin: Generated<boolean>;
  staff: Generated<boolean>;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
  /** Migration 0026: the username's confusable skeleton; null until registration computes it. */
  username_skeleton: string | null;
  /** Migration 0026: when the e-mail address was confirmed; null: not yet. */
  email_verified_at: Date | null;
}

export interface RevokedTokenTable {
  jti: string;
  expires_at: Date;
}

export interface LocusAnnotationTable {
  annotation_id: Generated<number>;
  owner_id: number;
  locus_id: string;
  comment: Generated<string>;
  favorited: Generated<boolean>;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface AnnouncementTable {
  announcement_id: Generated<number>;
  message: string;
  variant: string;
  active: Generated<boolean>;
  created_at: Generated<Date>;
}

export interface FilterTable {
  filter_id: Generated<number>;
  user_id: number;
  name: string;
  description: string;
  public: Generated<boolean>;
  enabled_version_id: number | null;
  runner_enabled: Generated<boolean>;
  priority: Generated<number>;
  level: Generated<number>;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
  disabled_at: Date | null;
}

export interface FilterVersionTable {
  filter_version_id: Generated<number>;
  filter_id: number;
  code: string;
  comment: string;
  status: Generated<string>;
  feedback: string | null;
  declared_outputs: ColumnType<JsonObject | null, string | null, string | null>;
  /** The filter class (or 2019 function) the version runs; null: the last one its code defines. */
  filter_class: string | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
  transitioned_at: Date | null;
  enabled_at: Date | null;
  disabled_at: Date | null;
  validated_at: Date | null;
}

/** A filter's data file under one name now (ADR 0053); the bytes are in the FilterFileStore by sha256. */
export interface FilterFileTable {
  filter_id: number;
  name: string;
  sha256: string;
  size: ColumnType<number, number, number>;
  uploaded_at: Generated<Date>;
}

/** The file a version was submitted and reviewed with under each name (what it runs with). */
export interface FilterVersionFileTable {
  filter_version_id: number;
  name: string;
  sha256: string;
  size: ColumnType<number, number, number>;
  uploaded_at: Date;
}

export interface TagTable {
  tag_id: string;
  filter_version_id: number | null;
  description: string;
}

export interface WatchListTable {
  watch_list_id: Generated<number>;
  user_id: number;
  name: string;
  description: string;
  slack_channel: string | null;
  created_at: Generated<Date>;
  /** When the list was matched against the stored alerts; null until then. */
  history_matched_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
}

export interface Level2RunTable {
  filter_version_id: number;
  locus_id: string;
  ran_at: Generated<Date>;
}

/** Level 2's cost and yield per filter version and window (migration 0025, ADR 0056). */
export interface FilterBudgetWindowTable {
  filter_version_id: number;
  kind: 'hour' | 'night';
  window_start: Date;
  window_s: number;
  alerts_seen: ColumnType<number, number, number>;
  loci_run: ColumnType<number, number, number>;
  alerts_passed: ColumnType<number, number, number>;
  time_s: number;
  enabled_filters: number;
  time_histogram: number[];
}

/** A filter paused for its budget, and the yield notices it was sent (migration 0025). */
export interface FilterBudgetStateTable {
  filter_id: number;
  paused_at: Date | null;
  paused_reason: string | null;
  resumed_at: Date | null;
  yield_noticed_hour: Date | null;
  yield_noticed_night: Date | null;
}

/** Filter backtest jobs (migration 0016). */
export interface BacktestJobTable {
  backtest_id: Generated<number>;
  user_id: number;
  filter_id: number | null;
  filter_version_id: number | null;
  code: string;
  filter_class: string | null;
  params: ColumnType<JsonObject, string, string>;
  state: Generated<string>;
  cancel_requested: Generated<boolean>;
  error: string | null;
  loci_total: number | null;
  loci_done: Generated<number>;
  steps_done: Generated<number>;
  resumes: Generated<number>;
  results: ColumnType<JsonObject | null, string | null, string | null>;
  created_at: Generated<Date>;
  started_at: Date | null;
  heartbeat_at: Date | null;
  finished_at: Date | null;
  expires_at: Date | null;
}

/** One locus a backtest replayed (migration 0016). */
export interface BacktestLocusTable {
  backtest_id: number;
  locus_id: string;
  tags: string[];
  outcome: ColumnType<JsonObject, string, string>;
}

export interface WatchObjectTable {
  watch_object_id: Generated<number>;
  watch_list_id: number;
  ra: number;
  dec: number;
  radius: number;
  comment: string | null;
  created_at: Generated<Date>;
}

export interface ChatOutboxTable {
  message_id: Generated<number>;
  dedup_key: string | null;
  channel: string;
  text: string;
  attempts: Generated<number>;
  next_attempt_at: Generated<Date>;
  sent_at: Date | null;
  last_error: string | null;
  created_at: Generated<Date>;
}

export interface StreamMessageTable {
  message_id: Generated<number>;
  stream: string;
  locus_id: string;
  alert_id: string | null;
  locus: ColumnType<JsonObject, string, string>;
  created_at: Generated<Date>;
}

export interface StreamRelayTable {
  relay: string;
  last_message_id: number;
}

export interface CatalogTable {
  catalog_id: Generated<number>;
  name: string;
  kind: 'point' | 'extended';
  row_count: Generated<number>;
  source: Generated<string>;
  imported_at: Generated<Date>;
}

export interface CatalogObjectTable {
  object_id: Generated<number>;
  catalog_id: number;
  object_key: string;
  object_name: string | null;
  ra: number;
  dec: number;
  radius: number;
  properties: ColumnType<JsonObject, string, string>;
}

export interface CatalogCoverTable {
  htm10: number;
  object_id: number;
}

export interface LocusCatalogMatchTable {
  locus_id: string;
  object_id: number;
  separation: number;
}

export interface GravWaveNoticeTable {
  notice_id: Generated<number>;
  gracedb_id: string;
  notice_type: string;
  notice_datetime: Date;
  event_datetime: Date | null;
  false_alarm_rate: number | null;
  skymap_base64: string | null;
  area50: number | null;
  area90: number | null;
  external_coinc: ColumnType<unknown, string | null, string | null>;
  full_notice: ColumnType<JsonObject, string, string>;
  version_id: number;
  created_at: Generated<Date>;
}

export interface AlertGravWaveTable {
  gracedb_id: string;
  alert_id: string;
  locus_id: string;
  contour_level: number;
  contour_area: number;
}

export interface GravWaveEventTable {
  gracedb_id: string;
  latest_notice_id: number;
  event_datetime: Date | null;
  retracted: Generated<boolean>;
  updated_at: Generated<Date>;
}

export interface SchemaMigrationTable {
  version: string;
  applied_at: Generated<Date>;
}

/** One row: goes up by one when alert partitions are archived or restored (migration 0019). */
export interface AlertArchiveEpochTable {
  epoch: number;
}

export interface Database {
  locus: LocusTable;
  alert: AlertTable;
  alert_thumbnail: AlertThumbnailTable;
  alert_archive_epoch: AlertArchiveEpochTable;
  schema_migrations: SchemaMigrationTable;
  app_user: AppUserTable;
  revoked_token: RevokedTokenTable;
  locus_annotation: LocusAnnotationTable;
  announcement: AnnouncementTable;
  filter: FilterTable;
  filter_version: FilterVersionTable;
  filter_file: FilterFileTable;
  filter_version_file: FilterVersionFileTable;
  tag: TagTable;
  watch_list: WatchListTable;
  watch_object: WatchObjectTable;
  level2_run: Level2RunTable;
  backtest_job: BacktestJobTable;
  filter_budget_window: FilterBudgetWindowTable;
  filter_budget_state: FilterBudgetStateTable;
  backtest_locus: BacktestLocusTable;
  chat_outbox: ChatOutboxTable;
  stream_message: StreamMessageTable;
  stream_relay: StreamRelayTable;
  catalog: CatalogTable;
  catalog_object: CatalogObjectTable;
  catalog_cover: CatalogCoverTable;
  locus_catalog_match: LocusCatalogMatchTable;
  grav_wave_notice: GravWaveNoticeTable;
  grav_wave_event: GravWaveEventTable;
  alert_grav_wave: AlertGravWaveTable;
}
