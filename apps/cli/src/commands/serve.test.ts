import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { decodeAvroFile } from '@antares/pipeline';
import { simulateSurvey } from '@antares/pipeline/simulate';
import { afterAll, describe, expect, it } from 'vitest';

// The running server as operators run it (`antares serve` in its own process): alert files dropped
// into its inbox match a watch list, and the chat notifications survive a kill -9 while they are
// pending: after the restart each arrives exactly once.
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'antares-serve-test-'));
const survey = mkdtempSync(path.join(os.tmpdir(), 'antares-serve-survey-'));
afterAll(() => {
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(survey, { recursive: true, force: true });
});

function cli(args: string[], env: NodeJS.ProcessEnv): void {
  const result = spawnSync('npx', ['tsx', 'apps/cli/src/main.ts', ...args], { cwd: ROOT, env, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`antares ${args.join(' ')}: ${result.stdout}${result.stderr}`);
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

function startServe(env: NodeJS.ProcessEnv, port: number): ChildProcess {
  return spawn('npx', ['tsx', 'apps/cli/src/main.ts', 'serve', '--port', String(port)], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'ignore', 'ignore'],
    detached: true,
  });
}

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 90_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

describe('antares serve', () => {
  it('notifies watch-list matches from its inbox exactly once across a kill -9', async () => {
    // A Slack-like receiver that refuses everything until told otherwise.
    let accept = false;
    const received: string[] = [];
    const slack: Server = createServer((request, response) => {
      let raw = '';
      request.on('data', (c) => {
        raw += c;
      });
      request.on('end', () => {
        response.setHeader('content-type', 'application/json');
        if (!accept) {
          response.statusCode = 503;
          response.end('{}');
          return;
        }
        received.push(JSON.parse(raw).text);
        response.end(JSON.stringify({ ok: true }));
      });
    });
    await new Promise<void>((resolve) => slack.listen(0, '127.0.0.1', resolve));
    const slackUrl = `http://127.0.0.1:${(slack.address() as AddressInfo).port}/api`;
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      DATABASE_URL: '',
      ANTARES_DATA_DIR: dataDir,
      ANTARES_HOST: '127.0.0.1',
      ANTARES_WEB_DIST: '/nonexistent',
      ANTARES_SLACK_TOKEN: 'xoxb-test',
      ANTARES_SLACK_API_URL: slackUrl,
      ANTARES_CHAT_RETRY_SECONDS: '0.2',
      ANTARES_INBOX_POLL_SECONDS: '0.2',
    };
    cli(['migrate'], env);
    cli(['user', 'create', '--username', 'watcher', '--email', 'watcher@example.org', '--password', 'Watcher2026', '--name', 'W'], env);

    await simulateSurvey({ objects: 12, nights: 2, seed: 4242, outDir: survey, processes: 1 });
    const files = readdirSync(survey)
      .filter((f) => f.startsWith('ztf_') && f.endsWith('.avro'))
      .sort();
    const positions: Array<{ ra: number; dec: number }> = [];
    for await (const record of decodeAvroFile(path.join(survey, files[0]))) {
      if ('packet' in record && record.packet.survey === 'ztf')
        positions.push({ ra: record.packet.candidate.ra as number, dec: record.packet.candidate.dec as number });
    }

    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    let serve = startServe(env, port);
    const stop = (child: ChildProcess, signal: NodeJS.Signals) =>
      new Promise((resolve) => {
        child.once('exit', resolve);
        process.kill(-child.pid!, signal);
      });
    try {
      const token = await until('the server', async () => {
        const response = await fetch(`${url}/v1/auth/login?type=token`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ username: 'watcher', password: 'Watcher2026' }),
        });
        return response.ok ? ((await response.json()) as { access_token: string }).access_token : undefined;
      });
      const me = (await (await fetch(`${url}/v1/auth/check`, { headers: { authorization: `Bearer ${token}` } })).json()) as {
        identity: string;
      };
      const userId = me.identity;
      const created = await fetch(`${url}/v1/users/${userId}/watch_lists`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({
          data: {
            type: 'watch_list',
            attributes: {
              name: 'Night one',
              description: 'All of it',
              slack_channel: '#night',
              objects: positions.map((p) => ({ right_ascension: p.ra, declination: p.dec, radius: 0.001 })),
            },
          },
        }),
      });
      expect(created.status).toBe(201);

      renameSync(path.join(survey, files[0]), path.join(dataDir, 'inbox', `${files[0]}`));
      // Matched and queued; every delivery refused so far.
      const listId = ((await created.json()) as { data: { id: string } }).data.id;
      const query = encodeURIComponent(JSON.stringify({ query: { bool: { filter: { term: { watch_list_ids: listId } } } } }));
      const matched = await until('matches', async () => {
        const body = (await (await fetch(`${url}/v1/loci?elasticsearch_query%5Blocus_listing%5D=${query}`)).json()) as {
          meta: { count: number };
        };
        return body.meta.count > 0 ? body.meta.count : undefined;
      });
      expect(matched).toBeGreaterThan(0);
      await new Promise((resolve) => setTimeout(resolve, 1000));
      expect(received).toEqual([]);
      await stop(serve, 'SIGKILL');

      accept = true;
      serve = startServe(env, port);
      await until('every notification', async () => (received.length >= positions.length ? true : undefined));
      // A few more delivery rounds: nothing comes twice.
      await new Promise((resolve) => setTimeout(resolve, 2000));
      expect(received).toHaveLength(new Set(received).size);
      expect(received.length).toBeGreaterThanOrEqual(matched);
      for (const text of received) expect(text).toMatch(/^Watch list \*Night one\*: object \(RA/);
    } finally {
      if (serve.exitCode === null) await stop(serve, 'SIGTERM');
      slack.close();
    }
  }, 240_000);
});
