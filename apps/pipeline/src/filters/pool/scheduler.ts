// A pool of long-lived sandboxed Python filter workers (filter-runtime/, protocol in its PROTOCOL.md).
// One worker per loaded filter: a filter can only ever disturb its own results (it shares its Python
// process with nothing else), and a crash restarts only that filter. At most `maxWorkers` processes:
// the least recently used idle one is stopped to make room and re-spawned (and re-loaded) on demand.
// The pool trusts nothing a worker says: every line must answer the current request (id + random
// nonce), every report must be for the locus sent at that index, and outputs must be declared.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { DEFAULT_WORKER_LIMITS, launcherLimits, type WorkerLimits } from '../sandbox-limits.ts';

export interface AlertForFilter {
  alert_id: string; mjd: number; survey?: string;
  /**
   * The alert's properties, or their JSON text as the database gave it (then never parsed in Node).
   * Neither when the run was given an AlertPropertyLoader: it is asked for them if a worker lacks the alert.
   */
  properties?: Record<string, unknown>; propertiesJson?: string;
  grav_wave_events?: { gracedb_id: string; contour_level: number; contour_area: number }[];
}
/** Treated as immutable once handed to the pool: change `properties` or `tags` by replacing them (see locusBody). */
export interface LocusForFilter {
  locus_id: string; ra: number; dec: number; properties: Record<string, unknown>; tags: string[];
  alerts: AlertForFilter[]; alert_id?: string; catalog_objects?: Record<string, Record<string, unknown>[]>;
  grav_wave_events_metadata?: Record<string, unknown>; watch_list_ids?: string[]; watch_object_ids?: string[];
}
/** Fills in `propertiesJson` (or `properties`) of alerts about to be sent in full. */
export type AlertPropertyLoader = (alerts: AlertForFilter[]) => Promise<void>;
export interface FilterError { type: string; message: string; traceback: string }
export type LocusStatus = 'ok' | 'skipped' | 'error' | 'timeout' | 'crash';
export interface LocusReport {
  locus_id: string; status: LocusStatus; t: number; new_locus_properties: Record<string, unknown>;
  new_alert_properties: Record<string, unknown>; new_tags: string[]; raised_halt: boolean;
  stdout: string; stderr: string; error?: FilterError; skip_reason?: string; killed_processes?: number;
}
export interface FilterOutputs {
  /** 'A': antares.devkit Filter; 'B': antares_devkit/devkit2_poc BaseFilter; '2019': an antares.dev_kit function. */
  name: string; api: 'A' | 'B' | '2019'; tags: string[]; requires_files: string[]; error_channel: string;
  locus_properties: { name: string; type: 'int' | 'float' | 'str' }[];
  alert_properties: { name: string; type: 'int' | 'float' | 'str' }[];
  triggering_survey: string | null; required_grav_wave_prob_region: number | null;
  /** The filter loaded (the class named, else the last one the code defines) and every one it defines. */
  class_name: string; filter_classes: string[];
}
export interface LoadResult { ok: boolean; outputs?: FilterOutputs; error?: FilterError; stdout: string; stderr: string; t: number }
export interface BatchResult {
  /** One per locus, in order; fewer only when the batch stopped early (`stoppedEarly`), for the loci that ran. */
  reports: LocusReport[]; restarts: number;
  /** Why the batch stopped before its last locus (only with RunLimits); the loci after `reports` were not run. */
  stoppedEarly?: string; t_50_percentile: number | null; t_90_percentile: number | null;
  t_95_percentile: number | null; t_99_percentile: number | null;
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
  maxWorkers?: number; python?: string; runtimeDir?: string; sandbox?: boolean; bwrap?: string;
  stallGraceMs?: number; batchTimeoutMs?: number;
  /** Alerts each worker keeps so that they are sent once (about 3 kB each in the worker). */
  alertCacheSize?: number;
  outputLimit?: number; maxLineBytes?: number; maxRestartsPerBatch?: number;
  /** Added to each worker's slot number, which picks its uid: pools that run at once use distinct ranges. */
  slotOffset?: number;
}

