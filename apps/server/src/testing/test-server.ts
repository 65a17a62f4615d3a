import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { createTestDatabase, CutoutPacks, FilterFileStore, openRequestRepositories, Repositories } from '@antares/db';
import { expandInputs, ingestFiles } from '@antares/pipeline';
import type { FastifyInstance } from 'fastify';

import { buildServer } from '../app.ts';
import { type Config, loadConfig } from '../config.ts';
import type { FilterSandbox } from '../services/filter-service.ts';

/** The shared real data beside the repository (never copied into it). */
export const SHARED_DATA = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../../shared/data');

export interface TestServer {
  url: string;
  config: Config;
  repos: Repositories;
  /** The test database's own URL on a PostgreSQL server (undefined on PGlite). */
  databaseUrl?: string;
  /** Every route the server registered, as "METHOD /url" (HEAD twins of GET routes left out). */
  routes: string[];
  app: FastifyInstance;
  getJson(pathAndQuery: string): Promise<{ status: number; body: any; headers: Headers }>;
  close(): Promise<void>;
}

/** A real server on a free loopback port over a fresh database, optionally with real alerts ingested. */
export async function startTestServer(
  options: {
    ingest?: string[];
    config?: Partial<Config>;
    filterSandbox?: FilterSandbox | ((repos: Repositories, config: Config) => FilterSandbox | undefined);
    /** A PostgreSQL server to make the database on whatever the pass (default: DATABASE_URL, else PGlite). */
    serverUrl?: string;
  } = {},
): Promise<TestServer> {
  const database = await createTestDatabase(options.serverUrl ?? process.env.DATABASE_URL);
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'antares-test-'));
  // As openConfiguredDatabase does: a configured cutout folder takes the new cutouts (ADR 0051), and
  // filter data files go to their folder (ADR 0053).
  const cutoutDir = options.config?.cutoutDir;
  const filterFilesDir = options.config?.filterFilesDir ?? path.join(dataDir, 'filter-files');
  const repos = new Repositories(
    database.db,
    database.kind,
    cutoutDir ? new CutoutPacks(cutoutDir) : undefined,
    new FilterFileStore(filterFilesDir),
  );
  if (options.ingest) {
    await ingestFiles(repos, expandInputs(options.ingest.map((p) => path.join(SHARED_DATA, p))));
  }
  const config = loadConfig(
    {},
    {
      webDist: '/nonexistent',
      dataDir,
      inboxDir: path.join(dataDir, 'inbox'),
      filterFilesDir,
      jwtSecret: 'a-test-secret-of-at-least-thirty-two-characters',
      // Test files send many searches from one address: the expensive-read bucket stays out of their way
      // unless a test sets its own limits (edge-limits.test.ts).
      edgeLimits: { ...loadConfig({}).edgeLimits, expensiveReadsPerMinute: 1_000_000, expensiveReadBurst: 1_000_000 },
      // Test files register many accounts from 127.0.0.1; the throttle's own test sets its limits.
      registrationsPerAddressPerHour: 10_000,
      registrationsPerHour: 10_000,
      ...options.config,
    },
  );
  const routes = new Set<string>();
  const onRoute = (route: { method: string | string[]; url: string }) => {
    for (const method of [route.method].flat()) if (method !== 'HEAD') routes.add(`${method} ${route.url}`);
  };
  // As `antares serve` does: requests run on a pool of their own when a statement timeout is configured.
  const requests = await openRequestRepositories(repos, database.url, options.config?.statementTimeoutMs ?? 0);
  const app = await buildServer({
    config,
    repos: requests.repos,
    jobRepos: repos,
    onRoute,
    filterSandbox: typeof options.filterSandbox === 'function' ? options.filterSandbox(repos, config) : options.filterSandbox,
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    config,
    repos,
    databaseUrl: database.url,
    routes: [...routes].sort(),
    app,
    async getJson(pathAndQuery: string) {
      const response = await fetch(`${url}${pathAndQuery}`);
      const text = await response.text();
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        body = text;
      }
      return { status: response.status, body, headers: response.headers };
    },
    async close() {
      await app.close();
      await requests.close();
      await database.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
