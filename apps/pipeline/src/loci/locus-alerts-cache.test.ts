import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { createTestDatabase, Repositories, type TestDatabase } from '@antares/db';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

import { expandInputs } from '../ingest/ingest-files.ts';
import { ingestPackets } from '../ingest/ingest-packets.ts';
import { simulateSurvey } from '../simulate/index.ts';
import { type AlertPacket, decodeAvroFile } from '../sources/alert-avro.ts';
import { IncrementalLocusSummary, summarizeLocus } from '../stages/locus-properties.ts';
import { LocusAlertsCache, locusAlertsCacheOf, type SummaryAlert } from './locus-alerts-cache.ts';

// The alerts of recomputed loci kept between batches (migration 0019): used only at the revision they
// were kept at, and forgotten when alert partitions are archived or restored.

function alerts(locusId: string, n: number): SummaryAlert[] {
  return Array.from({ length: n }, (_, i) => ({
    alert_id: `${locusId}-${i}`,
    locus_id: locusId,
    survey: 'lsst',
    mjd: 60000 + i,
    properties: {},
  }));
}

describe('LocusAlertsCache', () => {
  it('gives a locus its kept alerts only at the revision they were kept at', () => {
    const cache = new LocusAlertsCache();
    cache.lookup(new Map(), 0);
    cache.addCommitted([{ locus_id: 'L1', revision: 3, alerts: alerts('L1', 2) }], 0);
    const { cached, missing } = cache.lookup(
      new Map([
        ['L1', 3],
        ['L2', 1],
      ]),
      0,
    );
    expect(cached.get('L1')?.map((a) => a.alert_id)).toEqual(['L1-0', 'L1-1']);
    expect(missing).toEqual(['L2']);
    // Another worker recomputed L1 since: its alerts are read again.
    expect(cache.lookup(new Map([['L1', 4]]), 0)).toEqual({ cached: new Map(), summaries: new Map(), missing: ['L1'] });
  });

  it('forgets everything when the archive epoch moves, and keeps nothing of a batch that saw another epoch', () => {
    const cache = new LocusAlertsCache();
    cache.lookup(new Map(), 0);
    cache.addCommitted([{ locus_id: 'L1', revision: 1, alerts: alerts('L1', 2) }], 0);
    expect(cache.lookup(new Map([['L1', 1]]), 1).missing).toEqual(['L1']);
    expect(cache.size).toEqual({ loci: 0, alerts: 0 });
    cache.addCommitted([{ locus_id: 'L1', revision: 1, alerts: alerts('L1', 2) }], 0);
    expect(cache.size).toEqual({ loci: 0, alerts: 0 });
  });

  it('keeps at most its number of alerts, forgetting the least recently used loci first', () => {
    const cache = new LocusAlertsCache(5);
    cache.lookup(new Map(), 0);
    cache.addCommitted(
      [
        { locus_id: 'L1', revision: 1, alerts: alerts('L1', 2) },
        { locus_id: 'L2', revision: 1, alerts: alerts('L2', 2) },
      ],
      0,
    );
    cache.lookup(new Map([['L1', 1]]), 0); // L1 is now the most recently used
    cache.addCommitted([{ locus_id: 'L3', revision: 1, alerts: alerts('L3', 2) }], 0);
    expect(cache.size).toEqual({ loci: 2, alerts: 4 });
    const { cached } = cache.lookup(
      new Map([
        ['L1', 1],
        ['L2', 1],
        ['L3', 1],
      ]),
      0,
    );
    expect([...cached.keys()].sort()).toEqual(['L1', 'L3']);
    // A locus with more alerts than the whole cache holds is not kept, and pushes nothing out.
    cache.addCommitted([{ locus_id: 'L4', revision: 1, alerts: alerts('L4', 6) }], 0);
    expect(cache.size).toEqual({ loci: 2, alerts: 4 });
  });

  it('is one per database handle', () => {
    const one = {};
    expect(locusAlertsCacheOf(one)).toBe(locusAlertsCacheOf(one));
    expect(locusAlertsCacheOf(one)).not.toBe(locusAlertsCacheOf({}));
  });
});

