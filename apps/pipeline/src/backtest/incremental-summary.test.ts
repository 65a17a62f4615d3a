import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { createTestDatabase, type TestDatabase } from '@antares/db';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { expandInputs, ingestFiles } from '../ingest/ingest-files.ts';
import { simulateSurvey } from '../simulate/index.ts';
import { IncrementalLocusSummary, type LocusAlert, summarizeLocus } from '../stages/locus-properties.ts';

// A backtest carries each locus' properties from step to step (ADR 0030) instead of summarizing all
// of its alerts again; what the filter sees must be exactly what summarizeLocus gives (and what Level 2
// stored at the time): the same keys in the same order, every number the same double.

/** Where two values differ, bit for bit (Object.is on numbers: -0 and NaN count) and key order included. */
function differences(actual: unknown, expected: unknown, at = ''): string[] {
  if (typeof expected !== 'object' || expected === null)
    return Object.is(actual, expected) ? [] : [`${at}: ${String(actual)} != ${String(expected)}`];
  if (typeof actual !== 'object' || actual === null || Array.isArray(actual) !== Array.isArray(expected)) return [`${at}: not alike`];
  const keys = Object.keys(expected);
  if (Object.keys(actual).join() !== keys.join()) return [`${at}: keys ${Object.keys(actual).join()} != ${keys.join()}`];
  return keys.flatMap((k) => differences((actual as Record<string, unknown>)[k], (expected as Record<string, unknown>)[k], `${at}.${k}`));
}

/** Adds the alerts in the chunks given, comparing the summary after each with summarizeLocus of all so far. */
function compareSteps(alerts: LocusAlert[], ends: number[], fallback: { ra: number; dec: number }): string[] {
  const incremental = new IncrementalLocusSummary(fallback);
  let start = 0;
  const found: string[] = [];
  for (const end of ends) {
    incremental.add(alerts.slice(start, end));
    start = end;
    found.push(...differences(incremental.summary(), summarizeLocus(alerts.slice(0, end), fallback), `[0,${end})`));
  }
  return found;
}

/** A small deterministic generator (mulberry32). */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = Math.imul(s ^ (s >>> 15), 1 | s);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('IncrementalLocusSummary', () => {
  let db: TestDatabase;
  let survey: string;

  beforeAll(async () => {
    survey = mkdtempSync(path.join(os.tmpdir(), 'antares-incremental-'));
    await simulateSurvey({ objects: 30, nights: 8, seed: 47, outDir: survey, processes: 1 });
    db = await createTestDatabase();
    await ingestFiles(db.repos, expandInputs([survey]));
  }, 240_000);
  afterAll(async () => {
    await db?.close();
    if (survey) rmSync(survey, { recursive: true, force: true });
  });

  it('gives what summarizeLocus gives at every step of simulated ZTF and Rubin loci, as a replay reads them', async () => {
    const ids = (await sql<{ locus_id: string }>`SELECT locus_id FROM locus ORDER BY locus_id`.execute(db.db)).rows.map((r) => r.locus_id);
    const { loci, alerts } = await db.repos.backtests.replayInputs(ids);
    expect(loci.length).toBeGreaterThan(20);
    let steps = 0;
    const surveys = new Set<string>();
    for (const locus of loci) {
      const own: LocusAlert[] = alerts
        .filter((a) => a.locus_id === locus.locus_id)
        .map((a) => ({ alert_id: a.alert_id, mjd: a.mjd, properties: a.summary }));
      for (const a of alerts) if (a.locus_id === locus.locus_id) surveys.add(a.survey);
      // One step per time, as the replay steps (alerts of one time together).
      const ends = own.flatMap((a, i) => (i + 1 === own.length || own[i + 1].mjd !== a.mjd ? [i + 1] : []));
      steps += ends.length;
      expect(compareSteps(own, ends, locus)).toEqual([]);
    }
    expect(steps).toBeGreaterThan(200);
    expect([...surveys].sort()).toEqual(['lsst', 'ztf']);
  }, 60_000);

  it('gives what summarizeLocus gives when alerts come out of time order, in bands differing only in case, without detections', () => {
    const next = random(7);
    const bands = ['g', 'r', 'G', 'i'];
    for (let locus = 0; locus < 60; locus++) {
      const alerts: LocusAlert[] = [];
      const n = 1 + Math.floor(next() * 40);
      for (let i = 0; i < n; i++) {
        const detected = next() < 0.7;
        const lsst = next() < 0.3;
        const properties: Record<string, unknown> = { ant_passband: bands[Math.floor(next() * bands.length)] };
        if (detected) {
          properties.ant_mag = 15 + next() * 6;
          if (next() < 0.9) properties.ant_magerr = next() < 0.05 ? 0 : next() * 0.3;
          properties.ant_ra = next() < 0.5 ? 359.9999 + next() * 0.0002 - 0.0001 : 10 + next() * 1e-4;
          properties.ant_dec = -30 + next() * 1e-4;
          if (next() < 0.2) properties.ant_mag_corrected = 16;
        }
        if (lsst) {
          properties.lsst_diaSource_diaObjectId = next() < 0.2 ? 0 : String(1 + Math.floor(next() * 3));
          properties.lsst_diaSource_ssObjectId = next() < 0.5 ? '0' : '99';
        } else {
          properties.ztf_object_id = next() < 0.9 ? 'ZTF26aaaaaaa' : 'ZTF26bbbbbbb';
          properties.ztf_ssnamenr = ['null', '', '1 Ceres', undefined][Math.floor(next() * 4)];
          properties.ztf_rcid = next() < 0.1 ? null : Math.floor(next() * 3);
          properties.ztf_field = 600 + Math.floor(next() * 2);
        }
        // Times repeat (several alerts of one exposure), and a quarter come earlier than the last.
        const mjd = 61_000 + (next() < 0.25 ? -next() * 5 : i * 0.5 + (next() < 0.2 ? 0 : next() * 0.1));
        alerts.push({ alert_id: `${lsst ? 'lsst' : 'ztf_candidate'}:${locus}-${i}`, mjd, properties });
      }
      const ends: number[] = [];
      for (let end = 0; end < n;) ends.push((end = Math.min(n, end + 1 + Math.floor(next() * 4))));
      expect(compareSteps(alerts, ends, { ra: 1, dec: 2 })).toEqual([]);
    }
  });
});