export const RUNTIME_DIR = fileURLToPath(new URL('../../../../../filter-runtime', import.meta.url));
export const APT_INSTALL = 'apt-get install -y bubblewrap python3-numpy python3-scipy python3-pandas '
  + 'python3-astropy python3-statsmodels python3-sklearn python3-seccomp python3-pytest python3-avro';

/** What the sandbox needs that this machine lacks (empty when the pool can run). */
export function missingSandboxPrerequisites(python = '/usr/bin/python3'): string[] {
  const missing: string[] = [];
  if (!existsSync('/usr/bin/bwrap')) missing.push('/usr/bin/bwrap (bubblewrap)');
  // The stack filter authors are promised (scipy and statsmodels import lazily, so this stays ~0.4 s).
  // seccomp: the launcher builds the sandbox's system-call filter with it.
  const probe = existsSync(python) && spawnSync(python, ['-c', 'import numpy, scipy, pandas, astropy, statsmodels, seccomp'], { timeout: 60_000 });
  if (!probe || probe.status !== 0) missing.push(`Debian's numpy/scipy/pandas/astropy/statsmodels/seccomp for ${python}`);
  return missing;
}

/** About this much JSON per line of a batch: the worker runs one chunk while the next is encoded. */
const CHUNK_BYTES = 48 << 10;

/**
 * An alert as sent in full, its properties packed (base64 of their JSON: the worker skips over them
 * and decodes them only when a filter reads them; most read only the triggering alert's). Made once
 * however many workers it is sent to (Level 2 gives every filter the same loci), so alerts handed to
 * the pool are treated as immutable (but for their GW associations, which are checked): an alert whose
 * properties change is a new object.
 */
const alertJson = new WeakMap<AlertForFilter, { version: string; bytes: Buffer }>();
function encodedAlert(alert: AlertForFilter, version: string): Buffer {
  const known = alertJson.get(alert);
  if (known?.version === version) return known.bytes;
  const { properties, propertiesJson, ...rest } = alert;
  const head = JSON.stringify(rest);
  const packed = Buffer.from(propertiesJson ?? JSON.stringify(properties ?? {})).toString('base64');
  const bytes = Buffer.from(`${head.length > 2 ? `${head.slice(0, -1)},` : '{'}"packed":"${packed}"}`);
  alertJson.set(alert, { version, bytes });
  return bytes;
}

/**
 * A locus without its alerts, as JSON (the end of its line: `],"locus_id":...}`). Level 2 sends every
 * locus to each filter in turn, and its properties (light-curve features) and catalog rows are most of
 * the line: the text is made once and reused while the locus' properties object and tags array stay the
 * same ones. So a locus is changed by giving it new ones, never by editing them in place. Its
 * properties travel packed, as an alert's do (most filters never read them).
 */
const locusJson = new WeakMap<LocusForFilter, { properties: object; tags: string[]; bytes: Buffer }>();
function locusBody(locus: LocusForFilter): Buffer {
  const known = locusJson.get(locus);
  if (known && known.properties === locus.properties && known.tags === locus.tags) return known.bytes;
  const { alerts: _alerts, properties, ...rest } = locus;
  const body = JSON.stringify(rest);
  const packed = Buffer.from(JSON.stringify(properties ?? {})).toString('base64');
  const bytes = Buffer.from(`],"packed":"${packed}"${body === '{}' ? '}' : `,${body.slice(1)}`}`);
  locusJson.set(locus, { properties: locus.properties, tags: locus.tags, bytes });
  return bytes;
}

/**
 * One protocol line from parts: the big ones (alerts sent in full, locus bodies) are UTF-8 already and
 * shared by every worker they go to, so a line costs one copy of them rather than string building and a
 * UTF-8 conversion per worker. Small text (alert ids, punctuation) is gathered between them.
 */
class LineBuilder {
  private readonly parts: (string | Buffer)[] = [];
  private text = '';
  /** About the bytes so far (string lengths count UTF-16 units): for sizing chunks only. */
  length = 0;

  add(part: string | Buffer): void {
    if (typeof part === 'string') {
      this.text += part;
    } else {
      if (this.text) this.parts.push(this.text);
      this.text = '';
      this.parts.push(part);
    }
    this.length += part.length;
  }

