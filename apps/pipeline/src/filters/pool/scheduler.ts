/* eslint-disable @typescript-eslint/no-explicit-any -- protocol lines are JSON from the sandbox, checked field by field in reports.ts */
// A pool of long-lived sandboxed Python filter workers (filter-runtime/, protocol in its PROTOCOL.md):
// which worker runs which filter, and when. One worker per loaded filter: a filter can only ever
// disturb its own results (it shares its Python process with nothing else), and a crash restarts only
// that filter. At most `maxWorkers` processes: the least recently used idle one is stopped to make room
// and re-spawned (and re-loaded) on demand. A batch runs in chunks (ADR 0010) under the limits of
// sandbox-limits.ts; the alerts a worker already holds go as ids (held-alerts.ts).
import { DEFAULT_WORKER_LIMITS, launcherArgs } from '../sandbox-limits.ts';
import { answerFetch, batchDeferral, type Deferral, deferralAfter } from './deferred.ts';
import { filesFolder, removeFilesFolder } from './files-folder.ts';
import { HeldAlerts } from './held-alerts.ts';
import { LAUNCHER_PYTHON, RUNTIME_DIR } from './prerequisites.ts';
import { checkedReport, emptyReport } from './reports.ts';
import { runMeetingRequirements } from './requirements.ts';
import type {
  AlertPropertyLoader,
  BatchResult,
  FilterOutputs,
  LoadResult,
  LocusForFilter,
  LocusReport,
  RunLimits,
  SandboxPoolOptions,
} from './types.ts';
import { WorkerFailure, WorkerProcess } from './worker-process.ts';

type Registered = {
  code: string;
  files: Record<string, string>;
  /** The same files as a folder, the worker's working directory (files-folder.ts); none without files. */
  filesDir?: string;
  /** Load even while REQUIRES_FILES are missing, up to the declarations (a version checked before its files exist). */
  filesPending?: boolean;
  className?: string;
  outputs?: FilterOutputs;
  worker?: WorkerProcess;
  queue: Promise<unknown>;
  /** Which alerts' properties its next batch sends deferred, from what its last batch said (deferred.ts). */
  deferral?: Deferral;
};

export class FilterSandboxPool {
  private readonly o: Required<SandboxPoolOptions>;
  private readonly filters = new Map<string, Registered>();
  private readonly slots: (WorkerProcess | undefined)[];
  private readonly reserved = new Set<number>();
  /** What each worker holds, so that an alert goes to a worker in full once (ADRs 0007, 0011). */
  private readonly held: HeldAlerts;
  private closed = false;

  constructor(opts: SandboxPoolOptions = {}) {
    this.o = {
      maxWorkers: 8,
      runtimeDir: RUNTIME_DIR,
      sandbox: true,
      bwrap: '/usr/bin/bwrap',
      ...DEFAULT_WORKER_LIMITS,
      stallGraceMs: 3000,
      batchTimeoutMs: 300_000,
      maxRestartsPerBatch: 3,
      slotOffset: 0,
      deferProperties: true,
      niceness: 0,
      alertCacheSize: 50_000,
      ...opts,
    };
    if (this.o.maxWorkers > 30) throw new Error('a filter pool has at most 30 workers (one bit each in HeldAlert.holders)');
    this.slots = new Array(this.o.maxWorkers).fill(undefined);
    this.held = new HeldAlerts(this.slots, this.o.alertCacheSize);
  }

  /**
   * Register (or replace) a filter and load it into a fresh worker; the result says what it declares.
   * `files` (REQUIRES_FILES) are given as `self.files` and as the worker's working directory.
   */
  async load(
    filterId: string,
    code: string,
    files: Record<string, Uint8Array | string> = {},
    className?: string,
    options: { filesPending?: boolean } = {},
  ): Promise<LoadResult> {
    const old = this.filters.get(filterId);
    if (old?.worker) await this.retire(old.worker);
    await removeFilesFolder(old?.filesDir);
    const b64 = Object.fromEntries(Object.entries(files).map(([k, v]) => [k, Buffer.from(v).toString('base64')]));
    const reg: Registered = { code, files: b64, className, queue: Promise.resolve(), filesPending: options.filesPending };
    reg.filesDir = await filesFolder(files);
    this.filters.set(filterId, reg);
    return this.serial(reg, async () => {
      const result = await this.startWorker(filterId, reg);
      if (!result.ok && this.filters.get(filterId) === reg) {
        this.filters.delete(filterId);
        await removeFilesFolder(reg.filesDir);
      }
      return result;
    });
  }

