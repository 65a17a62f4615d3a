import type { FastifyBaseLogger } from 'fastify';
import { describe, expect, it } from 'vitest';

import { ResetMailQueue } from './reset-mails.ts';

/** A logger that keeps what it is told. */
function recordingLog() {
  const lines: string[] = [];
  const log = {
    warn: (...args: unknown[]) => lines.push(`warn ${args.map(String).join(' ')}`),
    error: (...args: unknown[]) => lines.push(`error ${args.map((a) => (a as { err?: Error })?.err?.message ?? String(a)).join(' ')}`),
  };
  return { lines, log: log as unknown as FastifyBaseLogger };
}

describe('reset mail queue', () => {
  it("runs jobs one at a time in order, none in the caller's turn; a failure is logged and the next runs", async () => {
    const { lines, log } = recordingLog();
    const queue = new ResetMailQueue(log, { perAccountPerHour: 3, maxPending: 10 });
    const ran: string[] = [];
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    queue.enqueue(async () => {
      ran.push('a start');
      await held;
      ran.push('a end');
    });
    queue.enqueue(async () => {
      ran.push('b');
      throw new Error('SMTP refused');
    });
    queue.enqueue(async () => {
      ran.push('c');
    });
    expect(ran).toEqual([]);
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setImmediate(resolve));
    expect(ran).toEqual(['a start']);
    release();
    await queue.idle();
    expect(ran).toEqual(['a start', 'a end', 'b', 'c']);
    expect(lines).toEqual(['error SMTP refused a password-reset request failed']);
  });

  it('drops requests past its limit of waiting ones, with a log line', async () => {
    const { lines, log } = recordingLog();
    const queue = new ResetMailQueue(log, { perAccountPerHour: 3, maxPending: 2 });
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let done = 0;
    queue.enqueue(async () => {
      await held;
      done++;
    });
    await new Promise((resolve) => setImmediate(resolve));
    for (let i = 0; i < 3; i++)
      queue.enqueue(async () => {
        done++;
      });
    expect(lines.filter((line) => line.startsWith('warn'))).toHaveLength(1);
    release();
    await queue.idle();
    expect(done).toBe(3);
  });

  it('allows an account a few mails an hour', () => {
    const { log } = recordingLog();
    const queue = new ResetMailQueue(log, { perAccountPerHour: 3, maxPending: 10 });
    const t0 = 1_700_000_000_000;
    expect([0, 1, 2, 3].map((i) => queue.allowMail(7, t0 + i * 1000))).toEqual([true, true, true, false]);
    expect(queue.allowMail(8, t0)).toBe(true);
    expect(queue.allowMail(7, t0 + 59 * 60 * 1000)).toBe(false);
    expect(queue.allowMail(7, t0 + 60 * 60 * 1000 + 1)).toBe(true);
  });
});
