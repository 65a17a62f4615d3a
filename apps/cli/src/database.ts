import path from 'node:path';

import { migrate, openDatabase, type OpenedDatabase, Repositories } from '@antares/db';
import type { Config } from '@antares/server';

/** Opens the configured database (PGlite under $ANTARES_DATA_DIR/db, or DATABASE_URL) and migrates it. */
export async function openConfiguredDatabase(config: Config): Promise<OpenedDatabase & { repos: Repositories }> {
  const opened = await openDatabase({ databaseUrl: config.databaseUrl, pgliteDir: path.join(config.dataDir, 'db') });
  await migrate(opened.db);
  return { ...opened, repos: new Repositories(opened.db, opened.kind) };
}

export function describeDatabase(config: Config): string {
  return config.databaseUrl
    ? `PostgreSQL at ${new URL(config.databaseUrl).host}${new URL(config.databaseUrl).pathname}`
    : `embedded PGlite in ${path.join(config.dataDir, 'db')}`;
}