  /** The line in one buffer, allocated once (no intermediate buffer per piece of text). */
  finish(): Buffer {
    if (this.text) this.parts.push(this.text);
    let size = 0;
    for (const part of this.parts) size += typeof part === 'string' ? Buffer.byteLength(part) : part.length;
    const line = Buffer.allocUnsafe(size);
    let at = 0;
    for (const part of this.parts) at += typeof part === 'string' ? line.write(part, at) : part.copy(line, at);
    return line;
  }
}

/**
 * The pool's record of an alert that workers hold: `holders` has bit i set when the worker in slot i
 * holds `version` of it; `used` orders evictions (least recently referred to first); `live` is false
 * once dropped from the pool's map (an alert object may still point to it).
 */
interface HeldAlert { alertId: string; quoted: string; version: string; holders: number; used: number; live: boolean }
const HELD = Symbol('held alert');
type AlertWithRecord = AlertForFilter & { [HELD]?: HeldAlert };

/** What could have changed in an alert a worker holds: a new GW notice can change its associations. */
function alertVersion(alert: AlertForFilter): string {
  return alert.grav_wave_events?.length ? JSON.stringify(alert.grav_wave_events) : '';
}

class WorkerFailure extends Error {
  /** 'stopped': the pool ended the batch itself (RunLimits.stopAfterTimeouts). */
  constructor(readonly kind: 'crash' | 'timeout' | 'protocol' | 'batch-timeout' | 'stopped', message: string) { super(message); }
}
type Pending = { id: number; nonce: string; onLine: (msg: any) => boolean; reject: (e: WorkerFailure) => void };

/** One worker process and its line protocol. */
class Worker {
  readonly proc: ChildProcess;
  private buf: Buffer[] = [];
  private bufLen = 0;
  private seq = 0;
  private pending?: Pending;
  private stderrTail = '';
  private ready = false;
  private timer?: NodeJS.Timeout;
  dead?: WorkerFailure;
  /** This worker's bit in `HeldAlert.holders` (1 << its slot). */
  readonly bit: number;
  /** How many alerts the pool counts this worker as holding (the bits it has set). */
  heldCount = 0;
  /** Alert ids it no longer counts as held, for the worker to drop too with its next batch. */
  forget = new Set<string>();
  cpuSeconds = 0;
  lastUsed = Date.now();
  busy = false;

  constructor(argv: string[], private readonly maxLineBytes: number, slot: number) {
    this.bit = 1 << slot;
    this.proc = spawn(argv[0], argv.slice(1), { stdio: ['pipe', 'pipe', 'pipe'], env: { PATH: '/usr/bin:/bin' } });
    this.proc.stdout!.on('data', (chunk: Buffer) => this.onData(chunk));
    this.proc.stderr!.on('data', (chunk: Buffer) => { this.stderrTail = (this.stderrTail + chunk.toString()).slice(-4000); });
    this.proc.stdin!.on('error', () => {}); // EPIPE after a crash: the exit handler reports it
    this.proc.on('error', (e) => this.fail(new WorkerFailure('crash', `cannot start the worker: ${e.message}`)));
    // 'close' comes after the last stdout data, so reports written just before a crash still count;
    // 'exit' is the fallback should something keep the pipe open.
    const died = (code: number | null, signal: string | null) => this.fail(new WorkerFailure('crash',
      `the filter worker died (${signal ? `signal ${signal}` : `exit code ${code}`})${this.stderrTail ? `: ${this.stderrTail.trim()}` : ''}`));
    this.proc.on('close', died);
    this.proc.on('exit', (code, signal) => setTimeout(() => died(code, signal), 500).unref());
  }

