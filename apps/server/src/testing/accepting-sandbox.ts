import type { FilterTestReport } from '@antares/contract';

// Filter code is never run by the tests that use this: the sandbox stub accepts any code and reports
// an empty dry run, so route-level tests (permissions, fuzzing) need no Python.
const EMPTY_DRY_RUN: FilterTestReport = {
  loaded: true,
  load_error: null,
  outputs: { tags: [], locus_properties: [], alert_properties: [], class_name: null, filter_classes: [] },
  stdout: '',
  loci: [],
  stopped_early: null,
  dependencies: [],
  timing: { p50_ms: null, p90_ms: null, p99_ms: null },
  counts: { loci: 0, ok: 0, skipped: 0, error: 0, tagged: 0 },
};

/** A filter sandbox that accepts every filter and dry-runs it on nothing. */
export const acceptingSandbox = {
  validate: async () => ({ ok: true as const, outputs: { tags: [] } }),
  dryRun: async () => EMPTY_DRY_RUN,
};
