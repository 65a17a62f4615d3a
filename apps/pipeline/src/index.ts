export { aggregateResults, type BacktestResults, type PropertySummary } from './backtest/results.ts';
export { type BacktestEvent, type BacktestParams, BacktestRunner, type BacktestRunnerOptions } from './backtest/runner.ts';
export { isGzip } from './bytes.ts';
export { type AngleUnit, type CatalogColumns, coverOf, POINT_RADIUS_DEG, toCatalogObjects } from './catalogs/catalog-objects.ts';
export { crossmatchAllLoci, crossmatchLoci, matchPositions } from './catalogs/crossmatch.ts';
export { CATALOG_NAME, importCatalog, type ImportProgress, removeCatalog } from './catalogs/import-catalog.ts';
export { CatalogFileError, type CatalogFormat, readCatalogRows, type SourceRow } from './catalogs/read-rows.ts';
export { ingestAlertMessages, type KafkaMessage, startAlertConsumer } from './drivers/alert-kafka.ts';
export { type GwMessageOutcome, handleGwMessage, startGwConsumer } from './drivers/gw-kafka.ts';
export { type InboxOptions, InboxWatcher } from './drivers/inbox.ts';
export { FilterEnvironmentError, probeFilterEnvironment, type ProbeOptions } from './filters/filter-environment.ts';
export { filesOfFilter, filesOfVersion } from './filters/filter-files.ts';
export { type ChainMember, chainSides, dependenciesOf, findCycle, orderFilters } from './filters/filter-order.ts';
export { type CodeCheck, createFilterSandbox, type FilterSandbox } from './filters/filter-sandbox.ts';
export { LEVEL2_MIN_MEASUREMENTS, type Level2Options, Level2Stage, type Level2Stats } from './filters/level2.ts';
export { type BudgetedFilter, Level2Budget, type Level2BudgetOptions } from './filters/level2-budget.ts';
export { type Level2Backlog, level2Backlog, runLevel2Backlog } from './filters/level2-catchup.ts';
export { locusInputsFor } from './filters/locus-inputs.ts';
export {
  type AlertPropertyLoader,
  APT_INSTALL,
  type BatchResult,
  FilterSandboxPool,
  type LoadResult,
  type LocusForFilter,
  missingSandboxPrerequisites,
  type RunLimits,
  type SandboxPoolOptions,
} from './filters/pool/index.ts';
export {
  DEFAULT_FILTER_PYTHON,
  DEFAULT_SANDBOX_LIMITS,
  DEFAULT_WORKER_LIMITS,
  type SandboxLimits,
  type WorkerLimits,
} from './filters/sandbox-limits.ts';
export { SHIPPED_FILTERS, type ShippedFilter } from './filters/shipped/index.ts';
export { ensureShippedFilters, type SeedResult, SYSTEM_USERNAME } from './filters/shipped/seed.ts';
export { renderCutoutPng } from './fits/render-png.ts';
export { DEFAULT_GW_WINDOW_DAYS, GwMatcher, ingestNotice } from './gw/association.ts';
export { type GwNotice, GwNoticeError, NOTICE_TYPES, type NoticeType, parseIgwnNotice, readSkyMap, skyMapPeak } from './gw/notice.ts';
export { emptyStats, ingestBatch, type IngestStats } from './ingest/ingest-batch.ts';
export { expandInputs, formatIngestSummary, ingestFiles, type IngestProgress } from './ingest/ingest-files.ts';
export { ingestPackets } from './ingest/ingest-packets.ts';
export { recomputeLoci } from './ingest/recompute-loci.ts';
export { alertPropertyCatalog, locusPropertyCatalog, type PropertyDefinition } from './properties/catalog.ts';
export {
  ChatDispatcher,
  type ChatMessage,
  type ChatNotifier,
  type ChatSender,
  outboxNotifier,
  retryDelaySeconds,
  slackSender,
} from './sinks/chat.ts';
export { Poller } from './sinks/poller.ts';
export type { AlertPacket, LsstPacket, ZtfPacket } from './sources/alert-avro.ts';
export { alertFileProblem, decodeAvroBuffer, decodeAvroFile } from './sources/alert-avro.ts';
export { decodeAlertMessage } from './sources/alert-message.ts';
export { alertSchemaSource, SchemaRegistry, type SchemaSource, SHIPPED_RUBIN_SCHEMAS } from './sources/schema-sources.ts';
export { MAX_WATCH_RADIUS_DEG, WatchIndex, WatchMatcher } from './stages/watch-match.ts';
