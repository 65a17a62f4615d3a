// Test support: the PostgreSQL server for tests that need one whatever the pass (several processes or
// connection pools on one database): DATABASE_URL, else the local server. Missing, such tests skip
// locally with the command that starts one, and fail under CI=true.
import pg from 'pg';

export const SERVER_URL = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';

/** Whether the server answers; `what` names the tests in the message when it does not. */
export async function postgresServerFor(what: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: SERVER_URL, connectionTimeoutMillis: 3000 });
  let reachable: boolean;
  try {
    await client.connect();
    reachable = true;
  } catch {
    reachable = false;
  } finally {
    await client.end().catch(() => {});
  }
  if (!reachable) {
    const message = `${what} need the PostgreSQL server at ${SERVER_URL}: apt-get install -y postgresql && service postgresql start (or set DATABASE_URL)`;
    if (process.env.CI === 'true') throw new Error(message);
    console.warn(`SKIPPED: ${message}`);
  }
  return reachable;
}
