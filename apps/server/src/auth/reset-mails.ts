import type { FastifyBaseLogger } from 'fastify';

/**
 * The work behind `POST /v1/auth/forgot`, done after the answer has gone out (ADR 0015): whether the
 * account exists, and the mail, never change the answer or its timing. Jobs run one at a time, in order;
 * a failure is logged, never surfaced. Also the per-account allowance of reset mails (a few an hour), so
 * that nobody can bury a user's inbox in reset mails.
 */
export interface ResetMailLimits {
  /** Reset mails one account gets in an hour. */
  perAccountPerHour: number;
  /** Jobs waiting at most; past it new requests are dropped (and logged) rather than held in memory. */
  maxPending: number;
}

const HOUR_MS = 60 * 60 * 1000;

export class ResetMailQueue {
  private readonly pending: Array<() => Promise<void>> = [];
  private running: Promise<void> | undefined;
  private readonly mailed = new Map<number, number[]>();

  constructor(
    private readonly log: FastifyBaseLogger,
    private readonly limits: ResetMailLimits = { perAccountPerHour: 3, maxPending: 1000 },
  ) {}

  enqueue(job: () => Promise<void>): void {
    if (this.pending.length >= this.limits.maxPending) {
      this.log.warn(`password-reset request dropped: ${this.pending.length} are already waiting`);
      return;
    }
    this.pending.push(job);
    this.running ??= this.drain();
  }

  /** Resolves once every queued job has run, or after `maxMs` (shutdown: a hung mail server must not hold it). */
  async idle(maxMs = 5000): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const giveUp = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, maxMs);
    });
    const done = (async () => {
      while (this.running) await this.running;
    })();
    await Promise.race([done, giveUp]);
    clearTimeout(timer);
  }

  /** Whether `userId` may be sent another reset mail now; if so, the mail is counted. */
  allowMail(userId: number, now = Date.now()): boolean {
    const recent = (this.mailed.get(userId) ?? []).filter((time) => now - time < HOUR_MS);
    if (recent.length >= this.limits.perAccountPerHour) {
      this.mailed.set(userId, recent);
      this.log.warn(
        { user_id: userId },
        `password-reset mail not sent: the account had its ${this.limits.perAccountPerHour} for this hour`,
      );
      return false;
    }
    recent.push(now);
    this.mailed.set(userId, recent);
    // Accounts with no mail in the last hour need no entry.
    if (this.mailed.size > 10_000) {
      for (const [id, times] of this.mailed) if (times.every((time) => now - time >= HOUR_MS)) this.mailed.delete(id);
    }
    return true;
  }

  private async drain(): Promise<void> {
    // Never any of a job's work in the caller's turn.
    await new Promise((resolve) => setImmediate(resolve));
    for (let job = this.pending.shift(); job; job = this.pending.shift()) {
      try {
        await job();
      } catch (error) {
        this.log.error({ err: error }, 'a password-reset request failed');
      }
    }
    // No await between the empty queue and this line: a job enqueued from here on starts a new drain.
    this.running = undefined;
  }
}
