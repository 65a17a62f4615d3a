import { tooManyRequests } from '../errors.ts';

type Waiter = { userId: number; arrived: number; start: () => void };

/**
 * Turns at the API server's filter sandbox (dry runs and the checks of submitted code; ADRs 0012, 0062).
 * One job per user at a time: the pool is small and every job is bounded in time; with at most one
 * worker each, a user running hostile code (a hang at load, an endless `run`) holds one worker, never
 * the pool. A second job while one runs is refused at once rather than queued: queuing would let one
 * user line up the pool. When all `capacity` workers are busy, jobs wait, and the next free worker goes
 * round-robin: to the waiting user whose last turn began longest ago (a user never served first), not
 * to whoever came first, so a user who just had a turn waits for everyone who had none since.
 */
export class SandboxTurns {
  private readonly running = new Set<number>();
  private readonly waiting: Waiter[] = [];
  /** When each user's last turn began (a counter, not a clock: only the order matters). */
  private readonly lastTurn = new Map<number, number>();
  private turns = 0;
  private arrivals = 0;

  constructor(private readonly capacity = Infinity) {}

  async take<T>(userId: number, job: () => Promise<T>): Promise<T> {
    if (this.running.has(userId) || this.waiting.some((w) => w.userId === userId)) {
      throw tooManyRequests('You already have a filter test or code check running: wait for it to finish, then try again');
    }
    if (this.running.size >= this.capacity) {
      await new Promise<void>((start) => this.waiting.push({ userId, arrived: ++this.arrivals, start }));
    } else this.begin(userId);
    try {
      return await job();
    } finally {
      this.running.delete(userId);
      this.next();
    }
  }

  private begin(userId: number): void {
    this.running.add(userId);
    this.lastTurn.set(userId, ++this.turns);
  }

  /** The free worker's next job: the waiting user served least recently, then the one who came first. */
  private next(): void {
    while (this.running.size < this.capacity && this.waiting.length > 0) {
      const turn = (w: Waiter) => this.lastTurn.get(w.userId) ?? 0;
      let best = 0;
      for (let i = 1; i < this.waiting.length; i++) {
        const w = this.waiting[i];
        const b = this.waiting[best];
        if (turn(w) < turn(b) || (turn(w) === turn(b) && w.arrived < b.arrived)) best = i;
      }
      const [chosen] = this.waiting.splice(best, 1);
      this.begin(chosen.userId);
      chosen.start();
    }
  }
}
