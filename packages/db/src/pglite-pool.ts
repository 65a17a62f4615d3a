import { PGlite } from '@electric-sql/pglite';
import type { PostgresPool, PostgresPoolClient, PostgresQueryResult } from 'kysely';

/**
 * Adapts PGlite (one in-process connection) to the pool interface Kysely's PostgresDialect expects.
 * PGlite cannot run two queries or transactions at once, so the "pool" hands its single client to one
 * borrower at a time and queues the others: that serialises transactions correctly as well.
 */
export class PGlitePool implements PostgresPool {
  private queue: Array<() => void> = [];
  private busy = false;

  constructor(readonly pglite: PGlite) {}

  async connect(): Promise<PostgresPoolClient> {
    if (this.busy) await new Promise<void>((resolve) => this.queue.push(resolve));
    this.busy = true;
    let released = false;
    const client = {
      query: async (sql: string, parameters: ReadonlyArray<unknown>) => {
        // Migration files hold several statements: only the simple protocol (exec) runs those.
        if (parameters.length === 0 && isMultiStatement(sql)) {
          await this.pglite.exec(sql);
          return { command: 'SELECT', rowCount: 0, rows: [] } as PostgresQueryResult<unknown>;
        }
        const result = await this.pglite.query(sql, parameters as unknown[], { rowMode: 'object' });
        return {
          command: commandOf(sql),
          rowCount: result.affectedRows ?? result.rows.length,
          rows: result.rows,
        } as PostgresQueryResult<unknown>;
      },
      release: () => {
        if (released) return;
        released = true;
        const next = this.queue.shift();
        if (next) next();
        else this.busy = false;
      },
    };
    return client as unknown as PostgresPoolClient;
  }

  async end(): Promise<void> {
    await this.pglite.close();
  }
}

function commandOf(sql: string): PostgresQueryResult<unknown>['command'] {
  const word = sql.trimStart().slice(0, 6).toUpperCase();
  if (word === 'INSERT' || word === 'UPDATE' || word === 'DELETE' || word === 'SELECT') return word;
  return 'SELECT';
}

function isMultiStatement(sql: string): boolean {
  return /;\s*\S/.test(sql);
}
