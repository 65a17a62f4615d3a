import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { WEB_ROOT } from './server';

const REPO_ROOT = path.resolve(WEB_ROOT, '../..');

/**
 * Simulates fresh alerts (`antares simulate`) and drops them into the running server's inbox: written
 * as `.avro.part` in the inbox itself, then renamed, so the server never reads a half-written file.
 * Returns the names the files got there (`{prefix}-{name}`).
 */
export function dropSimulatedAlerts(
  dataDir: string,
  options: { seed: number; prefix: string; objects?: number; nights?: number },
): string[] {
  const out = mkdtempSync(path.join(tmpdir(), 'antares-e2e-alerts-'));
  try {
    const args = [
      'tsx',
      'apps/cli/src/main.ts',
      'simulate',
      '--out',
      out,
      '--objects',
      String(options.objects ?? 20),
      '--nights',
      String(options.nights ?? 4),
      '--seed',
      String(options.seed),
    ];
    const result = spawnSync('npx', args, { cwd: REPO_ROOT, encoding: 'utf8' });
    if (result.status !== 0) throw new Error(`antares simulate failed: ${result.stdout}${result.stderr}`);
    const inbox = path.join(dataDir, 'inbox');
    mkdirSync(inbox, { recursive: true });
    const names = readdirSync(out)
      .filter((name) => name.endsWith('.avro'))
      .map((name) => ({ from: name, to: `${options.prefix}-${name}` }));
    for (const { from, to } of names) {
      const target = path.join(inbox, to);
      copyFileSync(path.join(out, from), `${target}.part`);
      renameSync(`${target}.part`, target);
    }
    return names.map(({ to }) => to);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

/**
 * Drops existing alert files (real survey data from ../shared, read in place) into the running
 * server's inbox the same way: copied as `.part`, then renamed. Returns the names they got there
 * (`{prefix}-{basename}`).
 */
export function dropAlertFiles(dataDir: string, files: string[], prefix: string): string[] {
  const inbox = path.join(dataDir, 'inbox');
  mkdirSync(inbox, { recursive: true });
  return files.map((file) => {
    const name = `${prefix}-${path.basename(file)}`;
    const target = path.join(inbox, name);
    copyFileSync(file, `${target}.part`);
    renameSync(`${target}.part`, target);
    return name;
  });
}

/** Where each dropped file is: 'done' or 'failed' once the server took it, else 'waiting'. */
export function inboxStates(dataDir: string, files: string[]): ('done' | 'failed' | 'waiting')[] {
  const inbox = path.join(dataDir, 'inbox');
  return files.map((name) =>
    existsSync(path.join(inbox, 'done', name)) ? 'done' : existsSync(path.join(inbox, 'failed', name)) ? 'failed' : 'waiting',
  );
}

/** Polls until a condition holds (checking every second), failing with the last value after the timeout. */
export async function pollUntil<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs: number, what: string): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let value = await read();
  while (!done(value)) {
    if (Date.now() > deadline) throw new Error(`${what}: still ${JSON.stringify(value)} after ${timeoutMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    value = await read();
  }
  return value;
}