  private onData(chunk: Buffer): void {
    let start = 0;
    for (let nl = chunk.indexOf(10); nl !== -1; nl = chunk.indexOf(10, start)) {
      const part = chunk.subarray(start, nl);
      if (this.bufLen + part.length > this.maxLineBytes) return this.flood();
      const line = this.bufLen ? Buffer.concat([...this.buf, part]).toString('utf8') : part.toString('utf8');
      this.buf = []; this.bufLen = 0; start = nl + 1;
      if (!this.dead) this.onLine(line);
    }
    if (start < chunk.length) { this.buf.push(chunk.subarray(start)); this.bufLen += chunk.length - start; }
    if (this.bufLen > this.maxLineBytes) this.flood();
  }

  private flood(): void {
    this.buf = []; this.bufLen = 0;
    this.fail(new WorkerFailure('crash', `the filter flooded its output (a protocol line over ${this.maxLineBytes} bytes)`));
  }

  private onLine(line: string): void {
    let msg: any;
    try { msg = JSON.parse(line); } catch { return this.fail(new WorkerFailure('protocol', 'the worker wrote a line that is not JSON')); }
    if (!this.ready) {
      if (msg.op === 'ready') { this.ready = true; return; }
      return this.fail(new WorkerFailure('protocol', `the worker did not start cleanly: ${line.slice(0, 200)}`));
    }
    const p = this.pending;
    if (!p || msg.id !== p.id || msg.nonce !== p.nonce) {
      return this.fail(new WorkerFailure('protocol', `unexpected line on the protocol channel: ${line.slice(0, 200)}`));
    }
    if (p.onLine(msg)) { this.pending = undefined; clearTimeout(this.timer); }
  }

  /** Kill and reject whatever is pending; the first failure wins. */
  fail(e: WorkerFailure): void {
    if (!this.dead) this.dead = e;
    clearTimeout(this.timer);
    if (this.proc.exitCode === null && this.proc.signalCode === null) this.proc.kill('SIGKILL');
    const p = this.pending;
    this.pending = undefined;
    p?.reject(this.dead);
  }

  /** Re-arm the stall watchdog: no line within `ms` means the worker hangs where signals can't reach. */
  watch(ms: number, kind: 'timeout' | 'crash', what: string): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.fail(new WorkerFailure(kind, what)), ms);
  }

  request<T>(msg: Record<string, unknown>, onLine: (msg: any, done: (v: T) => void) => void): Promise<T> {
    return this.requestChunked(msg, undefined, onLine);
  }

  /**
   * A request whose `batch` comes in chunks (PROTOCOL.md): `nextChunk(prefix)` gives the next line (the
   * prefix, then the next few loci of the batch) and whether it is the last. The first chunk goes with
   * the request; each further one is a `more` line, encoded on a later turn of the event loop so that
   * the worker reads and runs a chunk while the next is being encoded.
   */
  requestChunked<T>(msg: Record<string, unknown>, nextChunk: ((prefix: string) => { line: Buffer; last: boolean }) | undefined,
    onLine: (msg: any, done: (v: T) => void) => void): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      if (this.dead) return reject(this.dead);
      const id = ++this.seq;
      const nonce = randomBytes(12).toString('hex');
      let result: T | undefined;
      let finished = false;
      const pending: Pending = { id, nonce, reject, onLine: (m) => { onLine(m, (v) => { result = v; finished = true; }); if (finished) resolve(result as T); return finished; } };
      this.pending = pending;
      const head = JSON.stringify({ ...msg, id, nonce });
      if (!nextChunk) { this.proc.stdin!.write(head + '\n'); return; }
      let chunk = nextChunk(`${head.slice(0, -1)},`);
      this.proc.stdin!.write(chunk.line);
      const pump = () => {
        if (chunk.last || this.dead || this.pending !== pending) return;
        chunk = nextChunk(`{"op":"more","id":${id},`);
        this.proc.stdin!.write(chunk.line);
        setImmediate(pump);
      };
      setImmediate(pump);
    });
  }

  async stop(): Promise<void> {
    if (this.dead || this.proc.exitCode !== null || this.proc.signalCode !== null) return;
    this.dead = new WorkerFailure('crash', 'stopped by the pool');
    this.proc.stdin!.end(JSON.stringify({ op: 'exit' }) + '\n');
    const exited = new Promise((r) => this.proc.once('exit', r));
    const t = setTimeout(() => this.proc.kill('SIGKILL'), 2000);
    await exited;
    clearTimeout(t);
  }
}

