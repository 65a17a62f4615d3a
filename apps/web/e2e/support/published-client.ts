import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';

import { WEB_ROOT } from './server';

/**
 * The published antares-client 1.13.0 and the marshmallow-jsonapi it needs, read in place from ../shared/clients
 * (never copied, never patched), run by Debian's Python with Debian's packages for the rest of its dependencies.
 */
export const PYTHON = '/usr/bin/python3';
const CLIENTS = path.resolve(WEB_ROOT, '../../../shared/clients');
export const CLIENT_PYTHONPATH = [path.join(CLIENTS, 'antares-client-1.13.0'), path.join(CLIENTS, 'marshmallow-jsonapi-0.24.0')];
export const CLIENT_APT =
  'apt-get install -y python3-requests python3-marshmallow python3-astropy python3-pandas python3-typing-extensions';

/** What is missing to run the published client here (empty when nothing is). */
export function missingClientPrerequisites(): string[] {
  const missing: string[] = [];
  if (!existsSync(PYTHON)) return [`Debian's Python (${PYTHON}): apt-get install -y python3 and ${CLIENT_APT}`];
  const absent = CLIENT_PYTHONPATH.filter((dir) => !existsSync(dir));
  if (absent.length > 0) return [`the published client (${absent.join(', ')})`];
  const probe = spawnSync(PYTHON, ['-c', 'import antares_client.search'], { env: clientEnv(), encoding: 'utf8', timeout: 60_000 });
  if (probe.status !== 0) {
    const reason = (probe.stderr || probe.error?.message || '').trim().split('\n').pop();
    missing.push(`the published client's Python dependencies (${reason}): ${CLIENT_APT}`);
  }
  return missing;
}

/**
 * Whether the published client can run: a message naming what is missing and how to install it skips the
 * test locally and fails it under CI=true, as requireChromium does.
 */
export function requirePublishedClient(): boolean {
  const missing = missingClientPrerequisites();
  if (missing.length === 0) return true;
  const message = `the API Access script test runs the published antares-client and needs ${missing.join(' and ')}`;
  if (process.env.CI === 'true') throw new Error(message);
  console.warn(`SKIPPED: ${message}`);
  return false;
}

function clientEnv(): NodeJS.ProcessEnv {
  // The script sets ANTARES_API_BASE_URL itself (setdefault): none may leak in from the test's environment.
  const env: NodeJS.ProcessEnv = { ...process.env, PYTHONDONTWRITEBYTECODE: '1', PYTHONPATH: CLIENT_PYTHONPATH.join(path.delimiter) };
  delete env.ANTARES_API_BASE_URL;
  return env;
}

/** Runs a downloaded script with the published client importable, and returns what it printed. */
export function runWithPublishedClient(scriptPath: string): string {
  return execFileSync(PYTHON, [scriptPath], { env: clientEnv(), encoding: 'utf8', timeout: 120_000 });
}