describe('recomputing loci with the alerts kept between batches', () => {
  let survey: string;
  let nights: AlertPacket[][];

  beforeAll(async () => {
    survey = mkdtempSync(path.join(os.tmpdir(), 'antares-locus-alerts-cache-'));
    await simulateSurvey({ objects: 60, nights: 6, seed: 2031, outDir: survey, processes: 1, lsstHistoryDays: 120 });
    nights = [];
    for (const file of expandInputs([survey])) {
      const packets: AlertPacket[] = [];
      for await (const record of decodeAvroFile(file)) if ('packet' in record) packets.push(record.packet);
      nights.push(packets);
    }
  }, 120_000);
  afterAll(() => {
    if (survey) rmSync(survey, { recursive: true, force: true });
  });

  /** Each locus's properties, keyed by the ids of its alerts. */
  async function lociOf(database: TestDatabase): Promise<Map<string, unknown>> {
    const loci = await database.db
      .selectFrom('locus')
      .select(['locus_id', 'ra', 'dec', 'properties', 'newest_thumbnail_alert_id'])
      .execute();
    const rows = await database.db.selectFrom('alert').select(['alert_id', 'locus_id']).execute();
    const ids = new Map<string, string[]>();
    for (const r of rows) ids.set(r.locus_id, [...(ids.get(r.locus_id) ?? []), r.alert_id]);
    return new Map(loci.map((l) => [(ids.get(l.locus_id) ?? []).sort().join(','), { ...l, locus_id: undefined }]));
  }

  it('reads again a locus another ingest process recomputed since, and ends as one process would', async () => {
    const single = await createTestDatabase();
    const shared = await createTestDatabase();
    try {
      const all = nights.flat();
      await ingestPackets(single.repos, all, { batchSize: 40 });
      // A second handle on the same database has a cache of its own, as a second process would.
      const handles = [shared.repos, new Repositories(shared.db.withoutPlugins(), shared.kind)];
      for (let i = 0, turn = 0; i < all.length; i += 40, turn++) {
        await ingestPackets(handles[turn % 2], all.slice(i, i + 40), { batchSize: 40 });
      }
      expect(locusAlertsCacheOf(handles[0].db).size.alerts).toBeGreaterThan(0);
      expect(locusAlertsCacheOf(handles[1].db).size.alerts).toBeGreaterThan(0);
      const [want, got] = [await lociOf(single), await lociOf(shared)];
      expect(got.size).toBe(want.size);
      for (const [key, locus] of want) expect(got.get(key)).toEqual(locus);
    } finally {
      await single.close();
      await shared.close();
    }
  }, 120_000);

  it('goes on from a kept locus summary when the new alerts are newer, and stores what summarizeLocus gives for all', async () => {
    const database = await createTestDatabase();
    const goneOnFrom = vi.spyOn(IncrementalLocusSummary.prototype, 'clone');
    try {
      // Night 5 before nights 3 and 4: their rows then come older than the kept ones (summarized again).
      for (const night of [0, 1, 2, 5, 3, 4]) await ingestPackets(database.repos, nights[night], { batchSize: 40 });
      expect(goneOnFrom.mock.calls.length).toBeGreaterThanOrEqual(3);
      const loci = await database.db.selectFrom('locus').select(['locus_id', 'ra', 'dec', 'properties']).execute();
      const stored = await database.repos.alerts.listSummariesByLoci(loci.map((l) => l.locus_id));
      const byLocus = new Map<string, SummaryAlert[]>();
      for (const a of stored) byLocus.set(a.locus_id, [...(byLocus.get(a.locus_id) ?? []), a]);
      const compared = loci.filter((locus) => {
        const own = (byLocus.get(locus.locus_id) ?? []).sort((a, b) => a.mjd - b.mjd || (a.alert_id < b.alert_id ? -1 : 1));
        const want = JSON.parse(JSON.stringify(summarizeLocus(own, locus))) as { ra: number; dec: number; properties: object };
        expect({ ra: locus.ra, dec: locus.dec }).toEqual({ ra: want.ra, dec: want.dec });
        expect(locus.properties).toMatchObject(want.properties);
        return own.length > 0;
      });
      expect(compared.length).toBe(loci.length);
    } finally {
      goneOnFrom.mockRestore();
      await database.close();
    }
  }, 120_000);

  it('recomputes a locus from the alerts the table still holds once a month of them is archived', async () => {
    const database = await createTestDatabase();
    try {
      const { repos } = database;
      const revisions = async () =>
        new Map(
          (await database.db.selectFrom('locus').select(['locus_id', 'alerts_revision']).execute()).map((l) => [
            l.locus_id,
            l.alerts_revision,
          ]),
        );
      await ingestPackets(repos, nights.slice(0, 3).flat());
      const epoch = await repos.alertPartitions.archiveEpoch();
      const [oldest] = await repos.alertPartitions.listAttached();
      expect(await repos.alertPartitions.archiveBefore(oldest.toMjd)).toHaveLength(1);
      expect(await repos.alertPartitions.archiveEpoch()).toBe(epoch + 1);

      // The same objects again: the loci recomputed now count the alerts still in the table, as a
      // process that kept nothing would (their properties computed before the archive stay as they were).
      const before = await revisions();
      await ingestPackets(repos, nights.slice(3).flat());
      const after = await revisions();
      const recomputed = [...after].filter(([id, revision]) => before.has(id) && revision > before.get(id)!).map(([id]) => id);
      expect(recomputed.length).toBeGreaterThan(3);
      const counts = await sql<{ locus_id: string; num_alerts: number; stored: number }>`
        SELECT l.locus_id, (l.properties->>'num_alerts')::int AS num_alerts,
          (SELECT count(*)::int FROM alert a WHERE a.locus_id = l.locus_id) AS stored
        FROM locus l WHERE l.locus_id = ANY(${recomputed}::text[])`.execute(database.db);
      expect(counts.rows).toHaveLength(recomputed.length);
      expect(counts.rows.filter((r) => r.num_alerts !== r.stored)).toEqual([]);
    } finally {
      await database.close();
    }
  }, 120_000);
});