type Registered = { code: string; files: Record<string, string>; className?: string; outputs?: FilterOutputs; worker?: Worker; queue: Promise<unknown> };

const emptyReport = (locus: LocusForFilter, status: LocusStatus, error?: FilterError): LocusReport => ({
  locus_id: locus.locus_id, status, t: 0, new_locus_properties: {}, new_alert_properties: {}, new_tags: [],
  raised_halt: false, stdout: '', stderr: '', ...(error ? { error } : {}),
});

export class FilterSandboxPool {
  private readonly o: Required<SandboxPoolOptions>;
  private readonly filters = new Map<string, Registered>();
  private slots: (Worker | undefined)[];
  private readonly reserved = new Set<number>();
  /**
   * The alerts some worker holds, by id (PROTOCOL.md, alert references). One record per alert for all
   * workers, reached from the alert object itself after the first look-up: Level 2 sends each locus to
   * every filter, and a Map look-up per alert per worker cost more than the rest of the encoding.
   */
  private readonly held = new Map<string, HeldAlert>();
  private useCount = 0;
  private closed = false;

  constructor(opts: SandboxPoolOptions = {}) {
    this.o = {
      maxWorkers: 8, python: '/usr/bin/python3', runtimeDir: RUNTIME_DIR, sandbox: true, bwrap: '/usr/bin/bwrap',
      ...DEFAULT_WORKER_LIMITS, stallGraceMs: 3000, batchTimeoutMs: 300_000,
      maxLineBytes: 8 << 20, maxRestartsPerBatch: 3, slotOffset: 0, alertCacheSize: 50_000, ...opts,
    };
    if (this.o.maxWorkers > 30) throw new Error('a filter pool has at most 30 workers (one bit each in HeldAlert.holders)');
    this.slots = new Array(this.o.maxWorkers).fill(undefined);
  }

