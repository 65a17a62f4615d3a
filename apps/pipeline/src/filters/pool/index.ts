// The filter pool's public face: what the rest of the code imports.
export { FilterSandboxPool } from './scheduler.ts';
export { APT_INSTALL, missingSandboxPrerequisites, RUNTIME_DIR } from './prerequisites.ts';
export type {
  AlertForFilter, AlertPropertyLoader, BatchResult, FilterError, FilterOutputs, LoadResult, LocusForFilter, LocusReport, LocusStatus,
  RunLimits, SandboxPoolOptions,
} from './types.ts';
