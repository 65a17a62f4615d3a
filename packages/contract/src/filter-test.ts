/**
 * The dry run of filter code (`POST /v1/filters/test`): what the server answers and the web app's
 * Test panel shows. Beyond the original system, so its shape is ours.
 */
export interface FilterTestError {
  type: string;
  message: string;
  traceback: string;
}

export type FilterTestLocusStatus = 'ok' | 'skipped' | 'error' | 'timeout' | 'crash';

export interface FilterTestLocus {
  locus_id: string;
  status: FilterTestLocusStatus;
  skip_reason: string | null;
  new_tags: string[];
  new_properties: Record<string, unknown>;
  new_alert_properties: Record<string, unknown>;
  stdout: string;
  error: FilterTestError | null;
  duration_ms: number;
}

/**
 * An enabled filter a chained filter reads from (ADR 0055), run first on the same loci: its outputs
 * were the tested filter's inputs. Only the tested filter's results are reported; this says it ran.
 */
export interface FilterTestDependency {
  /** Null, and the name "a private filter", for a filter that is not public. */
  filter_id: string | null;
  filter_version_id: string | null;
  name: string;
  /** Whether it loaded; false with the reason (it then gave the tested filter nothing). */
  loaded: boolean;
  load_error: FilterTestError | null;
  counts: { loci: number; ok: number; skipped: number; error: number };
}

export interface FilterTestReport {
  loaded: boolean;
  load_error: FilterTestError | null;
  /** What the code declares (tags and properties with their types); null when it did not load. */
  outputs: {
    tags: Array<{ name: string }>;
    locus_properties: Array<{ name: string; type: string }>;
    alert_properties: Array<{ name: string; type: string }>;
    /** The filter that ran: the class (or 2019-style function) named, else the last one the code defines. */
    class_name: string | null;
    /** Every filter class the code defines, in order (its 2019-style filter functions when it has no class). */
    filter_classes: string[];
  } | null;
  /** What the filter printed while loading (module level and setup()). */
  stdout: string;
  /** The loci the filter ran on (fewer than asked for when it stopped early). */
  loci: FilterTestLocus[];
  /**
   * Why the run ended before its last locus (a time budget, or loci timing out one after another) and
   * how many were not run; null when it ran on every locus.
   */
  stopped_early: string | null;
  /** The enabled filters the code reads properties from, in the order they ran before it (none: []). */
  dependencies: FilterTestDependency[];
  /** Milliseconds per locus in the filter, over the loci that ran to the end (null when none did). */
  timing: { p50_ms: number | null; p90_ms: number | null; p99_ms: number | null };
  counts: { loci: number; ok: number; skipped: number; error: number; tagged: number };
}

/** How many recent loci a dry run takes when no locus ids are given, and at most. */
export const FILTER_TEST_DEFAULT_LOCI = 20;
export const FILTER_TEST_MAX_LOCI = 100;

/**
 * `filter_class` of a version or a dry run: the filter to run when the code defines several (a Python
 * identifier; absent or null: the last filter class the code defines).
 */
export const FILTER_CLASS_PATTERN = '^[A-Za-z_][A-Za-z0-9_]*$';
export const FILTER_CLASS_MAX = 255;