  /** Register (or replace) a filter and load it into a fresh worker; the result says what it declares. */
  async load(filterId: string, code: string, files: Record<string, Uint8Array | string> = {}, className?: string): Promise<LoadResult> {
    const old = this.filters.get(filterId);
    if (old?.worker) await this.retire(old.worker);
    const b64 = Object.fromEntries(Object.entries(files).map(([k, v]) => [k, Buffer.from(v).toString('base64')]));
    const reg: Registered = { code, files: b64, className, queue: Promise.resolve() };
    this.filters.set(filterId, reg);
    return this.serial(reg, async () => {
      const result = await this.startWorker(filterId, reg);
      if (!result.ok) this.filters.delete(filterId);
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
    return this.serial(reg, () => this.runLoaded(filterId, reg, loci, loadProperties, limits));
  }

  async unload(filterId: string): Promise<void> {
    const reg = this.filters.get(filterId);
    this.filters.delete(filterId);
    if (reg?.worker) await this.retire(reg.worker);
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.slots.map((w) => w && this.retire(w)));
    this.filters.clear();
  }

  private serial<T>(reg: Registered, fn: () => Promise<T>): Promise<T> {
    const next = reg.queue.then(fn, fn);
    reg.queue = next.catch(() => undefined);
    return next;
  }

  private argv(slot: number): string[] {
    const o = this.o;
    if (!o.sandbox) return [o.python, '-I', '-B', '-c', `import sys; sys.path.insert(0, ${JSON.stringify(o.runtimeDir)}); from antares_runtime.worker import main; main()`];
    return [o.python, '-I', '-B', `${o.runtimeDir}/antares_runtime/sandbox.py`, `--slot=${slot + o.slotOffset}`,
      `--limits=${launcherLimits(o)}`, `--bwrap=${o.bwrap}`, `--python=${o.python}`];
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
      if (idle) { await this.retire(idle); continue; }
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  private async retire(w: Worker): Promise<void> {
    const i = this.slots.indexOf(w);
    if (i !== -1) {
      this.slots[i] = undefined;
      this.dropHoldings(i);
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
    let w: Worker;
    try {
      // A worker that died in this slot: the new one starts empty. (An empty slot has nothing to
      // drop: never used, or its worker retired, which dropped them.)
      if (this.slots[slot]) this.dropHoldings(slot);
      w = new Worker(this.argv(slot), this.o.maxLineBytes, slot);
      this.slots[slot] = w;
    } finally {
      this.reserved.delete(slot);
    }
    w.busy = true;
    try {
      w.watch(this.o.loadTimeoutMs + this.o.stallGraceMs, 'timeout', `loading the filter took longer than ${this.o.loadTimeoutMs / 1000} s, its limit (stuck outside Python)`);
      const reply = await w.request<any>({ op: 'load', filter_id: filterId, code: reg.code, files: reg.files,
        class_name: reg.className, timeout_s: this.o.loadTimeoutMs / 1000 }, (m, done) => done(m));
      const result: LoadResult = { ok: !!reply.ok, outputs: reply.outputs, error: reply.error, stdout: reply.stdout ?? '', stderr: reply.stderr ?? '', t: reply.t ?? 0 };
      if (result.ok) { reg.outputs = result.outputs; reg.worker = w; } else await this.retire(w);
      return result;
    } catch (e) {
      await this.retire(w);
      const f = e as WorkerFailure;
      return { ok: false, error: { type: f.kind === 'timeout' ? 'Timeout' : 'WorkerCrash', message: f.message, traceback: '' }, stdout: '', stderr: '', t: 0 };
    } finally { w.busy = false; w.lastUsed = Date.now(); }
  }

  private async runLoaded(filterId: string, reg: Registered, loci: LocusForFilter[], loadProperties?: AlertPropertyLoader,
    limits?: RunLimits): Promise<BatchResult> {
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
          for (let i = start; i < loci.length; i++) reports[i] = emptyReport(loci[i], 'crash', { type: 'LoadFailed', message: loaded.error?.message ?? 'reload failed', traceback: loaded.error?.traceback ?? '' });
          break;
        }
      }
      const w = reg.worker!;
      const segment = loci.slice(start);
      if (loadProperties) {
        const lacking: AlertForFilter[] = [];
        for (const locus of segment) {
          for (const a of locus.alerts) if (a.properties === undefined && a.propertiesJson === undefined && !this.holds(w, a)) lacking.push(a);
        }
        if (lacking.length > 0) await loadProperties(lacking);
      }
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
          w.forget.clear();
          stats = await w.requestChunked<any>({ op: 'run', filter_id: filterId, forget, locus_timeout_s: this.o.locusTimeoutMs / 1000 },
            this.chunker(w, segment), (m, done) => {
            if (m.op === 'done') return done(m);
            if (m.op !== 'report' || m.i !== received) return w.fail(new WorkerFailure('protocol', 'report out of order'));
            reports[start + received] = this.check(reg, segment[received], m);
            timeoutsInARow = reports[start + received].status === 'timeout' ? timeoutsInARow + 1 : 0;
            received++;
            if (timeoutsInARow >= stopAfterTimeouts && start + received < loci.length) {
              return w.fail(new WorkerFailure('stopped', `${timeoutsInARow} loci in a row timed out`));
            }
            w.watch(stall, 'timeout', `no answer from the filter for ${stall} ms (hung outside Python)`);
          });
        } finally { clearTimeout(guard); }
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
        const err = { type: f.kind === 'timeout' || f.kind === 'batch-timeout' ? 'Timeout' : 'WorkerCrash', message: f.message, traceback: '' };
        // A forged line taints everything this worker said in the batch; a batch timeout ends the batch
        // (with RunLimits, at the locus in flight: the rest are not run).
        const from = f.kind === 'protocol' ? start : start + received;
        const to = f.kind === 'protocol' || (f.kind === 'batch-timeout' && !limits) ? loci.length : Math.min(start + received + 1, loci.length);
        for (let i = from; i < to; i++) reports[i] = emptyReport(loci[i], f.kind === 'timeout' || f.kind === 'batch-timeout' ? 'timeout' : 'crash', err);
        start = to;
        if (f.kind === 'timeout' || f.kind === 'batch-timeout') timeoutsInARow++;
        if (start < loci.length && (f.kind === 'batch-timeout' || timeoutsInARow >= stopAfterTimeouts)) {
          stoppedEarly = f.kind === 'batch-timeout' ? f.message : `${timeoutsInARow} loci in a row timed out`;
          continue;
        }
        if (restarts > this.o.maxRestartsPerBatch && start < loci.length) {
          const skip = { type: 'WorkerCrash', message: `not run: the filter's worker failed ${restarts} times in this batch`, traceback: '' };
          for (let i = start; i < loci.length; i++) reports[i] = emptyReport(loci[i], 'crash', skip);
          start = loci.length;
        }
      } finally { w.busy = false; w.lastUsed = Date.now(); }
    }
    if (stoppedEarly !== undefined) reports.length = start;
    const pick = (k: string) => (typeof stats[k] === 'number' ? stats[k] : null);
    return { reports, restarts, ...(stoppedEarly === undefined ? {} : { stoppedEarly }), t_50_percentile: pick('t_50_percentile'), t_90_percentile: pick('t_90_percentile'),
      t_95_percentile: pick('t_95_percentile'), t_99_percentile: pick('t_99_percentile') };
  }

  /**
   * The batch as this worker is sent it, a chunk at a time (about `CHUNK_BYTES` of JSON each). An alert
   * the worker already holds goes as its id only (most of a locus' alerts were sent with its earlier
   * updates), the rest in full. Loci are resent every time they change, so this cuts what is encoded
   * and decoded per locus run by an order of magnitude. Evictions from what the worker holds are
   * made once the whole batch is encoded (its loci may refer to them) and sent with the next batch.
   */
  private chunker(w: Worker, loci: LocusForFilter[]): (prefix: string) => { line: Buffer; last: boolean } {
    let k = 0;
    return (prefix) => {
      const line = new LineBuilder();
      line.add(`${prefix}"batch":[`);
      const end = line.length + CHUNK_BYTES;
      for (let n = 0; k < loci.length && line.length < end; n++) {
        if (n > 0) line.add(',');
        this.encodeLocus(w, loci[k++], line);
      }
      const last = k >= loci.length;
      if (last) this.evict(w);
      line.add(`],"more":${!last}}\n`);
      return { line: line.finish(), last };
    };
  }

  private encodeLocus(w: Worker, locus: LocusForFilter, line: LineBuilder): void {
    line.add('{"alerts":[');
    let first = true;
    for (const alert of locus.alerts) {
      if (!first) line.add(',');
      first = false;
      const version = alertVersion(alert);
      const held = this.heldRecord(alert);
      held.used = ++this.useCount;
      if (held.version === version && (held.holders & w.bit) !== 0) {
        line.add(held.quoted);
        continue;
      }
      if (held.version !== version) {
        // Its GW associations changed: whoever holds the old version drops it and is sent it again.
        this.release(held, held.holders & ~w.bit, true);
        held.version = version;
      }
      if ((held.holders & w.bit) === 0) {
        held.holders |= w.bit;
        w.heldCount++;
      }
      // Sent in full now: a pending "forget" of it (an invalidation) must not drop this copy.
      w.forget.delete(alert.alert_id);
      line.add(encodedAlert(alert, version));
    }
    line.add(locusBody(locus));
  }

  /** The pool's record of this alert, made on first sight and kept on the alert object. */
  private heldRecord(alert: AlertForFilter): HeldAlert {
    let held = this.knownRecord(alert);
    if (held === undefined) {
      held = { alertId: alert.alert_id, quoted: JSON.stringify(alert.alert_id), version: alertVersion(alert), holders: 0, used: 0, live: true };
      this.held.set(alert.alert_id, held);
      (alert as AlertWithRecord)[HELD] = held;
    }
    return held;
  }

  /** The pool's record of this alert if it has one, kept on the alert object once found. */
  private knownRecord(alert: AlertForFilter): HeldAlert | undefined {
    const withRecord = alert as AlertWithRecord;
    const attached = withRecord[HELD];
    if (attached?.live) return attached;
    const held = this.held.get(alert.alert_id);
    if (held) withRecord[HELD] = held;
    return held;
  }

  /** Whether the worker holds this alert as it now is (else it is sent in full). */
  private holds(w: Worker, alert: AlertForFilter): boolean {
    const held = this.knownRecord(alert);
    return held !== undefined && (held.holders & w.bit) !== 0 && held.version === alertVersion(alert);
  }

  /**
   * The workers in `bits` no longer hold the alert: they are told to forget it with their next batch.
   * The record goes once no worker holds it, unless `keep` (it is about to be sent again).
   */
  private release(held: HeldAlert, bits: number, keep = false): void {
    for (const w of this.slots) {
      if (!w || (held.holders & bits & w.bit) === 0) continue;
      held.holders &= ~w.bit;
      w.heldCount--;
      w.forget.add(held.alertId);
    }
    if (held.holders === 0 && !keep) this.discard(held);
  }

  /** No worker holds it any more: the record goes (alert objects that still point to it look it up again). */
  private discard(held: HeldAlert): void {
    held.live = false;
    this.held.delete(held.alertId);
  }

  /** A new worker in this slot (or none) holds nothing. */
  private dropHoldings(slot: number): void {
    const bit = 1 << slot;
    for (const held of this.held.values()) {
      if ((held.holders & bit) === 0) continue;
      held.holders &= ~bit;
      if (held.holders === 0) this.discard(held);
    }
  }

  /** Bounded memory on both sides: the least recently used alerts are forgotten. */
  private evict(w: Worker): void {
    const excess = w.heldCount - this.o.alertCacheSize;
    if (excess <= 0) return;
    const mine = [...this.held.values()].filter((held) => (held.holders & w.bit) !== 0);
    for (const held of mine.sort((a, b) => a.used - b.used).slice(0, excess)) this.release(held, w.bit);
  }

  /** Alerts whose properties changed (Level 2 added some): sent in full again next time. */
  invalidateAlerts(alertIds: string[]): void {
    for (const id of alertIds) {
      const held = this.held.get(id);
      if (held) this.release(held, held.holders);
    }
  }

  /** A worker's report, accepted only for the locus sent and only with declared, well-typed outputs. */
  private check(reg: Registered, locus: LocusForFilter, m: any): LocusReport {
    const text = (s: unknown) => (typeof s === 'string' ? s.slice(0, this.o.outputLimit + 100) : '');
    const status: LocusStatus = ['ok', 'skipped', 'error', 'timeout'].includes(m.status) ? m.status : 'error';
    const report: LocusReport = { ...emptyReport(locus, status), t: Number(m.t) || 0, stdout: text(m.stdout), stderr: text(m.stderr), raised_halt: m.raised_halt === true };
    if (m.error) report.error = { type: text(m.error.type), message: text(m.error.message), traceback: text(m.error.traceback) };
    if (m.skip_reason) report.skip_reason = text(m.skip_reason);
    if (m.killed_processes) report.killed_processes = Number(m.killed_processes);
    if (status !== 'ok') return report;
    const out = reg.outputs!;
    const typed = (decl: FilterOutputs['locus_properties'], props: unknown, problems: string[]) => {
      const result: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(props && typeof props === 'object' ? props : {})) {
        const type = decl.find((d) => d.name === k)?.type;
        const ok = v === null || (type === 'str' && typeof v === 'string') || (type === 'int' && Number.isInteger(v)) || (type === 'float' && typeof v === 'number');
        if (ok) result[k] = v; else problems.push(k);
      }
      return result;
    };
    const problems: string[] = [];
    const tags = Array.isArray(m.new_tags) ? m.new_tags : [];
    for (const t of tags) if (!out.tags.includes(t)) problems.push(`tag ${t}`);
    const lp = typed(out.locus_properties, m.new_locus_properties, problems);
    const ap = typed(out.alert_properties, m.new_alert_properties, problems);
    if (problems.length) return { ...report, status: 'error', error: { type: 'FilterError', message: `undeclared or mistyped outputs: ${problems.join(', ')}`, traceback: '' } };
    return { ...report, new_tags: tags, new_locus_properties: lp, new_alert_properties: ap };
  }
}
