import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { E2E_ACCOUNTS } from './accounts';
import { SEED_RECIPE, seedDatabase, SURVEY } from './seed';
import { E2E_TEAM } from './team';

export const WEB_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const REPO_ROOT = path.resolve(WEB_ROOT, '../..');

/**
 * The accounts the tests sign in with, made by the operators' command (`antares user create`). The
 * database is kept between runs, so an account that already exists is fine.
 */
function createAccounts(env: NodeJS.ProcessEnv): void {
  for (const account of Object.values(E2E_ACCOUNTS)) {
    const args = [
      'user',
      'create',
      '--username',
      account.username,
      '--email',
      account.email,
      '--password',
      account.password,
      '--name',
      account.name,
    ];
    if (account.admin) args.push('--admin');
    const result = spawnSync('npx', ['tsx', 'apps/cli/src/main.ts', ...args], { cwd: REPO_ROOT, env, encoding: 'utf8' });
    const output = `${result.stdout}${result.stderr}`;
    if (result.status !== 0 && !output.includes('already in use')) {
      throw new Error(`antares user create ${account.username} failed with status ${result.status}:\n${output}`);
    }
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

async function waitForServer(url: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`antares serve exited early with status ${child.exitCode}`);
    try {
      const response = await fetch(`${url}/v1/loci?page%5Blimit%5D=1`);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`antares serve did not answer at ${url} within ${timeoutMs} ms`);
}

/**
 * A fingerprint of the database migrations and of the seed recipe (seed.ts, catalog-seed.ts):
 * a cached e2e database made with other migrations or another recipe is not reused (a schema that
 * changed under it would make the server fail; an older recipe lacks data the tests expect).
 */
function seedFingerprint(): string {
  const dir = path.join(REPO_ROOT, 'packages/db/src/migrations');
  const hash = createHash('sha1');
  if (existsSync(dir)) {
    for (const name of readdirSync(dir)
      .filter((n) => /\.(sql|ts)$/.test(n))
      .sort()) {
      hash.update(name);
      hash.update(readFileSync(path.join(dir, name)));
    }
  }
  for (const recipe of SEED_RECIPE) hash.update(readFileSync(recipe));
  return hash.digest('hex').slice(0, 10);
}

export interface RunningServer {
  url: string;
  /** The server's data folder (its mail outbox holds the password reset links). */
  dataDir: string;
  stop(): void;
}

/** Builds the app if needed, seeds a small simulated survey once, and starts `antares serve` on a free port. */
/**
 * One browser and the tests' own API calls, all from 127.0.0.1, share the server: the per-address
 * registration throttle (ADR 0061) and expensive-read bucket (ADR 0060) are lifted, as the server-side
 * test server does; their own tests set them.
 */
export const E2E_LIMITS = {
  ANTARES_REGISTRATIONS_PER_IP_PER_HOUR: '100000',
  ANTARES_REGISTRATIONS_PER_HOUR: '1000000',
  ANTARES_EXPENSIVE_READS_PER_MINUTE: '1000000',
  ANTARES_EXPENSIVE_READ_BURST: '1000000',
};

export async function startAntares(): Promise<RunningServer> {
  // ANTARES_E2E_WEB_DIST: test a build made elsewhere (`vite build --outDir ...`) instead of dist/.
  const webDist = process.env.ANTARES_E2E_WEB_DIST ? path.resolve(process.env.ANTARES_E2E_WEB_DIST) : path.join(WEB_ROOT, 'dist');
  if (!existsSync(path.join(webDist, 'index.html'))) {
    const outDir = webDist === path.join(WEB_ROOT, 'dist') ? [] : ['--', '--outDir', webDist, '--emptyOutDir'];
    const build = spawnSync('npm', ['run', 'build', ...outDir], { cwd: WEB_ROOT, stdio: 'inherit' });
    if (build.status !== 0) throw new Error('the web app failed to build');
  }
  // The database is kept between runs (seeded once); ANTARES_E2E_DATA_DIR overrides its place.
  const fingerprint = seedFingerprint();
  const dataDir =
    process.env.ANTARES_E2E_DATA_DIR ??
    path.join(tmpdir(), `antares-web-e2e-${SURVEY.objects}-${SURVEY.nights}-${SURVEY.seed}-${fingerprint}`);
  const env: NodeJS.ProcessEnv = { ...process.env, ANTARES_DATA_DIR: dataDir, ANTARES_WEB_DIST: webDist, DATABASE_URL: '' };
  // The marker holds the fingerprint: a folder given by ANTARES_E2E_DATA_DIR that was seeded with an
  // older recipe is seeded again (every step is idempotent: re-ingesting changes nothing, an import
  // replaces its catalog).
  const seeded = path.join(dataDir, '.e2e-seeded');
  if (!existsSync(seeded) || readFileSync(seeded, 'utf8').split('\n')[0] !== fingerprint) {
    mkdirSync(dataDir, { recursive: true });
    seedDatabase(dataDir, env);
    writeFileSync(seeded, `${fingerprint}\n${new Date().toISOString()}\n`);
  }
  createAccounts(env);
  // The Team page's members come from the deployment's team file (see team.ts).
  const teamFile = path.join(dataDir, 'team.json');
  writeFileSync(teamFile, `${JSON.stringify(E2E_TEAM, null, 2)}\n`);
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn('npx', ['tsx', 'apps/cli/src/main.ts', 'serve', '--port', String(port)], {
    cwd: REPO_ROOT,
    env: { ...env, ...E2E_LIMITS, ANTARES_HOST: '127.0.0.1', ANTARES_TEAM_FILE: teamFile },
    stdio: ['ignore', 'ignore', 'inherit'],
    detached: true,
  });
  // The server runs in its own process group (npx -> tsx -> node): stopping ends exactly that group.
  const stop = () => {
    if (child.pid && child.exitCode === null) process.kill(-child.pid, 'SIGTERM');
  };
  try {
    await waitForServer(url, child, 120_000);
  } catch (error) {
    stop();
    throw error;
  }
  return { url, dataDir, stop };
}