  /**
   * Run a batch; one report per locus in order, whatever the filter does. Alerts may come without
   * their properties if `loadProperties` is given: it is called for those the worker does not hold.
   */
  async run(filterId: string, loci: LocusForFilter[], loadProperties?: AlertPropertyLoader): Promise<LocusReport[]> {
    return (await this.runBatch(filterId, loci, loadProperties)).reports;
  }

  /** As `run`, with statistics; with `limits` the batch may stop early (BatchResult.stoppedEarly). */
  async runBatch(filterId: string, loci: LocusForFilter[], loadProperties?: AlertPropertyLoader, limits?: RunLimits): Promise<BatchResult> {
    const reg = this.filters.get(filterId);
    if (!reg) throw new Error(`filter ${filterId} is not loaded`);
    // Loci the filter's requirements rule out get its skip report here, without going to the worker.
    return this.serial(reg, () =>
      runMeetingRequirements(reg.outputs?.requirements, loci, loadProperties, (sent) =>
        this.runLoaded(filterId, reg, sent, loadProperties, limits),
      ),
    );
  }

  /** Alerts whose properties changed (Level 2 added some): sent in full again next time. */
  invalidateAlerts(alertIds: string[]): void {
    this.held.invalidate(alertIds);
  }

  async unload(filterId: string): Promise<void> {
    const reg = this.filters.get(filterId);
    this.filters.delete(filterId);
    if (reg?.worker) await this.retire(reg.worker);
    await removeFilesFolder(reg?.filesDir);
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.slots.filter((w): w is WorkerProcess => w !== undefined).map((w) => this.retire(w)));
    await Promise.all([...this.filters.values()].map((reg) => removeFilesFolder(reg.filesDir)));
    this.filters.clear();
  }

  private serial<T>(reg: Registered, fn: () => Promise<T>): Promise<T> {
    const next = reg.queue.then(fn, fn);
    reg.queue = next.catch(() => undefined);
    return next;
  }

  private argv(slot: number, reg: Registered): string[] {
    const o = this.o;
    // nice(1) lowers the launcher's priority before it execs; the sandbox and the filter inherit it.
    const command = this.command(slot, reg.filesDir, loadLineBytes(reg));
    return o.niceness > 0 ? ['/usr/bin/nice', '-n', String(o.niceness), ...command] : command;
  }

  private command(slot: number, filesDir: string | undefined, inputLineBytes: number): string[] {
    const o = this.o;
    if (!o.sandbox)
      return [
        o.python,
        '-I',
        '-B',
        '-c',
        `import sys; sys.path.insert(0, ${JSON.stringify(o.runtimeDir)}); from antares_runtime.worker import main; main()`,
      ];
    // The launcher runs on Debian's interpreter (it needs python3-seccomp), whatever the filters run.
    return [
      LAUNCHER_PYTHON,
      '-I',
      '-B',
      `${o.runtimeDir}/antares_runtime/sandbox.py`,
      `--slot=${slot + o.slotOffset}`,
      ...launcherArgs(o, inputLineBytes),
      `--bwrap=${o.bwrap}`,
      ...(filesDir ? [`--files=${filesDir}`] : []),
    ];
  }

  /**
   * A free slot, stopping the least recently used idle worker when all are taken. The slot is reserved
   * until the caller puts its worker in it: two workers starting at once must never share a slot (its
   * uid, and its bit in the alerts' holders).
   */
  private async slot(): Promise<number> {
    for (;;) {
      const free = this.slots.findIndex((w, i) => (!w || w.dead) && !this.reserved.has(i));
      if (free !== -1) {
        this.reserved.add(free);
        return free;
      }
      const idle = this.slots.filter((w) => w && !w.busy).sort((a, b) => a!.lastUsed - b!.lastUsed)[0];
      if (idle) {
        await this.retire(idle);
        continue;
      }
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  private async retire(w: WorkerProcess): Promise<void> {
    const i = this.slots.indexOf(w);
    if (i !== -1) {
      this.slots[i] = undefined;
      this.held.dropHoldings(i);
    }
    for (const reg of this.filters.values()) if (reg.worker === w) reg.worker = undefined;
    await w.stop();
  }

  /**
   * Starts a worker, retrying a few times when the kernel briefly refuses a new namespace (EAGAIN under
   * load, e.g. while another sandbox's processes are being reaped): that is the machine, not the filter.
   */
  private async startWorker(filterId: string, reg: Registered): Promise<LoadResult> {
    for (let attempt = 1; ; attempt++) {
      const result = await this.startWorkerOnce(filterId, reg);
      const transient = !result.ok && result.error?.type === 'WorkerCrash' && /Resource temporarily unavailable/.test(result.error.message);
      if (!transient || attempt >= 5 || this.closed) return result;
      await new Promise((resolve) => setTimeout(resolve, 300 * attempt));
    }
  }

  private async startWorkerOnce(filterId: string, reg: Registered): Promise<LoadResult> {
    if (this.closed) throw new Error('the pool is closed');
    const slot = await this.slot();
    let w: WorkerProcess;
    try {
      // A worker that died in this slot: the new one starts empty. (An empty slot has nothing to
      // drop: never used, or its worker retired, which dropped them.)
      if (this.slots[slot]) this.held.dropHoldings(slot);
      // Unsandboxed (tests without bubblewrap), the files folder is simply the process's working directory.
      w = new WorkerProcess(this.argv(slot, reg), this.o.maxLineBytes, slot, this.o.sandbox ? undefined : reg.filesDir);
      this.slots[slot] = w;
    } finally {
      this.reserved.delete(slot);
    }
    w.busy = true;
    try {
      w.watch(
        this.o.loadTimeoutMs + this.o.stallGraceMs,
        'timeout',
        `loading the filter took longer than ${this.o.loadTimeoutMs / 1000} s, its limit (stuck outside Python)`,
      );
      const reply = await w.request<any>(
        {
          op: 'load',
          filter_id: filterId,
          code: reg.code,
          files: reg.files,
          ...(reg.filesPending ? { files_pending: true } : {}),
          class_name: reg.className,
          timeout_s: this.o.loadTimeoutMs / 1000,
        },
        (m, done) => done(m),
      );
      const result: LoadResult = {
        ok: !!reply.ok,
        outputs: reply.outputs,
        error: reply.error,
        stdout: reply.stdout ?? '',
        stderr: reply.stderr ?? '',
        t: reply.t ?? 0,
      };
      if (result.ok) {
        reg.outputs = result.outputs;
        reg.worker = w;
      } else await this.retire(w);
      return result;
    } catch (e) {
      await this.retire(w);
      const f = e as WorkerFailure;
      return {
        ok: false,
        error: { type: f.kind === 'timeout' ? 'Timeout' : 'WorkerCrash', message: f.message, traceback: '' },
        stdout: '',
        stderr: '',
        t: 0,
      };
    } finally {
      w.busy = false;
      w.lastUsed = Date.now();
    }
  }

  private async runLoaded(
    filterId: string,
    reg: Registered,
    loci: LocusForFilter[],
    loadProperties?: AlertPropertyLoader,
    limits?: RunLimits,
  ): Promise<BatchResult> {
    const reports: LocusReport[] = new Array(loci.length);
    const budgetMs = Math.min(this.o.batchTimeoutMs, limits?.budgetMs ?? Infinity);
    const deadline = Date.now() + budgetMs;
    const overBudget = limits ? `the run's time budget of ${budgetMs / 1000} s was used up` : `the batch ran longer than ${budgetMs} ms`;
    const stopAfterTimeouts = limits?.stopAfterTimeouts ?? Infinity;
    let timeoutsInARow = 0;
    let stoppedEarly: string | undefined;
    let start = 0;
    let restarts = 0;
    let stats: any = {};
    while (start < loci.length && stoppedEarly === undefined) {
      if (!reg.worker || reg.worker.dead) {
        const loaded = await this.startWorker(filterId, reg);
        if (!loaded.ok) {
          for (let i = start; i < loci.length; i++)
            reports[i] = emptyReport(loci[i], 'crash', {
              type: 'LoadFailed',
              message: loaded.error?.message ?? 'reload failed',
              traceback: loaded.error?.traceback ?? '',
            });
          break;
        }
      }
      const w = reg.worker!;
      const segment = loci.slice(start);
      // With a loader the alerts may come without properties: those the worker lacks are loaded now, or
      // sent deferred (the worker asks if its filter reads them): at first all, then as its batches say.
      const plan = await batchDeferral(segment, (a) => !this.held.holds(w, a), this.o.deferProperties, reg.deferral, loadProperties);
      let received = 0;
      w.busy = true;
      try {
        const stall = this.o.locusTimeoutMs + this.o.stallGraceMs;
        const left = deadline - Date.now();
        const guard = setTimeout(() => w.fail(new WorkerFailure('batch-timeout', overBudget)), Math.max(left, 0));
        w.watch(stall, 'timeout', `no answer from the filter for ${stall} ms (hung outside Python)`);
        try {
          // What earlier batches evicted or invalidated; the worker drops it before reading this batch.
          const forget = [...w.forget];
          const forget_loci = [...w.forgetLoci];
          w.forget.clear();
          w.forgetLoci.clear();
          stats = await w.requestChunked<any>(
            { op: 'run', filter_id: filterId, forget, forget_loci, locus_timeout_s: this.o.locusTimeoutMs / 1000 },
            this.held.batchLines(w, segment, plan),
            (m, done) => {
              if (m.op === 'done') return done(m);
              if (m.op === 'fetch') {
                void answerFetch(w, m, received, segment[received], loadProperties, (l) => this.held.wholeList(w, l)).then(() =>
                  w.watch(stall, 'timeout', `no answer from the filter for ${stall} ms (hung outside Python)`),
                );
                return;
              }
              if (m.op !== 'report' || m.i !== received) return w.fail(new WorkerFailure('protocol', 'report out of order'));
              reports[start + received] = checkedReport(reg.outputs!, this.o.outputLimit, segment[received], m);
              timeoutsInARow = reports[start + received].status === 'timeout' ? timeoutsInARow + 1 : 0;
              received++;
              if (timeoutsInARow >= stopAfterTimeouts && start + received < loci.length) {
                return w.fail(new WorkerFailure('stopped', `${timeoutsInARow} loci in a row timed out`));
              }
              w.watch(stall, 'timeout', `no answer from the filter for ${stall} ms (hung outside Python)`);
            },
          );
        } finally {
          clearTimeout(guard);
        }
        if (loadProperties) reg.deferral = deferralAfter(stats);
        w.cpuSeconds = stats.cpu_s ?? 0;
        if (w.cpuSeconds > 0.8 * this.o.cpuSeconds) await this.retire(w); // before RLIMIT_CPU would kill it
        start = loci.length;
      } catch (e) {
        const f = e as WorkerFailure;
        await this.retire(w);
        if (f.kind === 'stopped') {
          stoppedEarly = f.message;
          start += received;
          continue;
        }
        restarts++;
        const err = {
          type: f.kind === 'timeout' || f.kind === 'batch-timeout' ? 'Timeout' : 'WorkerCrash',
          message: f.message,
          traceback: '',
        };
        // A forged line taints everything this worker said in the batch; a batch timeout ends the batch
        // (with RunLimits, at the locus in flight: the rest are not run).
        const from = f.kind === 'protocol' ? start : start + received;
        const to =
          f.kind === 'protocol' || (f.kind === 'batch-timeout' && !limits) ? loci.length : Math.min(start + received + 1, loci.length);
        for (let i = from; i < to; i++)
          reports[i] = emptyReport(loci[i], f.kind === 'timeout' || f.kind === 'batch-timeout' ? 'timeout' : 'crash', err);
        start = to;
        if (f.kind === 'timeout' || f.kind === 'batch-timeout') timeoutsInARow++;
        if (start < loci.length && (f.kind === 'batch-timeout' || timeoutsInARow >= stopAfterTimeouts)) {
          stoppedEarly = f.kind === 'batch-timeout' ? f.message : `${timeoutsInARow} loci in a row timed out`;
          continue;
        }
        if (restarts > this.o.maxRestartsPerBatch && start < loci.length) {
          const skip = {
            type: 'WorkerCrash',
            message: `not run: the filter's worker failed ${restarts} times in this batch`,
            traceback: '',
          };
          for (let i = start; i < loci.length; i++) reports[i] = emptyReport(loci[i], 'crash', skip);
          start = loci.length;
        }
      } finally {
        w.busy = false;
        w.lastUsed = Date.now();
      }
    }
    if (stoppedEarly !== undefined) reports.length = start;
    const pick = (k: string) => (typeof stats[k] === 'number' ? stats[k] : null);
    return {
      reports,
      restarts,
      ...(stoppedEarly === undefined ? {} : { stoppedEarly }),
      t_50_percentile: pick('t_50_percentile'),
      t_90_percentile: pick('t_90_percentile'),
      t_95_percentile: pick('t_95_percentile'),
      t_99_percentile: pick('t_99_percentile'),
    };
  }
}

/**
 * At most the bytes of a worker's load line (code as UTF-8 at worst, the files' base64, the rest of the
 * message): the worker must read that line whole, however its files outgrow the usual line cap.
 */
function loadLineBytes(reg: Registered): number {
  let bytes = 3 * reg.code.length + 3 * (reg.className?.length ?? 0) + 64 * 1024;
  for (const [name, data] of Object.entries(reg.files)) bytes += 3 * name.length + data.length + 8;
  return bytes;
}
