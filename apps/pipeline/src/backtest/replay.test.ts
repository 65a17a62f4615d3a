import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { createTestDatabase, type TestDatabase } from '@antares/db';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { Level2Stage } from '../filters/level2.ts';
import { APT_INSTALL, FilterSandboxPool, missingSandboxPrerequisites } from '../filters/pool/index.ts';
import { expandInputs, ingestFiles } from '../ingest/ingest-files.ts';
import { simulateSurvey } from '../simulate/index.ts';
import { replayLoci } from './backtest-run.ts';
import type { LocusOutcome } from './replay.ts';

// The replay core of filter backtests (issue #19, ADR 0030): each locus meets the filter at each of its
// alerts in time order, as Level 2 met it, and the nightly counts equal Level 2's run night by night.
const missing = missingSandboxPrerequisites();
if (missing.length) {
  const message = `Backtest replay tests need ${missing.join(' and ')}: ${APT_INSTALL}`;
  if (process.env.CI === 'true') throw new Error(message);
  console.warn(`SKIPPED: ${message}`);
}

const THIRD = `import antares.devkit as dk
class Third(dk.Filter):
    OUTPUT_LOCUS_PROPERTIES = [{'name': 'bt_seen', 'type': 'int', 'description': 'detections seen'}]
    OUTPUT_TAGS = [{'name': 'third_detection', 'description': 'three or more detections'},
                   {'name': 'exactly_three', 'description': 'the locus had exactly three measurements'}]
    def run(self, locus):
        n = sum(1 for a in locus.alerts if a.properties.get('ant_mag') is not None)
        locus.properties['bt_seen'] = n
        if n >= 3:
            locus.tag('third_detection')
        if locus.properties['num_mag_values'] == 3:
            locus.tag('exactly_three')
`;
const WINDOW = { fromMjd: 0, toMjd: 1e6 };

/** Loci tagged per night and tag, nights in order. */
function nightly(outcomes: LocusOutcome[]): Array<Record<string, number>> {
  const byNight = new Map<string, Record<string, number>>();
  for (const o of outcomes)
    for (const [night, tags] of Object.entries(o.tagged_by_night)) {
      const counts = byNight.get(night) ?? {};
      for (const tag of Object.keys(tags)) counts[tag] = (counts[tag] ?? 0) + 1;
      byNight.set(night, counts);
    }
  return [...byNight.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([, c]) => c);
}

