export { ingestFiles, expandInputs, formatIngestSummary, type IngestProgress } from './ingest/ingest-files.ts';
export { ingestBatch, recomputeLoci, emptyStats, type IngestStats } from './ingest/ingest-batch.ts';
export { decodeAvroFile, decodeAvroBuffer } from './sources/ztf-avro.ts';
export type { ZtfPacket } from './sources/ztf-avro.ts';
export { alertPropertyCatalog, locusPropertyCatalog, type PropertyDefinition } from './properties/catalog.ts';
export { renderCutoutPng } from './fits/render-png.ts';
export { createCodeValidator, type CodeCheck } from './filters/code-validator.ts';
export { APT_INSTALL, missingSandboxPrerequisites, FilterSandboxPool } from './filters/sandbox-pool.ts';
export { Level2Stage, LEVEL2_MIN_MEASUREMENTS } from './filters/level2.ts';
