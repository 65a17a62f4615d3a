export {
  type CopyTarget,
  pgCopyTarget,
  pgliteCopyTarget,
  prefillArchive,
  type PrefillOptions,
  type PrefillResult,
} from './bench/prefill.ts';
export {
  CONNECTION_RETRY_DELAYS_MS,
  isConnectionLost,
  isStatementTimeout,
  retryOnConnectionLoss,
  type RetryOptions,
  warnRetry,
} from './connection-errors.ts';
export { CutoutPacks, CutoutPackUnavailable, type PackedCutout } from './cutout-packs.ts';
export { FilterFileStore, FilterFileTooLarge, type StoredFile } from './filter-file-store.ts';
export { migrate } from './migrate.ts';
export { type DatabaseKind, openDatabase, type OpenedDatabase, type OpenOptions, withDatabase } from './open.ts';
export {
  type AlertPartition,
  AlertPartitionError,
  AlertPartitionRepository,
  ensureAlertPartitions,
  PARTITION_DAYS,
  spanMjds,
} from './repositories/alert-partitions.ts';
export { AlertRepository, type AlertRow, alertSummary, type NewAlert } from './repositories/alerts.ts';
export { AnnotationRepository, type AnnotationRow } from './repositories/annotations.ts';
export { AnnouncementRepository, type AnnouncementRow } from './repositories/announcements.ts';
export {
  type BacktestJobRow,
  type BacktestLocusRecord,
  BacktestRepository,
  type BacktestState,
  type NewBacktestJob,
} from './repositories/backtests.ts';
export {
  type CatalogCandidate,
  type CatalogMatchRow,
  CatalogRepository,
  type CatalogRow,
  type NewCatalogObject,
} from './repositories/catalogs.ts';
export { ChatOutboxRepository, type ChatOutboxRow } from './repositories/chat-outbox.ts';
export { type BudgetStateRow, type BudgetWindowAdd, type BudgetWindowRow, FilterBudgetRepository } from './repositories/filter-budgets.ts';
export { FilterFileRepository, type FilterFileRow } from './repositories/filter-files.ts';
export { FilterRepository, type FilterRow, type FilterVersionRow, type FilterViewer } from './repositories/filters.ts';
export {
  type GravWaveAssociation,
  type GravWaveEventRow,
  type GravWaveNoticeRow,
  GravWaveRepository,
  type NewGravWaveNotice,
} from './repositories/grav-waves.ts';
export { Repositories } from './repositories/index.ts';
export { type Level2RunRecord, Level2RunRepository } from './repositories/level2-runs.ts';
export { LocusRepository, type LocusRow, type LocusUpdate, type NewLocus } from './repositories/loci.ts';
export { type StreamMessageRow, StreamRepository } from './repositories/streams.ts';
export { TagRepository, type TagRow } from './repositories/tags.ts';
export { type NewThumbnail, type ThumbnailInfo, ThumbnailRepository, type ThumbnailType } from './repositories/thumbnails.ts';
export { RevokedTokenRepository, UserRepository, type UserRow } from './repositories/users.ts';
export {
  type NewWatchObject,
  type WatchCircle,
  WatchListRepository,
  type WatchListRow,
  type WatchObjectRow,
  type WatchTarget,
} from './repositories/watch-lists.ts';
export { openRequestRepositories } from './request-repositories.ts';
export type { Database, JsonObject } from './schema.ts';
export { compileListFilter, compileListSort } from './search/list-filter.ts';
export { fieldOf, type LocusField, type LocusSort, parseLocusSort, SearchQueryError } from './search/locus-fields.ts';
export { type CompiledLocusSearch, compileLocusSearch } from './search/locus-query.ts';
export { SEARCH_MAX_CLAUSES, SEARCH_MAX_CONES, SEARCH_MAX_DEPTH } from './search/search-limits.ts';
export { createTestDatabase, type TestDatabase } from './testing.ts';
