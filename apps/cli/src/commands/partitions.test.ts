import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { migrate, openDatabase, Repositories } from '@antares/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// `antares partitions` as an operator runs it, on an embedded database of its own holding three months.
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'antares-partitions-test-'));
const env = { ...process.env, ANTARES_DATA_DIR: dataDir, DATABASE_URL: '' };

function cli(...args: string[]) {
  const result = spawnSync('npx', ['tsx', 'apps/cli/src/main.ts', 'partitions', ...args], { cwd: ROOT, env, encoding: 'utf8' });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

async function alertIdsOfLocus(): Promise<string[]> {
  const opened = await openDatabase({ pgliteDir: path.join(dataDir, 'db') });
  try {
    return (await new Repositories(opened.db, opened.kind).alerts.listByLocus('ANT2026cli')).map((a) => a.alert_id);
  } finally {
    await opened.close();
  }
}

beforeAll(async () => {
  const opened = await openDatabase({ pgliteDir: path.join(dataDir, 'db') });
  try {
    await migrate(opened.db);
    await new Repositories(opened.db, opened.kind).alerts.insertMany(
      [60601, 60640, 60700].map((mjd) => ({
        alert_id: `ztf_candidate:${mjd}`,
        locus_id: 'ANT2026cli',
        survey: 'ztf',
        mjd,
        properties: { ant_mag: 19 },
        summary: { ant_mag: 19 },
      })),
    );
  } finally {
    await opened.close();
  }
});

afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('antares partitions', () => {
  it('lists the monthly partitions, archives the old ones and restores one', async () => {
    const list = cli('list');
    expect(list.status).toBe(0);
    expect(list.output).toContain('alert partitions (3):');
    expect(list.output).toMatch(/alert_p60600 {2}MJD 60600-60630/);
    expect(list.output).toMatch(/alert_p60690 {2}MJD 60690-60720/);

    const archive = cli('archive', '--before', '60660');
    expect(archive.status).toBe(0);
    expect(archive.output).toContain('archived 2 partition(s)');
    expect(archive.output).toContain('alert_archive_p60600');
    expect(archive.output).toContain('alert_archive_p60630');
    expect(await alertIdsOfLocus()).toEqual(['ztf_candidate:60700']);

    const restore = cli('restore', 'alert_archive_p60630');
    expect(restore.status).toBe(0);
    expect(restore.output).toContain('restored alert_archive_p60630 as alert_p60630');
    expect(await alertIdsOfLocus()).toEqual(['ztf_candidate:60640', 'ztf_candidate:60700']);

    const after = cli('list');
    expect(after.output).toContain('alert partitions (2):');
    expect(after.output).toContain('archived, not in the alert table (1):');
  });

  it('says what is wrong, with a failing status, for an unknown partition or a bad MJD', () => {
    const unknown = cli('restore', 'alert_archive_p1');
    expect(unknown.status).toBe(1);
    expect(unknown.output).toContain('antares: no archived alert partition named alert_archive_p1');
    const bad = cli('archive', '--before', 'soon');
    expect(bad.status).toBe(1);
    expect(bad.output).toContain('--before must be an MJD');
  });
});
