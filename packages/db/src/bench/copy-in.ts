import { once } from 'node:events';
import type { Writable } from 'node:stream';

import type pg from 'pg';

/** The parts of pg's connection a COPY FROM STDIN drives, which its type declarations leave out. */
interface CopyConnection {
  sendCopyFromChunk(chunk: Buffer): void;
  endCopyFrom(): void;
  sendCopyFail(message: string): void;
  stream: Writable;
}

/**
 * `COPY ... FROM STDIN` through the pg driver, as a submittable query (`client.query(copy)`; await
 * `copy.done`): pg has no COPY API of its own, and the repository depends on no COPY package. Chunks
 * are sent as the socket drains, so a multi-gigabyte load never sits in memory.
 */
export class CopyIn implements pg.Submittable {
  readonly done: Promise<number>;
  private resolve!: (rows: number) => void;
  private reject!: (error: Error) => void;
  private error: Error | undefined;
  private rows = 0;

  constructor(
    private readonly text: string,
    private readonly chunks: Iterable<string>,
  ) {
    this.done = new Promise((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
  }

  submit(connection: pg.Connection): void {
    connection.query(this.text);
  }

  handleCopyInResponse(pgConnection: pg.Connection): void {
    const connection = pgConnection as unknown as CopyConnection;
    this.send(connection).catch((error: unknown) => {
      this.error = error instanceof Error ? error : new Error(String(error));
      connection.sendCopyFail(this.error.message);
    });
  }

  private async send(connection: CopyConnection): Promise<void> {
    for (const chunk of this.chunks) {
      // An error reported by the server mid-copy ends it: stop producing.
      if (this.error) return;
      connection.sendCopyFromChunk(Buffer.from(chunk));
      if (connection.stream.writableNeedDrain) await once(connection.stream, 'drain');
    }
    connection.endCopyFrom();
  }

  handleCommandComplete(message: { text?: string }): void {
    this.rows = Number(/\d+$/.exec(message.text ?? '')?.[0] ?? 0);
  }

  handleError(error: Error): void {
    this.error = error;
  }

  handleReadyForQuery(): void {
    if (this.error) this.reject(this.error);
    else this.resolve(this.rows);
  }

  // Not sent during COPY FROM; pg calls them only for other statements.
  handleRowDescription(): void {}
  handleDataRow(): void {}
  handleEmptyQuery(): void {}
  handlePortalSuspended(): void {}
  handleCopyData(): void {}
}
