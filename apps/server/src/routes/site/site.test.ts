import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { createTestDatabase } from '@antares/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { buildServer } from '../../app.ts';
import { loadConfig } from '../../config.ts';
import { startTestServer } from '../../testing/test-server.ts';
import { DEFAULT_TEAM, loadTeamFile } from './team.ts';

const dir = mkdtempSync(path.join(os.tmpdir(), 'antares-team-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function teamFile(name: string, content: unknown): string {
  const file = path.join(dir, name);
  writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content));
  return file;
}

const GOOD_TEAM = [
  {
    name: 'Ada Lovelace',
    title: 'Engineer',
    bio: 'Analytical.',
    link: 'https://example.org/ada',
    email: 'ada@example.org',
    photo: '/images/ada.png',
    group: 'Internal',
  },
  { name: 'Grace Hopper', title: 'Admiral', email: 'grace@example.org', group: 'External' },
];

describe('ANTARES_TEAM_FILE', () => {
  it('is read from the environment as an absolute path', () => {
    expect(loadConfig({ ANTARES_TEAM_FILE: 'team.json' }).teamFile).toBe(path.resolve('team.json'));
    expect(loadConfig({}).teamFile).toBeUndefined();
  });

  it('accepts a valid team file', () => {
    expect(loadTeamFile(teamFile('good.json', GOOD_TEAM))).toEqual(GOOD_TEAM);
  });

  it('names the file, the member and the field of a bad member', () => {
    const bad = teamFile('bad-email.json', [GOOD_TEAM[0], { name: 'Bad Address', title: 'X', email: 'not-an-address', group: 'Internal' }]);
    expect(() => loadTeamFile(bad)).toThrow(/bad-email\.json.*member 2 \("Bad Address"\): email:/);
    const group = teamFile('bad-group.json', [{ name: 'No Group', title: 'X', group: 'Visiting' }]);
    expect(() => loadTeamFile(group)).toThrow(/bad-group\.json.*member 1 \("No Group"\): group:/);
    const typo = teamFile('typo.json', [{ name: 'Typo', title: 'X', group: 'External', emial: 'typo@example.org' }]);
    expect(() => loadTeamFile(typo)).toThrow(/member 1 \("Typo"\).*emial/);
    const unnamed = teamFile('unnamed.json', [{ title: 'X', group: 'External' }]);
    expect(() => loadTeamFile(unnamed)).toThrow(/member 1: name:/);
  });

  it('rejects a file that is not a JSON array of members, or is missing', () => {
    expect(() => loadTeamFile(teamFile('object.json', { members: GOOD_TEAM }))).toThrow(/object\.json.*JSON array/);
    expect(() => loadTeamFile(teamFile('broken.json', '[{"name": '))).toThrow(/broken\.json/);
    expect(() => loadTeamFile(path.join(dir, 'missing.json'))).toThrow(/missing\.json/);
  });
});

describe('/config.json team', () => {
  describe('with a team file', () => {
    let server: Awaited<ReturnType<typeof startTestServer>>;
    beforeAll(async () => {
      server = await startTestServer({ config: { teamFile: teamFile('served.json', GOOD_TEAM) } });
    });
    afterAll(() => server?.close());

    it('serves the members of the file', async () => {
      const { status, body } = await server.getJson('/config.json');
      expect(status).toBe(200);
      expect(body.team).toEqual(GOOD_TEAM);
    });
  });

  describe('without a team file', () => {
    let server: Awaited<ReturnType<typeof startTestServer>>;
    beforeAll(async () => {
      server = await startTestServer();
    });
    afterAll(() => server?.close());

    it('serves the built-in team', async () => {
      const { body } = await server.getJson('/config.json');
      expect(body.team).toEqual(DEFAULT_TEAM);
      expect(new Set(body.team.map((m: { group: string }) => m.group))).toEqual(new Set(['Internal', 'External']));
    });
  });

  it('refuses to start with a bad team file, naming it and the bad member', async () => {
    const bad = teamFile('start-bad.json', [
      GOOD_TEAM[1],
      { name: 'Photo Problem', title: 'X', photo: 'javascript:alert(1)', group: 'External' },
    ]);
    const database = await createTestDatabase();
    try {
      const config = loadConfig(
        {},
        {
          webDist: '/nonexistent',
          dataDir: dir,
          inboxDir: undefined,
          jwtSecret: 'a-test-secret-of-at-least-thirty-two-characters',
          teamFile: bad,
        },
      );
      await expect(buildServer({ config, repos: database.repos })).rejects.toThrow(/start-bad\.json.*member 2 \("Photo Problem"\): photo:/);
    } finally {
      await database.close();
    }
  });
});
