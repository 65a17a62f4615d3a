import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { loadConfig } from '@antares/server';
import { afterAll, describe, expect, it } from 'vitest';

// A fresh install is reachable only from its own machine (issue 16): `antares serve` listens on
// 127.0.0.1 unless ANTARES_HOST says otherwise, and ANTARES_HOST=0.0.0.0 serves every interface.
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'antares-serve-host-'));
const running = new Set<ChildProcess>();
afterAll(() => {
  for (const child of running) stop(child);
  rmSync(dataDir, { recursive: true, force: true });
});

/** Ends `antares serve` and what it started (npx, tsx, node: one process group). */
function stop(child: ChildProcess): void {
  if (!running.delete(child)) return;
  try {
    process.kill(-child.pid!, 'SIGKILL');
  } catch {
    // already gone
  }
}

/** This machine's first non-loopback IPv4 address: where other machines would reach the server. */
const externalAddress = Object.values(os.networkInterfaces())
  .flat()
  .find((a) => a && a.family === 'IPv4' && !a.internal)?.address;

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '0.0.0.0', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** `antares serve` in its own process; resolves once it answers on 127.0.0.1. */
async function serve(env: NodeJS.ProcessEnv): Promise<{ port: number; stop: () => void }> {
  const port = await freePort();
  const child = spawn('npx', ['tsx', 'apps/cli/src/main.ts', 'serve', '--port', String(port)], {
    cwd: ROOT,
    detached: true,
    stdio: 'ignore',
    env: {
      ...process.env,
      DATABASE_URL: '',
      ANTARES_HOST: '',
      ANTARES_DATA_DIR: dataDir,
      ANTARES_WEB_DIST: '/nonexistent',
      ANTARES_INBOX_DIR: 'off',
      ...env,
    },
  });
  running.add(child);
  const deadline = Date.now() + 90_000;
  while ((await status(`http://127.0.0.1:${port}/v1/streams`)) !== 200) {
    if (child.exitCode !== null) throw new Error(`antares serve exited with ${child.exitCode}`);
    if (Date.now() > deadline) throw new Error('antares serve did not answer within 90 s');
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
  return { port, stop: () => stop(child) };
}

/** The HTTP status at `url`, or the connection error's code (ECONNREFUSED). */
async function status(url: string): Promise<number | string> {
  try {
    return (await fetch(url, { signal: AbortSignal.timeout(5000) })).status;
  } catch (error) {
    return (error as { cause?: { code?: string } }).cause?.code ?? String(error);
  }
}

describe('the address the server listens on', () => {
  it('is 127.0.0.1 by default; ANTARES_HOST takes an IP address or host name and refuses anything else', () => {
    expect(loadConfig({}).host).toBe('127.0.0.1');
    expect(loadConfig({ ANTARES_HOST: '0.0.0.0' }).host).toBe('0.0.0.0');
    expect(loadConfig({ ANTARES_HOST: '::' }).host).toBe('::');
    expect(loadConfig({ ANTARES_HOST: 'antares.internal' }).host).toBe('antares.internal');
    expect(() => loadConfig({ ANTARES_HOST: 'http://0.0.0.0' })).toThrow(/ANTARES_HOST: must be an IP address or a host name/);
    expect(() => loadConfig({ ANTARES_HOST: '0.0.0.0 8080' })).toThrow(/ANTARES_HOST/);
  });

  it.skipIf(!externalAddress)(
    'is reachable from other machines only with ANTARES_HOST=0.0.0.0',
    async () => {
      const local = await serve({});
      expect(await status(`http://${externalAddress}:${local.port}/v1/streams`)).toBe('ECONNREFUSED');
      local.stop();

      const exposed = await serve({ ANTARES_HOST: '0.0.0.0' });
      expect(await status(`http://${externalAddress}:${exposed.port}/v1/streams`)).toBe(200);
      exposed.stop();
    },
    240_000,
  );
});
