import { htmId } from '@antares/astro';
import { migrate, openDatabase, Repositories, withDatabase } from '@antares/db';
import { buildServer, loadConfig } from '@antares/server';
import pg from 'pg';

import { describeLatencies } from './stats.ts';

const TAGS = ['high_snr', 'extragalactic', 'nuclear_transient', 'in_m31', 'young_extragalactic_candidate', 'lc_feature_extractor'];

/**
 * `npm run bench -- api [--loci N] [--database NAME]`: p50/p95 latency over HTTP of cone searches (1" and
 * 60") and of the default listing with a tag filter plus a range, on a PostgreSQL server holding N
 * synthetic loci (default 1,000,000; created once in the database `antares_bench` and reused by later
 * runs). `--database` measures an existing database as it is instead, for example the archive of
 * `bench ingest --prefill 10000000` (`antares_prefill_10000000`: loci with their alert rows).
 */
export async function benchApi(args: string[]): Promise<void> {
  const lociWanted = Number(argValue(args, '--loci') ?? 1_000_000);
  const existing = argValue(args, '--database');
  if (existing !== undefined && !/^[a-z_][a-z0-9_]*$/.test(existing)) throw new Error('--database must be a database name');
  const serverUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const benchUrl = await ensureDatabase(serverUrl, existing ?? 'antares_bench');
  const opened = await openDatabase({ databaseUrl: benchUrl, poolSize: 8 });
  await migrate(opened.db);
  const repos = new Repositories(opened.db, opened.kind);
  if (existing === undefined) await ensureLoci(repos, lociWanted);

  const app = await buildServer({ config: loadConfig({}, { webDist: '/nonexistent' }), repos });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  const loci = await repos.loci.count();
  // The planner's row estimates (every partition's, after ANALYZE): counting 10 M rows would take seconds.
  const alerts = (await repos.alertPartitions.listAttached()).reduce((sum, p) => sum + Math.max(0, p.estimatedRows), 0);
  console.log(
    `API latency over HTTP, PostgreSQL${existing ? ` database ${existing}` : ''}, ${loci.toLocaleString('en')} loci, ` +
      `~${alerts.toLocaleString('en')} alert rows (sequential requests after a warm-up)`,
  );

  let seed = 7;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const cone = (arcsec: number) => () => {
    const ra = random() * 360;
    const dec = Math.asin(2 * random() - 1) * (180 / Math.PI);
    const query = {
      query: { bool: { filter: { sky_distance: { distance: `${arcsec / 3600} degree`, htm16: { center: `${ra} ${dec}` } } } } },
    };
    return `/v1/loci?elasticsearch_query%5Blocus_listing%5D=${encodeURIComponent(JSON.stringify(query))}`;
  };
  const listing = () => {
    const lo = 2 + Math.floor(random() * 20);
    const query = {
      query: {
        bool: {
          filter: [
            { range: { 'properties.num_mag_values': { gte: lo, lte: lo + 30 } } },
            { term: { tags: TAGS[Math.floor(random() * TAGS.length)] } },
          ],
        },
      },
    };
    return `/v1/loci?sort=-properties.newest_alert_observation_time&page%5Blimit%5D=25&elasticsearch_query%5Blocus_listing%5D=${encodeURIComponent(JSON.stringify(query))}`;
  };
  const cases: Array<[string, () => string, string]> = [
    ['cone search, radius 1 arcsec', cone(1), 'target p95 < 20 ms'],
    ['cone search, radius 60 arcsec', cone(60), 'target p95 < 20 ms'],
    ['default listing page, tag filter + range', listing, 'target p95 < 100 ms'],
    ['default listing page, no filter', () => '/v1/loci?page%5Blimit%5D=25', ''],
  ];
  for (const [label, next, target] of cases) {
    for (let i = 0; i < 20; i++) await timed(base + next());
    const times: number[] = [];
    for (let i = 0; i < 200; i++) times.push(await timed(base + next()));
    console.log(`${describeLatencies(label, times)}  ${target}`);
  }
  await app.close();
  await opened.close();
}

async function timed(url: string): Promise<number> {
  const started = performance.now();
  const response = await fetch(url);
  await response.arrayBuffer();
  if (!response.ok) throw new Error(`${url} answered ${response.status}`);
  return performance.now() - started;
}

async function ensureDatabase(serverUrl: string, name: string): Promise<string> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  const exists = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
  if (exists.rowCount === 0) await client.query(`CREATE DATABASE ${name}`);
  await client.end();
  return withDatabase(serverUrl, name);
}

/** Synthetic loci with realistic property shapes, uniformly over the sky. */
async function ensureLoci(repos: Repositories, wanted: number): Promise<void> {
  let have = await repos.loci.count();
  if (have >= wanted) return;
  console.log(`Loading ${(wanted - have).toLocaleString('en')} synthetic loci (once; later runs reuse them)...`);
  let seed = have + 1;
  const random = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
  const started = Date.now();
  while (have < wanted) {
    const batch = [];
    for (let i = 0; i < Math.min(10_000, wanted - have); i++) {
      const ra = random() * 360;
      const dec = Math.asin(2 * random() - 1) * (180 / Math.PI);
      const n = 1 + Math.floor(-Math.log(1 - random()) * 12);
      const newest = 60000 + random() * 1500;
      batch.push({
        locus_id: `ANT2026bench${String(have + i).padStart(8, '0')}`,
        ra,
        dec,
        htm16: htmId(ra, dec),
        properties: {
          num_alerts: n + Math.floor(random() * 5),
          num_mag_values: n,
          newest_alert_observation_time: newest,
          oldest_alert_observation_time: newest - random() * 300,
          newest_alert_magnitude: 16 + random() * 5,
          brightest_alert_magnitude: 15 + random() * 5,
          ztf_object_id: `ZTF26b${(have + i).toString(36).padStart(6, 'a')}`,
        },
        tags: TAGS.filter(() => random() < 0.15),
      });
    }
    await repos.loci.bulkInsert(batch);
    have += batch.length;
    if (have % 100_000 === 0)
      process.stderr.write(`  ${have.toLocaleString('en')} loci (${((Date.now() - started) / 1000).toFixed(0)} s)\n`);
  }
  await repos.loci.analyze();
}

function argValue(args: string[], name: string): string | undefined {
  const index = args.indexOf(name);
  return index >= 0 ? args[index + 1] : undefined;
}
