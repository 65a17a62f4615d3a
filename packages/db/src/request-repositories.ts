import { openDatabase } from './open.ts';
import { Repositories } from './repositories/index.ts';

/**
 * The repositories HTTP requests use: on a PostgreSQL server with a statement timeout, a pool of their
 * own whose statements stop at that timeout (57014; the request answers 503), so that ingestion, Level 2
 * and the jobs, on `repos`, are never cut short (ADR 0059). Otherwise `repos` itself: PGlite has one
 * connection, whose timeout ingestion would share.
 */
export async function openRequestRepositories(
  repos: Repositories,
  databaseUrl: string | undefined,
  statementTimeoutMs: number,
): Promise<{ repos: Repositories; close(): Promise<void> }> {
  if (repos.kind !== 'postgres' || !databaseUrl || statementTimeoutMs <= 0) return { repos, close: async () => {} };
  const opened = await openDatabase({ databaseUrl, statementTimeoutMs });
  return { repos: new Repositories(opened.db, opened.kind, repos.cutoutPacks, repos.filterFileStore), close: opened.close };
}
