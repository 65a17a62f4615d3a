import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { ingestFiles } from '@antares/pipeline';
import { loadConfig } from '@antares/server';
import { afterAll, describe, expect, it } from 'vitest';

import { describeDatabase, openConfiguredDatabase } from './database.ts';

// ANTARES_CUTOUT_DIR as every command opens the database (ADR 0051): a real Rubin packet's cutouts go
// to a pack in that folder, and the rows keep only where they lie.
const SHARED_DATA = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../shared/data');
const RUBIN_FILE = 'fink-broker/rubin_v9.0_fink_subset/169298432623116306_169298432623116306.avro';
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'antares-cutout-config-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('openConfiguredDatabase with ANTARES_CUTOUT_DIR', () => {
  it('keeps new cutouts in packs in that folder', async () => {
    const cutoutDir = path.join(dataDir, 'cutouts');
    const config = loadConfig({ ANTARES_DATA_DIR: dataDir, ANTARES_CUTOUT_DIR: cutoutDir });
    expect(describeDatabase(config)).toBe(`embedded PGlite in ${path.join(dataDir, 'db')}, new cutouts in packs under ${cutoutDir}`);
    const database = await openConfiguredDatabase(config);
    try {
      await ingestFiles(database.repos, [path.join(SHARED_DATA, RUBIN_FILE)]);
      const rows = await database.db.selectFrom('alert_thumbnail').select(['alert_id', 'cutout', 'pack', 'pack_length']).execute();
      expect(rows).toHaveLength(3);
      for (const row of rows) expect([row.cutout, row.pack_length! > 30_000]).toEqual([null, true]);
      const packs = readdirSync(cutoutDir, { recursive: true }).filter((file) => String(file).endsWith('.cutouts'));
      expect(packs).toEqual([rows[0]!.pack]);
      const science = await database.repos.thumbnails.findCutout(rows[0]!.alert_id, 'science');
      expect(Buffer.from(science!).subarray(0, 9).toString('latin1')).toBe('SIMPLE  =');
    } finally {
      await database.close();
    }
  });
});
