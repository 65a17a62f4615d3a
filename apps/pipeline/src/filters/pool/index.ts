// The filter pool's public face: what the rest of the code imports.
export { APT_INSTALL, LAUNCHER_PYTHON, missingSandboxPrerequisites, RUNTIME_DIR } from './prerequisites.ts';
export { FilterSandboxPool } from './scheduler.ts';
export type {
  AlertForFilter,
  AlertPropertyLoader,
  BatchResult,
  FilterError,
  FilterOutputs,
  LoadResult,
  LocusForFilter,
  LocusReport,
  LocusStatus,
  RunLimits,
  SandboxPoolOptions,
} from './types.ts';
