import { randomGenerator } from '@antares/astro/test-random';
import { migrate, openDatabase, Repositories } from '@antares/db';
import { ingestFiles, WatchMatcher } from '@antares/pipeline';

import { argValue, benchSurvey, freshDatabase } from './ingest.ts';

/**
 * `npm run bench -- watchlists [--objects N --nights K --watch M]`: ingestion throughput on the
 * PostgreSQL server without watch lists and with M (100,000) watch objects (target: < 10% slower).
 * Fifty watch objects sit on sources of the first night, so matches and notifications happen too (as
 * they would for a real list, where few of the objects flare in any given night); the rest are spread
 * over the sky.
 */
export async function benchWatchlists(args: string[]): Promise<void> {
  const files = await benchSurvey(args);
  const watchCount = Number(argValue(args, '--watch') ?? 100_000);
  const serverUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const results: number[] = [];
  for (const watched of [0, watchCount]) {
    const database = await openDatabase({ databaseUrl: await freshDatabase(serverUrl, 'antares_bench_watch') });
    try {
      await migrate(database.db);
      const repos = new Repositories(database.db, 'postgres');
      if (watched > 0) await seedWatchList(repos, watched, files);
      const watch = new WatchMatcher();
      const started = performance.now();
      const stats = await ingestFiles(repos, files, { watch });
      const seconds = (performance.now() - started) / 1000;
      const rate = stats.packetsRead / seconds;
      results.push(rate);
      console.log(
        `${String(watched).padStart(7)} watch objects: ${stats.packetsRead} packets in ${seconds.toFixed(1)} s: ${rate.toFixed(0)} alerts/s; ` +
          `${await repos.chatOutbox.pendingCount()} notifications queued`,
      );
    } finally {
      await database.close();
    }
  }
  console.log(`slowdown with ${watchCount} watch objects: ${((1 - results[1] / results[0]) * 100).toFixed(1)}% (target < 10%)`);
}

async function seedWatchList(repos: Repositories, count: number, files: string[]): Promise<void> {
  const user = (await repos.users.create({ username: 'bench-watcher', email: 'bench@example.org', name: 'Bench', password_hash: 'x' }))!;
  const { decodeAvroFile } = await import('@antares/pipeline');
  const sources: Array<{ ra: number; dec: number }> = [];
  for await (const record of decodeAvroFile(files[0]))
    if ('packet' in record && record.packet.survey === 'ztf')
      sources.push({ ra: record.packet.candidate.ra as number, dec: record.packet.candidate.dec as number });
  const random = randomGenerator(11);
  const objects = Array.from({ length: count }, (_, i) => {
    if (i < Math.min(50, sources.length)) {
      const s = sources[i];
      return { ra: s.ra, dec: s.dec, radius: 0.001, comment: `source ${i}` };
    }
    return { ra: 360 * random(), dec: (Math.asin(2 * random() - 1) * 180) / Math.PI, radius: 0.0005 + 0.0095 * random(), comment: null };
  });
  await repos.watchLists.create({ user_id: user.user_id, name: 'Bench', description: 'bench', slack_channel: '#bench' }, objects);
}
