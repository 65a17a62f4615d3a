import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { migrate, openDatabase, Repositories } from '@antares/db';
import { GwMatcher, ingestNotice, parseIgwnNotice, readSkyMap } from '@antares/pipeline';

import { argValue, freshDatabase } from './ingest.ts';

const SHARED = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../../shared/data');

/**
 * `npm run bench -- gw [--alerts N]`: on the PostgreSQL server, the time to ingest a notice carrying the
 * 786,432-pixel BAYESTAR map of S190425z and associate it against N (1,000,000) recent alerts (target
 * < 10 s), and the matching cost per alert while 10 events are active.
 */
export async function benchGw(args: string[]): Promise<void> {
  const alerts = Number(argValue(args, '--alerts') ?? 1_000_000);
  const serverUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const database = await openDatabase({ databaseUrl: await freshDatabase(serverUrl, 'antares_bench_gw') });
  try {
    await migrate(database.db);
    const repos = new Repositories(database.db, 'postgres');
    const eventMjd = 58598.345891; // S190425z
    console.log(`Loading ${alerts} alerts over the 14 days after the event ...`);
    await repos.alerts.insertSynthetic(alerts, eventMjd, 14);
    const bytes = readFileSync(path.join(SHARED, 'skyportal/gw/S190425z_bayestar.fits.gz'));
    const started = performance.now();
    const notice = parseIgwnNotice({
      superevent_id: 'S190425z',
      alert_type: 'INITIAL',
      time_created: '2019-04-25T09:00:00Z',
      event: { time: '2019-04-25T08:18:05.017Z', skymap: bytes.toString('base64') },
    });
    const parsed = performance.now();
    const result = await ingestNotice(repos, notice);
    const seconds = (performance.now() - started) / 1000;
    console.log(
      `notice with a ${notice.skymap!.pixelCount}-pixel map: read in ${((parsed - started) / 1000).toFixed(1)} s; stored and associated ` +
        `against ${alerts} alerts in ${seconds.toFixed(1)} s total (target < 10 s); ${result.associated} alerts inside its 90% region`,
    );

    // Ten active events (the real map under ten ids, the nine others 15 days later, after every
    // loaded alert, so storing them re-evaluates nothing): matching new alerts against all of them.
    const map = readSkyMap(bytes);
    const later = new Date(Date.parse('2019-04-25T08:18:05.017Z') + 15 * 86_400_000).toISOString();
    for (let k = 0; k < 9; k++) {
      await ingestNotice(repos, { ...notice, gracedb_id: `S190425${'abcdefghi'[k]}`, event_datetime: later, skymap: map });
    }
    const gw = new GwMatcher();
    await gw.refresh(repos);
    const n = 100_000;
    const t0 = performance.now();
    let found = 0;
    for (let i = 0; i < n; i++) found += gw.match((i * 7.31) % 360, ((i * 3.17) % 180) - 90, eventMjd + 15.5).length;
    const perAlert = (performance.now() - t0) / n;
    console.log(
      `matching with ${gw.activeEvents} active events: ${(perAlert * 1000).toFixed(1)} µs per alert (${found} associations for ${n} alerts)`,
    );
  } finally {
    await database.close();
  }
}
