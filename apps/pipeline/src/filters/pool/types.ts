// What the pool and its callers exchange: loci and alerts handed to filters, their reports, what a
// loaded filter declares, and the pool's options. Protocol lines are in protocol.ts (PROTOCOL.md).
import type { WorkerLimits } from '../sandbox-limits.ts';

export interface AlertForFilter {
  alert_id: string;
  mjd: number;
  survey?: string;
  /**
   * The alert's properties, or their JSON text as the database gave it (then never parsed in Node).
   * Neither when the run was given an AlertPropertyLoader: it is asked for them if a worker lacks the alert.
   */
  properties?: Record<string, unknown>;
  propertiesJson?: string;
  grav_wave_events?: { gracedb_id: string; contour_level: number; contour_area: number }[];
}
/** Treated as immutable once handed to the pool: change `properties` or `tags` by replacing them (see locusBody). */
export interface LocusForFilter {
  locus_id: string;
  ra: number;
  dec: number;
  properties: Record<string, unknown>;
  tags: string[];
  alerts: AlertForFilter[];
  alert_id?: string;
  catalog_objects?: Record<string, Record<string, unknown>[]>;
  grav_wave_events_metadata?: Record<string, unknown>;
  watch_list_ids?: string[];
  watch_object_ids?: string[];
}
/** Fills in `propertiesJson` (or `properties`) of alerts about to be sent in full. */
export type AlertPropertyLoader = (alerts: AlertForFilter[]) => Promise<void>;
export interface FilterError {
  type: string;
  message: string;
  traceback: string;
}
export type LocusStatus = 'ok' | 'skipped' | 'error' | 'timeout' | 'crash';
export interface LocusReport {
  locus_id: string;
  status: LocusStatus;
  t: number;
  new_locus_properties: Record<string, unknown>;
  new_alert_properties: Record<string, unknown>;
  new_tags: string[];
  raised_halt: boolean;
  stdout: string;
  stderr: string;
  error?: FilterError;
  skip_reason?: string;
  killed_processes?: number;
}
/** One check as the worker reports it with its load outputs (`requirements`). */
export type Requirement =
  | { check: 'locus_property' | 'tag' | 'alert_property'; name: string; reason: string }
  | { check: 'triggering_survey'; survey: string; reason: string }
  | { check: 'grav_wave_region'; region: number; reason: string };

export interface FilterOutputs {
  /** 'A': antares.devkit Filter; 'B': antares_devkit/devkit2_poc BaseFilter; '2019': an antares.dev_kit function. */
  name: string;
  api: 'A' | 'B' | '2019';
  tags: string[];
  requires_files: string[];
  error_channel: string;
  locus_properties: { name: string; type: 'int' | 'float' | 'str' }[];
  alert_properties: { name: string; type: 'int' | 'float' | 'str' }[];
  triggering_survey: string | null;
  required_grav_wave_prob_region: number | null;
  /** Its requirements as checks, in the order the worker makes them (requirements.ts); absent from older workers' outputs. */
  requirements?: Requirement[];
  /**
   * Every locus property it reads: INPUT_LOCUS_PROPERTIES and REQUIRED_LOCUS_PROPERTIES, and for the
   * devkit2 style what setup() names; it runs after the filters that write them (filter-order.ts).
   * Absent from older workers' outputs.
   */
  input_locus_properties?: string[];
  /** 'event_dict': class API B's devkit2 style, `_run(self, event_dict, ts)`; 'locus': every other. */
  run_style?: 'locus' | 'event_dict';
  /** The filter loaded (the class named, else the last one the code defines) and every one it defines. */
  class_name: string;
  filter_classes: string[];
  /** Loaded with `filesPending`: the REQUIRES_FILES it was not given (it was checked up to its declarations). */
  files_missing?: string[];
}
export interface LoadResult {
  ok: boolean;
  outputs?: FilterOutputs;
  error?: FilterError;
  stdout: string;
  stderr: string;
  t: number;
}
export interface BatchResult {
  /** One per locus, in order; fewer only when the batch stopped early (`stoppedEarly`), for the loci that ran. */
  reports: LocusReport[];
  restarts: number;
  /** Why the batch stopped before its last locus (only with RunLimits); the loci after `reports` were not run. */
  stoppedEarly?: string;
  t_50_percentile: number | null;
  t_90_percentile: number | null;
  t_95_percentile: number | null;
  t_99_percentile: number | null;
}
/**
 * Limits of one batch beyond the pool's (dry runs, Level 2): past either, the worker is stopped, the
 * locus in flight is a timeout, and the rest are not run (BatchResult.stoppedEarly says why).
 */
export interface RunLimits {
  /** The whole batch's time. */
  budgetMs?: number;
  /** This many loci in a row timing out: the filter hangs, the rest would only wait for it. */
  stopAfterTimeouts?: number;
}
/** The worker limits (sandbox-limits.ts) default to DEFAULT_WORKER_LIMITS. */
export interface SandboxPoolOptions extends Partial<WorkerLimits> {
  maxWorkers?: number;
  runtimeDir?: string;
  sandbox?: boolean;
  bwrap?: string;
  stallGraceMs?: number;
  batchTimeoutMs?: number;
  /**
   * With a property loader, send the alerts a worker lacks, and the loci, without their properties,
   * which the worker asks for if its filter reads them; after each batch, as its worker says
   * (deferred.ts; default true). False: every alert a worker lacks is loaded and sent in full.
   */
  deferProperties?: boolean;
  /** Alerts each worker keeps so that they are sent once (about 3 kB each in the worker). */
  alertCacheSize?: number;
  outputLimit?: number;
  maxRestartsPerBatch?: number;
  /** Added to each worker's slot number, which picks its uid: pools that run at once use distinct ranges. */
  slotOffset?: number;
  /**
   * The workers' nice value (0-19; 0: as this process). Backtests run theirs at 19, so that on a busy
   * machine the kernel gives the CPU to Level 2's workers first (ADR 0031).
   */
  niceness?: number;
}
