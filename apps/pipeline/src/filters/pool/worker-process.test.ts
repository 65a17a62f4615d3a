import { afterEach, describe, expect, it, vi } from 'vitest';

import { WorkerFailure, WorkerProcess } from './worker-process.ts';

// The line cap of the worker channel (ADR 0062), against real processes speaking the protocol's framing
// (no sandbox: what is tested is the pool's reading of a worker's stdout, whoever the worker is).
const CAP = 4096;

/** A worker that says it is ready, then answers each request with `reply(id, nonce)` written as given. */
const worker = (reply: string) =>
  new WorkerProcess(
    [
      '/usr/bin/python3',
      '-c',
      `import json, sys, time
sys.stdout.write('{"op": "ready"}\\n'); sys.stdout.flush()
for line in sys.stdin:
    m = json.loads(line)
    if m.get('op') == 'exit':
        break
    i, n = m['id'], m['nonce']
    sys.stdout.write(${reply}); sys.stdout.flush()
time.sleep(3600)`,
    ],
    CAP,
    0,
  );

describe('the worker channel', () => {
  const started: WorkerProcess[] = [];
  const start = (reply: string) => {
    const w = worker(reply);
    started.push(w);
    return w;
  };
  afterEach(() => {
    vi.restoreAllMocks();
    for (const w of started.splice(0)) w.fail(new WorkerFailure('crash', 'test over'));
  });

  it('parses a line within the cap', async () => {
    const w = start(`json.dumps({"id": i, "nonce": n, "op": "pong", "pad": "x" * ${CAP - 200}}) + "\\n"`);
    const reply = await w.request<{ op: string; pad: string }>({ op: 'ping' }, (m, done) => done(m));
    expect(reply.op).toBe('pong');
    expect(reply.pad.length).toBe(CAP - 200);
  });

  it('kills a worker whose line outgrows the cap before the line ends, never parsing it', async () => {
    const parse = vi.spyOn(JSON, 'parse');
    // A well-formed answer, far over the cap, whose newline never comes: only a bound on the bytes
    // held can end this request (waiting for the end of the line would wait for ever).
    const w = start(`json.dumps({"id": i, "nonce": n, "op": "pong", "pad": "x" * ${4 * CAP}})`);
    const failure = await w.request({ op: 'ping' }, (m, done) => done(m)).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(WorkerFailure);
    expect((failure as WorkerFailure).kind).toBe('crash');
    expect((failure as WorkerFailure).message).toBe(
      `the filter flooded its output: its worker wrote a protocol line over ${CAP} bytes, the limit, so it was stopped and the line never read`,
    );
    expect(parse.mock.calls.filter(([text]) => typeof text === 'string' && text.length > CAP)).toEqual([]);
    expect(w.dead).toBe(failure);
  }, 20_000);

  it('refuses a whole line over the cap as well', async () => {
    const parse = vi.spyOn(JSON, 'parse');
    const w = start(`json.dumps({"id": i, "nonce": n, "op": "pong", "pad": "x" * ${CAP}}) + "\\n"`);
    const failure = (await w.request({ op: 'ping' }, (m, done) => done(m)).catch((e: unknown) => e)) as WorkerFailure;
    expect(failure.message).toContain(`a protocol line over ${CAP} bytes`);
    expect(parse.mock.calls.filter(([text]) => typeof text === 'string' && text.length > CAP)).toEqual([]);
  });
});
