/* eslint-disable @typescript-eslint/no-explicit-any -- protocol lines are JSON from the sandbox, checked field by field in reports.ts */
// One sandboxed worker process and its JSON-lines channel: every line must answer the request in
// flight (id + random nonce), a line over the cap or a silent worker past its watchdog kills it.
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';

export class WorkerFailure extends Error {
  /** 'stopped': the pool ended the batch itself (RunLimits.stopAfterTimeouts). */
  constructor(
    readonly kind: 'crash' | 'timeout' | 'protocol' | 'batch-timeout' | 'stopped',
    message: string,
  ) {
    super(message);
  }
}
type Pending = { id: number; nonce: string; onLine: (msg: any) => boolean; reject: (e: WorkerFailure) => void };

/** One worker process and its line protocol. */
export class WorkerProcess {
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
  /**
   * The alert ids of each locus as last sent to this worker, which keeps that list (PROTOCOL.md, "Kept
   * alert lists"), oldest sent first; `keptAlerts` counts their entries, `forgetLoci` names the lists
   * dropped here for the worker to drop with its next batch.
   */
  keptLoci = new Map<string, readonly string[]>();
  keptAlerts = 0;
  forgetLoci = new Set<string>();
  cpuSeconds = 0;
  lastUsed = Date.now();
  busy = false;

  constructor(
    argv: string[],
    private readonly maxLineBytes: number,
    slot: number,
    cwd?: string,
  ) {
    this.bit = 1 << slot;
    this.proc = spawn(argv[0], argv.slice(1), { stdio: ['pipe', 'pipe', 'pipe'], env: { PATH: '/usr/bin:/bin' }, ...(cwd ? { cwd } : {}) });
    this.proc.stdout!.on('data', (chunk: Buffer) => this.onData(chunk));
    this.proc.stderr!.on('data', (chunk: Buffer) => {
      this.stderrTail = (this.stderrTail + chunk.toString()).slice(-4000);
    });
    this.proc.stdin!.on('error', () => {}); // EPIPE after a crash: the exit handler reports it
    this.proc.on('error', (e) => this.fail(new WorkerFailure('crash', `cannot start the worker: ${e.message}`)));
    // 'close' comes after the last stdout data, so reports written just before a crash still count;
    // 'exit' is the fallback should something keep the pipe open.
    const died = (code: number | null, signal: string | null) =>
      this.fail(
        new WorkerFailure(
          'crash',
          `the filter worker died (${signal ? `signal ${signal}` : `exit code ${code}`})${this.stderrTail ? `: ${this.stderrTail.trim()}` : ''}`,
        ),
      );
    this.proc.on('close', died);
    this.proc.on('exit', (code, signal) => setTimeout(() => died(code, signal), 500).unref());
  }

  private onData(chunk: Buffer): void {
    let start = 0;
    for (let nl = chunk.indexOf(10); nl !== -1; nl = chunk.indexOf(10, start)) {
      const part = chunk.subarray(start, nl);
      if (this.bufLen + part.length > this.maxLineBytes) return this.flood();
      const line = this.bufLen ? Buffer.concat([...this.buf, part]).toString('utf8') : part.toString('utf8');
      this.buf = [];
      this.bufLen = 0;
      start = nl + 1;
      if (!this.dead) this.onLine(line);
    }
    if (start < chunk.length) {
      this.buf.push(chunk.subarray(start));
      this.bufLen += chunk.length - start;
    }
    if (this.bufLen > this.maxLineBytes) this.flood();
  }

  private flood(): void {
    this.buf = [];
    this.bufLen = 0;
    // Refused as it arrives, before any parse (and before the rest of it is held): a line past the cap
    // can only be a filter writing to the channel, or a report it made too big.
    this.fail(
      new WorkerFailure(
        'crash',
        `the filter flooded its output: its worker wrote a protocol line over ${this.maxLineBytes} bytes, the limit, so it was stopped and the line never read`,
      ),
    );
  }

  private onLine(line: string): void {
    let msg: any;
    try {
      msg = JSON.parse(line);
    } catch {
      return this.fail(new WorkerFailure('protocol', 'the worker wrote a line that is not JSON'));
    }
    if (!this.ready) {
      if (msg.op === 'ready') {
        this.ready = true;
        return;
      }
      return this.fail(new WorkerFailure('protocol', `the worker did not start cleanly: ${line.slice(0, 200)}`));
    }
    const p = this.pending;
    if (!p || msg.id !== p.id || msg.nonce !== p.nonce) {
      return this.fail(new WorkerFailure('protocol', `unexpected line on the protocol channel: ${line.slice(0, 200)}`));
    }
    if (p.onLine(msg)) {
      this.pending = undefined;
      clearTimeout(this.timer);
    }
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
  requestChunked<T>(
    msg: Record<string, unknown>,
    nextChunk: ((prefix: string) => { line: Buffer; last: boolean }) | undefined,
    onLine: (msg: any, done: (v: T) => void) => void,
  ): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      if (this.dead) return reject(this.dead);
      const id = ++this.seq;
      const nonce = randomBytes(12).toString('hex');
      let result: T | undefined;
      let finished = false;
      const pending: Pending = {
        id,
        nonce,
        reject,
        onLine: (m) => {
          onLine(m, (v) => {
            result = v;
            finished = true;
          });
          if (finished) resolve(result as T);
          return finished;
        },
      };
      this.pending = pending;
      const head = JSON.stringify({ ...msg, id, nonce });
      if (!nextChunk) {
        this.proc.stdin!.write(head + '\n');
        return;
      }
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

  /** One line for the request in flight that is not a chunk of its batch (an answer to the worker's `fetch`). */
  send(line: string | Buffer): void {
    if (!this.dead) this.proc.stdin!.write(line);
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
