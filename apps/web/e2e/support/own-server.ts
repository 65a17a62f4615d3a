import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { startMailCatcher } from '../../../server/src/testing/mail-catcher';
import { E2E_LIMITS, WEB_ROOT } from './server';

/**
 * A server of its own for the flows that need other settings than the shared one: password reset mail
 * over a real SMTP server on loopback (smtp-server), and access tokens that expire after ten seconds so
 * that the app's refresh-once-then-retry runs in the browser. `antares serve` over a fresh database
 * with the shared sample alerts ingested.
 */
export const ACCESS_TOKEN_SECONDS = 10;
const REPO_ROOT = path.resolve(WEB_ROOT, '../..');

export interface OwnServer {
  url: string;
  mails: string[];
  stop(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

export async function startOwnServer(): Promise<OwnServer> {
  const smtp = await startMailCatcher();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'antares-e2e-smtp-'));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ANTARES_DATA_DIR: dataDir,
    ANTARES_WEB_DIST: path.join(WEB_ROOT, 'dist'),
    ...E2E_LIMITS,
    ANTARES_INBOX_DIR: 'off',
    ANTARES_HOST: '127.0.0.1',
    ANTARES_SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
    // The mails these tests count are the reset ones: no verification mail at registration (its own test is
    // apps/server/src/routes/auth/accounts-hardening.test.ts).
    ANTARES_REQUIRE_EMAIL_VERIFICATION: 'false',
    // Mail goes out over SMTP: reset links are built from the configured address only.
    ANTARES_PUBLIC_URL: url,
    ANTARES_MAIL_FROM: 'ANTARES <no-reply@antares.test>',
    ANTARES_ACCESS_TOKEN_MINUTES: String(ACCESS_TOKEN_SECONDS / 60),
    DATABASE_URL: '',
  };
  const ingest = spawnSync(
    'npx',
    ['tsx', 'apps/cli/src/main.ts', 'ingest', path.resolve(REPO_ROOT, '../shared/data/ztf-avro-alert/samples')],
    { cwd: REPO_ROOT, env, encoding: 'utf8' },
  );
  if (ingest.status !== 0) throw new Error(`antares ingest failed: ${ingest.stdout}${ingest.stderr}`);
  const child: ChildProcess = spawn('npx', ['tsx', 'apps/cli/src/main.ts', 'serve', '--port', String(port)], {
    cwd: REPO_ROOT,
    env,
    stdio: ['ignore', 'ignore', 'inherit'],
    detached: true,
  });
  const stop = async () => {
    if (child.pid && child.exitCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      process.kill(-child.pid, 'SIGTERM');
      await exited;
    }
    await smtp.close();
    rmSync(dataDir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`antares serve exited with status ${child.exitCode}`);
    if (
      await fetch(`${url}/v1/loci?page%5Blimit%5D=1`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`antares serve did not answer at ${url}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
  return { url, mails: smtp.mails, stop };
}

/** The text of a mail as received, quoted-printable undone (nodemailer folds long lines). */
export function decodeMail(raw: string): string {
  return raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}
