/**
 * Runs `work` again and again, `pollMs` after each run ends, until stopped; a failed run is logged and
 * the next goes on. The inbox, the chat outbox and the Kafka relay all poll this way.
 */
export class Poller {
  private timer?: NodeJS.Timeout;
  private running: Promise<unknown> = Promise.resolve();
  private stopped = false;

  constructor(
    private readonly work: () => Promise<unknown>,
    private readonly pollMs: number,
    private readonly onError: (error: Error) => void,
  ) {}

  start(): void {
    const tick = () => {
      this.running = this.work().catch((error) => this.onError(error as Error));
      void this.running.then(() => {
        if (!this.stopped) this.timer = setTimeout(tick, this.pollMs);
      });
    };
    tick();
  }

  get isStopped(): boolean {
    return this.stopped;
  }

  /** Stops polling; resolves when the run under way (if any) has ended. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }
}
