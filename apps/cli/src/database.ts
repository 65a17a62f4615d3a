import path from 'node:path';

import { CutoutPacks, FilterFileStore, migrate, openDatabase, type OpenedDatabase, Repositories } from '@antares/db';
import type { Config } from '@antares/server';

/**
 * Opens the configured database (PGlite under $ANTARES_DATA_DIR/db, or DATABASE_URL) and migrates it;
 * its repositories keep new cutouts in ANTARES_CUTOUT_DIR when that is set, filter data files in
 * ANTARES_FILTER_FILES_DIR.
 */
export async function openConfiguredDatabase(config: Config): Promise<OpenedDatabase & { repos: Repositories }> {
  const opened = await openDatabase({ databaseUrl: config.databaseUrl, pgliteDir: path.join(config.dataDir, 'db') });
  await migrate(opened.db);
  const packs = config.cutoutDir ? new CutoutPacks(config.cutoutDir) : undefined;
  const files = new FilterFileStore(config.filterFilesDir);
  await files.sweep();
  return { ...opened, repos: new Repositories(opened.db, opened.kind, packs, files) };
}

export function describeDatabase(config: Config): string {
  const database = config.databaseUrl
    ? `PostgreSQL at ${new URL(config.databaseUrl).host}${new URL(config.databaseUrl).pathname}`
    : `embedded PGlite in ${path.join(config.dataDir, 'db')}`;
  return config.cutoutDir ? `${database}, new cutouts in packs under ${config.cutoutDir}` : database;
}
