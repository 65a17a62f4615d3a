import { describe, expect, it } from 'vitest';

import { ApiError } from '../errors.ts';
import { SandboxTurns } from './sandbox-turns.ts';

// Turns at the API server's sandbox (ADR 0062): past its workers, users wait and are served round-robin,
// not first come; a user's second job while one runs or waits is refused. Each job here ends when the
// test says so, so the order of starts is all that is asserted.
class Jobs {
  readonly starts: string[] = [];
  private readonly ends = new Map<string, () => void>();

  /** A job that records its start and runs until `end(name)`. */
  job(name: string) {
    return () =>
      new Promise<string>((resolve) => {
        this.starts.push(name);
        this.ends.set(name, () => resolve(name));
      });
  }

  async end(name: string): Promise<void> {
    await Promise.resolve();
    const end = this.ends.get(name);
    if (!end) throw new Error(`${name} has not started`);
    end();
    // Let the finished job's turn pass to the next one.
    for (let i = 0; i < 5; i++) await Promise.resolve();
  }
}
const settle = async () => {
  for (let i = 0; i < 5; i++) await Promise.resolve();
};
const [ANN, BOB, CYD] = [1, 2, 3];

describe('sandbox turns', () => {
  it("interleaves three users' jobs on one worker, each going back in line after its turn", async () => {
    const turns = new SandboxTurns(1);
    const jobs = new Jobs();
    // Each user submits a job, and its next one as soon as the last has ended, three times over.
    const user = async (id: number, name: string) => {
      for (let n = 1; n <= 3; n++) await turns.take(id, jobs.job(`${name}${n}`));
    };
    const all = Promise.all([user(ANN, 'ann'), user(BOB, 'bob'), user(CYD, 'cyd')]);
    await settle();
    for (const name of ['ann1', 'bob1', 'cyd1', 'ann2', 'bob2', 'cyd2', 'ann3', 'bob3', 'cyd3']) await jobs.end(name);
    await all;
    expect(jobs.starts).toEqual(['ann1', 'bob1', 'cyd1', 'ann2', 'bob2', 'cyd2', 'ann3', 'bob3', 'cyd3']);
  });

  it('gives the free worker to the user served least recently, not to the one who came first', async () => {
    const turns = new SandboxTurns(1);
    const jobs = new Jobs();
    const cydBefore = turns.take(CYD, jobs.job('cyd1'));
    await settle();
    await jobs.end('cyd1');
    await cydBefore;
    // Ann holds the worker; Cyd (served before) asks, then Bob (never served), then Ann again after her turn.
    const ann = turns.take(ANN, jobs.job('ann1'));
    await settle();
    const cyd = turns.take(CYD, jobs.job('cyd2'));
    const bob = turns.take(BOB, jobs.job('bob1'));
    await settle();
    await jobs.end('ann1');
    await ann;
    const annAgain = turns.take(ANN, jobs.job('ann2'));
    await settle();
    await jobs.end('bob1');
    await jobs.end('cyd2');
    await jobs.end('ann2');
    await Promise.all([bob, cyd, annAgain]);
    expect(jobs.starts).toEqual(['cyd1', 'ann1', 'bob1', 'cyd2', 'ann2']);
  });

  it("runs up to its capacity at once and refuses a user's second job while the first runs or waits", async () => {
    const turns = new SandboxTurns(2);
    const jobs = new Jobs();
    const first = [turns.take(ANN, jobs.job('ann1')), turns.take(BOB, jobs.job('bob1')), turns.take(CYD, jobs.job('cyd1'))];
    await settle();
    expect(jobs.starts).toEqual(['ann1', 'bob1']);
    for (const id of [ANN, CYD]) {
      const refused = await turns.take(id, jobs.job('again')).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(ApiError);
      expect((refused as ApiError).status).toBe(429);
      expect((refused as ApiError).detail).toBe(
        'You already have a filter test or code check running: wait for it to finish, then try again',
      );
    }
    await jobs.end('bob1');
    expect(jobs.starts).toEqual(['ann1', 'bob1', 'cyd1']);
    await jobs.end('ann1');
    await jobs.end('cyd1');
    await Promise.all(first);
  });
});
