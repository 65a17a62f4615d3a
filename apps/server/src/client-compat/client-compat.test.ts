import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { SHARED_DATA } from '../testing/test-server.ts';
import { type CompatServer, startCompatServer } from './compat-server.ts';

// The published antares-client 1.13.0 (../shared/clients, unmodified) against a real server: the pytest
// suite in python/ calls every client function that talks HTTP. Each pytest test is one test here, so
// `npm test` counts them. Missing prerequisites skip the suite naming them and the install command;
// under CI=true they fail it.
const HERE = path.dirname(fileURLToPath(import.meta.url));
const SUITE = path.join(HERE, 'python');
const CLIENTS = path.resolve(SHARED_DATA, '../clients');
export const CLIENT_PYTHONPATH = [path.join(CLIENTS, 'antares-client-1.13.0'), path.join(CLIENTS, 'marshmallow-jsonapi-0.24.0')];
const APT =
  'apt-get install -y python3-requests python3-marshmallow python3-astropy python3-pandas python3-astropy-healpix python3-pytest python3-avro';

function missingPrerequisites(): string[] {
  const missing: string[] = [];
  if (!existsSync(SHARED_DATA)) missing.push(`the shared data (${SHARED_DATA})`);
  if (!CLIENT_PYTHONPATH.every((dir) => existsSync(dir))) missing.push(`the published client (${CLIENTS})`);
  const probe = spawnSync(
    '/usr/bin/python3',
    ['-c', 'import requests, marshmallow, astropy, pandas, astropy_healpix, typing_extensions, pytest, avro'],
    {
      encoding: 'utf8',
      timeout: 60_000,
    },
  );
  if (probe.status !== 0)
    missing.push(`Debian's Python packages (${(probe.stderr || probe.error?.message || '').trim().split('\n').pop()}): ${APT}`);
  return missing;
}

const missing = missingPrerequisites();
if (missing.length > 0) {
  const message = `the antares-client compatibility suite needs ${missing.join(' and ')}`;
  if (process.env.CI === 'true') throw new Error(message);
  console.warn(`SKIPPED: ${message}`);
}

const pythonEnv = (extra: Record<string, string> = {}) => ({
  ...process.env,
  PYTHONDONTWRITEBYTECODE: '1',
  PYTHONPATH: CLIENT_PYTHONPATH.join(path.delimiter),
  ...extra,
});

/** The pytest node ids, collected without a server (pytest imports the test files only). */
function collect(): string[] {
  const run = spawnSync('/usr/bin/python3', ['-m', 'pytest', SUITE, '--collect-only', '-q', '-p', 'no:cacheprovider'], {
    cwd: SUITE,
    encoding: 'utf8',
    timeout: 120_000,
    env: pythonEnv(),
  });
  const ids = run.stdout.split('\n').filter((line) => line.includes('::'));
  if (ids.length === 0) throw new Error(`pytest collected nothing:\n${run.stdout}\n${run.stderr}`);
  return ids;
}

interface Outcome {
  status: 'passed' | 'failed' | 'skipped';
  message: string;
}

/** Outcomes by node id (file::name, as --collect-only prints them) from pytest's JUnit XML. */
function outcomes(xml: string): Map<string, Outcome> {
  const result = new Map<string, Outcome>();
  const unescape = (s: string) =>
    s
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&quot;/g, '"')
      .replace(/&apos;/g, "'")
      .replace(/&#10;/g, '\n')
      .replace(/&amp;/g, '&');
  for (const match of xml.matchAll(/<testcase ([^>]*?)(\/>|>([\s\S]*?)<\/testcase>)/g)) {
    const attrs = Object.fromEntries([...match[1].matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], unescape(m[2])]));
    const body = match[3] ?? '';
    // xunit1 reports carry the file (relative to python/, pytest.ini's folder); tests are module functions.
    const id = `${attrs.file}::${attrs.name}`;
    const failure = /<(failure|error)[^>]*?(?:message="([^"]*)")?[^>]*>([\s\S]*?)<\/\1>/.exec(body);
    const skipped = /<skipped[^>]*?message="([^"]*)"/.exec(body);
    if (failure) result.set(id, { status: 'failed', message: unescape(`${failure[2] ?? ''}\n${failure[3]}`) });
    else if (skipped) result.set(id, { status: 'skipped', message: unescape(skipped[1]) });
    else result.set(id, { status: 'passed', message: '' });
  }
  return result;
}

describe.skipIf(missing.length > 0)('the published antares-client against a real server', () => {
  const ids = missing.length > 0 ? [] : collect();
  let compat: CompatServer | undefined;
  let results = new Map<string, Outcome>();
  let log = '';

  beforeAll(async () => {
    compat = await startCompatServer();
    const reports = mkdtempSync(path.join(os.tmpdir(), 'antares-client-pytest-'));
    const junit = path.join(reports, 'junit.xml');
    // Asynchronously: the server answers from this same process while pytest runs.
    const code = await new Promise<number | null>((resolve) => {
      const child = spawn(
        '/usr/bin/python3',
        ['-m', 'pytest', SUITE, '-q', '-p', 'no:cacheprovider', '-o', 'junit_family=xunit1', `--junitxml=${junit}`],
        {
          cwd: SUITE,
          env: pythonEnv({ ANTARES_API_BASE_URL: `${compat!.server.url}/v1/`, ANTARES_COMPAT_FACTS: compat!.factsFile }),
        },
      );
      child.stdout.on('data', (chunk) => {
        log += chunk;
      });
      child.stderr.on('data', (chunk) => {
        log += chunk;
      });
      child.on('close', resolve);
    });
    console.log(log.trim().split('\n').slice(-3).join('\n'));
    if (existsSync(junit)) results = outcomes(readFileSync(junit, 'utf8'));
    rmSync(reports, { recursive: true, force: true });
    if (results.size === 0) throw new Error(`pytest reported nothing (exit ${code}):\n${log.split('\n').slice(-60).join('\n')}`);
  }, 600_000);
  afterAll(async () => compat?.close());

  for (const id of ids) {
    it(id, (context) => {
      const outcome = results.get(id);
      expect(outcome, `pytest did not report ${id}; its output ends:\n${log.split('\n').slice(-40).join('\n')}`).toBeDefined();
      if (outcome!.status === 'skipped') {
        if (process.env.CI === 'true') throw new Error(`skipped under CI: ${outcome!.message}`);
        console.warn(`SKIPPED ${id}: ${outcome!.message}`);
        context.skip();
      }
      expect(outcome!.status, outcome!.message).toBe('passed');
    });
  }
});
