// The limits a filter runs under: one place for their values. The server's configuration
// (apps/server/src/config.ts, ANTARES_FILTER_* variables) starts from these defaults and validates what
// it is given; the pool passes the worker's share to the Python launcher (sandbox.py --limits), which
// has no defaults of its own.

/** Debian's interpreter: what filters run by default (ANTARES_FILTER_PYTHON names another). */
export const DEFAULT_FILTER_PYTHON = '/usr/bin/python3';

/** What each sandboxed worker process runs and may use. */
export interface WorkerLimits {
  /**
   * The interpreter every worker runs (ANTARES_FILTER_PYTHON): Debian's, or for example a virtual
   * environment made with --system-site-packages holding what authors asked for, which the sandbox binds
   * read-only (sandbox.py's interpreter_folders). Kept with the limits so that every pool gets it from one place.
   */
  python: string;
  /** One locus in `run`: past it the locus' report is a timeout (SIGALRM inside, the pool's watchdog outside). */
  locusTimeoutMs: number;
  /** Starting the worker and loading the code (imports, class body, `setup()`). */
  loadTimeoutMs: number;
  /** Address space of the worker (RLIMIT_AS). */
  memoryMb: number;
  /** CPU seconds over a worker's life (RLIMIT_CPU); the pool recycles a worker before it. */
  cpuSeconds: number;
  /** Processes of the worker's uid (RLIMIT_NPROC): fork bombs. */
  nproc: number;
  /** Largest file it may write (RLIMIT_FSIZE). */
  fsizeMb: number;
  /** Size of its private /tmp. */
  tmpMb: number;
  /** Characters of stdout/stderr kept per locus. */
  outputLimit: number;
  /**
   * The longest protocol line a worker may write (a report, a fetch): the pool stops reading past it,
   * before parsing, kills the worker and gives its locus the error. The worker's own reading of the
   * pool's lines is bounded too: by this, or by its load line where code and data files make that longer.
   */
  maxLineBytes: number;
  /**
   * The host uids workers run as, `FIRST-LAST` (ANTARES_SANDBOX_UID_RANGE): each worker on the machine
   * holds one of its own while it runs, whichever instance started it (sandbox_host.py's lock).
   */
  uidRange: string;
  /**
   * Where each worker gets a cgroup v2 memory.max of memoryMb + tmpMb over its whole process tree
   * (ANTARES_FILTER_CGROUP): `auto` (where the host offers one), `off`, or a delegated cgroup v2 folder.
   */
  memoryCgroup: string;
}

/** The worker limits plus those of dry runs (POST /v1/filters/test) and code checks. */
export interface SandboxLimits extends WorkerLimits {
  /** A dry run's loci all together: past it the run stops and its report says so. */
  dryRunBudgetMs: number;
  /** Workers of the API server's pool (dry runs and code checks); each user holds at most one at a time. */
  dryRunWorkers: number;
  /**
   * Workers of Level 2's pool: one per enabled filter is what keeps every filter loaded (with fewer, the
   * pool stops and restarts workers, and their filters' setup, at every chunk). Started only when needed.
   */
  level2Workers: number;
  /** Alerts each Level 2 worker keeps between runs (held alerts and kept lists, ADRs 0007, 0011). */
  level2AlertCache: number;
}

export const DEFAULT_WORKER_LIMITS: WorkerLimits = {
  python: DEFAULT_FILTER_PYTHON,
  locusTimeoutMs: 5_000,
  loadTimeoutMs: 10_000,
  memoryMb: 2048,
  cpuSeconds: 3600,
  nproc: 64,
  fsizeMb: 64,
  tmpMb: 256,
  outputLimit: 65_536,
  maxLineBytes: 8 << 20,
  uidRange: '200000-265535',
  memoryCgroup: 'auto',
};

export const DEFAULT_SANDBOX_LIMITS: SandboxLimits = {
  ...DEFAULT_WORKER_LIMITS,
  dryRunBudgetMs: 10_000,
  dryRunWorkers: 3,
  // Rubin's plan: up to 20 community filters, plus 2 to spare (ADR 0063).
  level2Workers: 22,
  level2AlertCache: 50_000,
};

/**
 * The launcher's arguments that come from the limits: `--limits`, the uid range, the memory cgroup, the
 * interpreter. `inputLineBytes`: the longest line this worker will be sent (its load line may be longer
 * than `maxLineBytes`).
 */
export function launcherArgs(limits: WorkerLimits, inputLineBytes = limits.maxLineBytes): string[] {
  return [
    `--limits=${launcherLimits(limits, inputLineBytes)}`,
    `--uids=${limits.uidRange}`,
    `--cgroup=${limits.memoryCgroup}`,
    `--python=${limits.python}`,
  ];
}

/** The launcher's `--limits` argument (sandbox.py reads exactly these keys). */
export function launcherLimits(limits: WorkerLimits, inputLineBytes = limits.maxLineBytes): string {
  return JSON.stringify({
    memory_mb: limits.memoryMb,
    cpu_s: limits.cpuSeconds,
    nproc: limits.nproc,
    fsize_mb: limits.fsizeMb,
    tmp_mb: limits.tmpMb,
    locus_timeout_s: limits.locusTimeoutMs / 1000,
    load_timeout_s: limits.loadTimeoutMs / 1000,
    output_limit: limits.outputLimit,
    max_line_bytes: Math.max(limits.maxLineBytes, inputLineBytes),
  });
}