describe.skipIf(missing.length > 0)('backtest replay', () => {
  let archive: TestDatabase;
  let live: TestDatabase;
  let pool: FilterSandboxPool;
  let survey: string;
  let outcomes: LocusOutcome[] = [];

  const replay = async (granularity: 'alert' | 'night') => {
    const ids = (await sql<{ locus_id: string }>`SELECT locus_id FROM locus ORDER BY locus_id`.execute(archive.db)).rows.map(
      (r) => r.locus_id,
    );
    const done: LocusOutcome[] = [];
    const result = await replayLoci(archive.repos, pool, 'backtest-third', ids, {
      window: { ...WINDOW, granularity },
      onLoci: async (finished) => {
        done.push(...finished);
        return false;
      },
    });
    expect(result.stopped).toBe(false);
    expect(result.steps).toBe(done.reduce((n, o) => n + o.steps, 0));
    return done.sort((a, b) => a.locus_id.localeCompare(b.locus_id));
  };

  beforeAll(async () => {
    survey = mkdtempSync(path.join(os.tmpdir(), 'antares-backtest-'));
    await simulateSurvey({ objects: 40, nights: 6, seed: 31, outDir: survey, processes: 1 });
    [archive, live] = await Promise.all([createTestDatabase(), createTestDatabase()]);
    pool = new FilterSandboxPool({ maxWorkers: 2, slotOffset: 620 });
    // The archive: everything ingested at once, no filters.
    await ingestFiles(archive.repos, expandInputs([survey]));
    const loaded = await pool.load('backtest-third', THIRD);
    expect(loaded.ok).toBe(true);
    outcomes = await replay('alert');
  }, 240_000);
  afterAll(async () => {
    await pool?.close();
    await archive?.close();
    await live?.close();
    if (survey) rmSync(survey, { recursive: true, force: true });
  });

  it('tags at the third detection, with the locus as it was then, not at the end', async () => {
    const alerts = (
      await sql<{
        locus_id: string;
        alert_id: string;
        mjd: number;
        mag: number | null;
      }>`SELECT locus_id, alert_id, mjd, (summary->>'ant_mag')::float8 AS mag FROM alert ORDER BY locus_id, mjd, alert_id`.execute(
        archive.db,
      )
    ).rows;
    const withCutouts = new Set(
      (await sql<{ alert_id: string }>`SELECT DISTINCT alert_id FROM alert_thumbnail`.execute(archive.db)).rows.map((r) => r.alert_id),
    );
    const byLocus = new Map<string, typeof alerts>();
    for (const a of alerts) byLocus.set(a.locus_id, [...(byLocus.get(a.locus_id) ?? []), a]);
    let earlierThanTheEnd = 0;
    let exactlyThree = 0;
    for (const outcome of outcomes) {
      const own = byLocus.get(outcome.locus_id) ?? [];
      // Where the third measurement arrived: the first packet (an alert with cutouts) of its time or later.
      let seen = 0;
      let expected: string | undefined;
      for (const [i, a] of own.entries()) {
        if (a.mag !== null) seen++;
        const lastOfTime = i + 1 === own.length || own[i + 1].mjd !== a.mjd;
        const packet = own.filter((b) => b.mjd === a.mjd && withCutouts.has(b.alert_id)).at(-1);
        if (seen >= 3 && lastOfTime && packet && !expected) expected = packet.alert_id;
      }
      if (expected === undefined) {
        expect(outcome.tags).not.toContain('third_detection');
        continue;
      }
      expect(outcome.first_tag?.alert_id, outcome.locus_id).toBe(expected);
      expect(outcome.first_tag?.tags).toContain('third_detection');
      const lastTrigger = own.filter((a) => withCutouts.has(a.alert_id)).at(-1)!.alert_id;
      if (expected !== lastTrigger) earlierThanTheEnd++;
      // A property of the locus as it then was: never true at the end of a locus with more measurements.
      if (outcome.tags.includes('exactly_three') && own.filter((a) => a.mag !== null).length > 3) exactlyThree++;
      // The filter saw what it had set at its earlier steps, as Level 2's stored properties would show it.
      expect(Number(outcome.properties.bt_seen)).toBe(own.filter((a) => a.mag !== null).length);
    }
    expect(earlierThanTheEnd).toBeGreaterThan(3);
    expect(exactlyThree).toBeGreaterThan(0);
    // Nothing was written to the loci or the streams.
    const written = await sql<{ n: number }>`SELECT (SELECT count(*) FROM locus WHERE cardinality(tags) > 0)
      + (SELECT count(*) FROM stream_message) AS n`.execute(archive.db);
    expect(Number(written.rows[0].n)).toBe(0);
  });

  it('counts per night the loci that Level 2, run night by night from an empty database, tags', async () => {
    const owner = (await live.repos.users.create({ username: 'bt-owner', email: 'bt@example.org', name: 'BT', password_hash: 'x' }))!;
    const filter = (await live.repos.filters.create({ user_id: owner.user_id, name: 'Third', description: 'third' }))!;
    const version = await live.repos.filters.createVersion({
      filter_id: filter.filter_id,
      code: THIRD,
      comment: 'v1',
      declared_outputs: null,
    });
    await live.repos.filters.transition(filter.filter_id, version.filter_version_id, 'ENABLED', null);
    const level2 = new Level2Stage(live.repos, pool);
    await level2.refresh();
    const files = expandInputs([survey]);
    const nights = [...new Set(files.map((f) => /_(\d{8})_/.exec(path.basename(f))![1]))].sort();
    const level2Counts: Array<Record<string, number>> = [];
    let last = 0;
    for (const night of nights) {
      await ingestFiles(
        live.repos,
        files.filter((f) => path.basename(f).includes(`_${night}_`)),
        { level2, batchSize: 100_000 },
      );
      const rows = (
        await sql<{ stream: string; n: number; top: number }>`SELECT stream, count(DISTINCT locus_id)::int AS n, max(message_id)::int AS top
          FROM stream_message WHERE message_id > ${last} GROUP BY stream`.execute(live.db)
      ).rows;
      level2Counts.push(Object.fromEntries(rows.map((r) => [r.stream, r.n])));
      last = Math.max(last, ...rows.map((r) => r.top));
    }
    const nonEmpty = level2Counts.filter((c) => Object.keys(c).length > 0);
    expect(nonEmpty.length).toBeGreaterThan(2);
    // Once per night, the backtest is Level 2 over a batch per night, whatever the filter does.
    expect(nightly(await replay('night'))).toEqual(nonEmpty);
    // At every packet: the same for a tag that stays once given; `exactly_three` is also given to loci
    // that reached three measurements part way through a night and had more by its end.
    const perAlert = nightly(outcomes);
    expect(perAlert.map((c) => c.third_detection)).toEqual(nonEmpty.map((c) => c.third_detection));
    for (const [i, counts] of perAlert.entries()) expect(counts.exactly_three ?? 0).toBeGreaterThanOrEqual(nonEmpty[i].exactly_three ?? 0);
  }, 240_000);
});
