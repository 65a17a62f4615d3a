import type { Repositories } from '@antares/db';

/** Objects matched per statement: each statement holds the pipeline's write lock only briefly. */
const CHUNK = 500;

interface Log {
  error(details: object, message: string): void;
}

/**
 * Matches watch lists against the stored alerts, in the background, one list at a time: a new list's
 * View Loci then shows the loci that already had alerts inside its objects' circles, not only those of
 * alerts that arrive later. A list stays "matching history" (history_matched_at null) until every chunk
 * is done; one left unfinished by a stop is matched again at the next start (marking is idempotent).
 * Notifications are not sent for history: those are for new alerts only.
 */
export class WatchListHistoryMatcher {
  private readonly queue: number[] = [];
  private running: Promise<void> | undefined;
  private stopped = false;

  constructor(
    private readonly repos: Repositories,
    private readonly log?: Log,
  ) {}

  /** Queues every list not yet matched (new ones, and those a stop left unfinished). */
  async resume(): Promise<void> {
    for (const id of await this.repos.watchLists.pendingHistory()) this.enqueue(id);
  }

  enqueue(watchListId: number): void {
    if (this.stopped || this.queue.includes(watchListId)) return;
    this.queue.push(watchListId);
    this.running ??= this.drain().finally(() => {
      this.running = undefined;
    });
  }

  /** Resolves once every queued list is matched (tests; a server that stops waits for the chunk under way). */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.idle();
  }

  private async drain(): Promise<void> {
    while (this.queue.length > 0 && !this.stopped) {
      const id = this.queue[0];
      try {
        await this.match(id);
      } catch (error) {
        // Left unmatched (null): the next start tries again.
        this.log?.error({ err: error, watchListId: id }, 'matching a watch list against the stored alerts failed');
      }
      this.queue.shift();
    }
  }

  /** Matches one list's objects against the stored alerts; returns the loci it marked. */
  async match(watchListId: number): Promise<number> {
    const circles = await this.repos.watchLists.circles(watchListId);
    let marked = 0;
    for (let i = 0; i < circles.length; i += CHUNK) {
      if (this.stopped) return marked;
      const chunk = circles.slice(i, i + CHUNK);
      // The pipeline's lock orders these writes with ingestion's (which updates the same loci).
      marked += await this.repos.transaction(async (tx) => {
        await tx.lockPipelineWrites();
        return tx.watchLists.markHistoryMatches(chunk);
      });
    }
    await this.repos.watchLists.setHistoryMatched(watchListId);
    return marked;
  }
}
