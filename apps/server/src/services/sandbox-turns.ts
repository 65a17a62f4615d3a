import { ApiError } from '../errors.ts';

/**
 * One filter-sandbox job (a dry run or the check of submitted code) per user at a time. The API
 * server's sandbox pool is small and every job is bounded in time; with at most one worker each, a
 * user running hostile code (a hang at load, an endless `run`) holds one worker, never the pool, and
 * everyone else's dry runs still find a free one. A second job while one runs is refused at once
 * rather than queued: queuing would let one user line up the whole pool.
 */
export class SandboxTurns {
  private readonly running = new Set<number>();

  async take<T>(userId: number, job: () => Promise<T>): Promise<T> {
    if (this.running.has(userId)) {
      throw new ApiError(
        429,
        'Too Many Requests',
        'You already have a filter test or code check running: wait for it to finish, then try again',
      );
    }
    this.running.add(userId);
    try {
      return await job();
    } finally {
      this.running.delete(userId);
    }
  }
}
