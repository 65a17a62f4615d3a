import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { migrate, openDatabase, Repositories } from '@antares/db';
import { afterAll, describe, expect, it } from 'vitest';

// `antares user create` as operators run it, on an embedded database of its own.
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'antares-user-test-'));
const env = { ...process.env, ANTARES_DATA_DIR: dataDir, DATABASE_URL: '' };
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

function cli(...args: string[]) {
  const result = spawnSync('npx', ['tsx', 'apps/cli/src/main.ts', 'user', 'create', ...args], { cwd: ROOT, env, encoding: 'utf8' });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

describe('antares user create', () => {
  it('creates accounts with the flags asked for, refusing a taken username', async () => {
    const admin = cli(
      '--username',
      'operator',
      '--email',
      'op@example.org',
      '--password',
      'Operator2026',
      '--admin',
      '--name',
      'The Operator',
    );
    expect(admin.output).toMatch(/created user operator \(id \d+, admin\)/);
    expect(admin.status).toBe(0);
    const staff = cli('--username', 'helper', '--email', 'helper@example.org', '--password', 'Helper2026', '--staff');
    expect(staff.output).toMatch(/created user helper \(id \d+, staff\)/);

    // Taken (here: reserved for the owner of the shipped filters) is told plainly, with a failing status.
    const reserved = cli('--username', 'Antares', '--email', 'x@example.org', '--password', 'Operator2026');
    expect(reserved.status).toBe(1);
    expect(reserved.output).toContain('antares: This username is already in use, please choose a different one.');

    const opened = await openDatabase({ pgliteDir: path.join(dataDir, 'db') });
    try {
      await migrate(opened.db);
      const users = new Repositories(opened.db, opened.kind).users;
      expect(await users.findByUsername('operator')).toMatchObject({
        admin: true,
        staff: false,
        name: 'The Operator',
        email: 'op@example.org',
      });
      expect(await users.findByUsername('helper')).toMatchObject({ admin: false, staff: true, name: 'helper' });
      expect((await users.findByUsername('operator'))!.password_hash).toMatch(/^\$argon2id\$/);
      expect(await users.findByUsername('antares')).toBeUndefined();
    } finally {
      await opened.close();
    }
  }, 240_000);
});
