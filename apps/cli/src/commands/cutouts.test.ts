import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { createTestDatabase, CutoutPacks, migrate, type NewThumbnail, openDatabase, Repositories } from '@antares/db';
import { ingestFiles } from '@antares/pipeline';
import { afterAll, describe, expect, it, vi } from 'vitest';

import { runCutoutsMoveToPacks } from './cutouts.ts';

// `antares cutouts move-to-packs` (ADR 0051): cutouts stored in the database before ANTARES_CUTOUT_DIR
// was set move to packs, byte for byte, in batches, and a second run finds nothing left to move.
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const SHARED_DATA = path.resolve(ROOT, '../shared/data');
const RUBIN_FILE = 'fink-broker/rubin_v9.0_fink_subset/169298432623116306_169298432623116306.avro';
const scratch = mkdtempSync(path.join(os.tmpdir(), 'antares-move-cutouts-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('runCutoutsMoveToPacks', () => {
  it('moves every cutout in batches, each readable as before, then finds none left', async () => {
    const database = await createTestDatabase();
    const cutoutDir = mkdtempSync(path.join(scratch, 'packs-'));
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    try {
      const types = ['science', 'template', 'difference'] as const;
      const given: NewThumbnail[] = Array.from({ length: 25 }, (_, i) => ({
        filename: `move_${String(i).padStart(2, '0')}.fits`,
        alert_id: `lsst:move${Math.floor(i / 3)}`,
        locus_id: 'ANT2026move',
        thumbnail_type: types[i % 3]!,
        cutout: randomBytes(3000 + i * 100),
      }));
      await database.repos.thumbnails.insertMany(given);
      const packed = new Repositories(database.db, database.kind, new CutoutPacks(cutoutDir));

      await runCutoutsMoveToPacks(packed, { batch: 10, vacuum: true });
      expect(log.mock.calls.map((c) => String(c[0]))).toContain(`moved 25 cutouts (0.1 MB) to packs under ${cutoutDir}`);
      expect(readdirSync(cutoutDir, { recursive: true }).filter((f) => String(f).endsWith('.cutouts'))).toHaveLength(3);
      expect(await packed.thumbnails.countInDatabase()).toBe(0);
      for (const t of given) {
        const image = await packed.thumbnails.findImage(t.filename);
        expect(image && !image.png && Buffer.from(image.cutout).equals(Buffer.from(t.cutout))).toBe(true);
      }

      log.mockClear();
      await runCutoutsMoveToPacks(packed, { batch: 10, vacuum: false });
      expect(log.mock.calls.map((c) => String(c[0]))).toEqual([`no cutout is stored in the database: nothing to move to ${cutoutDir}`]);
      // Without ANTARES_CUTOUT_DIR there is nowhere to move them: the command says so.
      await expect(runCutoutsMoveToPacks(database.repos, { batch: 10, vacuum: false })).rejects.toMatchObject({
        detail: 'ANTARES_CUTOUT_DIR is not set: name the folder the cutouts are to move to (ADR 0051)',
      });
    } finally {
      log.mockRestore();
      await database.close();
    }
  });
});

describe('antares cutouts move-to-packs', () => {
  it("moves an ingested Rubin packet's cutouts to packs, as an operator runs it", async () => {
    const dataDir = mkdtempSync(path.join(scratch, 'data-'));
    const before = await openDatabase({ pgliteDir: path.join(dataDir, 'db') });
    try {
      await migrate(before.db);
      await ingestFiles(new Repositories(before.db, before.kind), [path.join(SHARED_DATA, RUBIN_FILE)]);
    } finally {
      await before.close();
    }
    const cutoutDir = path.join(scratch, 'cli-packs');
    const env = { ...process.env, ANTARES_DATA_DIR: dataDir, DATABASE_URL: '', ANTARES_CUTOUT_DIR: cutoutDir };
    const result = spawnSync('npx', ['tsx', 'apps/cli/src/main.ts', 'cutouts', 'move-to-packs', '--batch', '2'], {
      cwd: ROOT,
      env,
      encoding: 'utf8',
    });
    expect(result.status, `${result.stdout}${result.stderr}`).toBe(0);
    expect(result.stdout).toMatch(/moved 3 cutouts \(\d+\.\d MB\) to packs under /);

    const after = await openDatabase({ pgliteDir: path.join(dataDir, 'db') });
    try {
      const rows = await after.db.selectFrom('alert_thumbnail').select(['cutout', 'pack']).execute();
      expect(rows.map((r) => [r.cutout, r.pack === null])).toEqual([
        [null, false],
        [null, false],
        [null, false],
      ]);
    } finally {
      await after.close();
    }
  });
});
