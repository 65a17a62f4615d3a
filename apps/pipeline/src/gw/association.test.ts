import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { dateToMjd, mjdToJd } from '@antares/astro';
import { createTestDatabase, type TestDatabase } from '@antares/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { emptyStats, ingestBatch } from '../ingest/ingest-batch.ts';
import { expandInputs } from '../ingest/ingest-files.ts';
import { decodeAvroFile, type ZtfPacket } from '../sources/alert-avro.ts';
import { level1 } from '../stages/level1.ts';
import { GwMatcher, ingestNotice } from './association.ts';
import { parseIgwnNotice, skyMapPeak } from './notice.ts';

// Real ZTF packets placed (by the test) inside and outside a real gravitational-wave contour.
const DATA = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../../shared/data');
const NOTICE = JSON.parse(readFileSync(path.join(DATA, 'fink-mm/lvk/MS230518e_INITIAL_mock.json'), 'utf8'));
const notice = parseIgwnNotice(NOTICE);
const eventMjd = dateToMjd(new Date(notice.event_datetime!));
const peak = skyMapPeak(notice.skymap!);

let database: TestDatabase;
let templates: ZtfPacket[];
beforeAll(async () => {
  database = await createTestDatabase();
  templates = [];
  for (const file of expandInputs([path.join(DATA, 'ztf-avro-alert/samples')])) {
    for await (const record of decodeAvroFile(file))
      if ('packet' in record && record.packet.survey === 'ztf' && level1(record.packet.candidate).passed) templates.push(record.packet);
  }
});
afterAll(async () => database?.close());

let serial = 0;
/** A real packet moved to a position and a time after the event, with a fresh id and no history. */
function packetAt(ra: number, dec: number, daysAfter: number): ZtfPacket {
  const template = templates[serial % templates.length];
  serial++;
  const candid = `${900000000000000000n + BigInt(serial)}`;
  return {
    ...template,
    objectId: `ZTF23gwtest${String(serial).padStart(3, '0')}`,
    candid,
    prvCandidates: [],
    candidate: { ...template.candidate, candid, ra, dec, jd: mjdToJd(eventMjd + daysAfter) },
  };
}

async function eventsOf(alertId: string): Promise<unknown[]> {
  return (await database.repos.alerts.findById(alertId))!.grav_wave_events;
}

describe('gravitational-wave association', () => {
  it('associates alerts inside the 90% region within 14 days, re-evaluates with a new notice, and forgets a retracted event', async () => {
    const { repos } = database;
    expect(templates.length).toBeGreaterThan(0);
    const far = { ra: (peak.ra + 180) % 360, dec: -peak.dec };
    expect(notice.skymap!.regionAt(far.ra, far.dec)!.level).toBeGreaterThan(0.9);
    const inside = packetAt(peak.ra, peak.dec, 1);
    const outside = packetAt(far.ra, far.dec, 1);
    const late = packetAt(peak.ra + 0.01, peak.dec, 20);
    const gw = new GwMatcher();
    // Stored before the notice: nothing to associate yet.
    await ingestBatch(repos, [inside, outside, late], emptyStats(), { gw });
    expect(await eventsOf(`ztf_candidate:${inside.candid}`)).toEqual([]);

    // The notice arrives: the detections of the 14 days after the event are re-evaluated.
    expect(await ingestNotice(repos, notice)).toEqual({ stored: true, associated: 1 });
    const [association] = (await eventsOf(`ztf_candidate:${inside.candid}`)) as Array<{
      gracedb_id: string;
      contour_level: number;
      contour_area: number;
    }>;
    expect(association.gracedb_id).toBe('MS230518e');
    expect(association.contour_level).toBeLessThan(1);
    expect(association.contour_area).toBeGreaterThan(0);
    expect(await eventsOf(`ztf_candidate:${outside.candid}`)).toEqual([]);
    expect(await eventsOf(`ztf_candidate:${late.candid}`)).toEqual([]);
    const insideLocus = (await repos.alerts.findById(`ztf_candidate:${inside.candid}`))!.locus_id;
    expect((await repos.loci.findById(insideLocus))!.grav_wave_events).toEqual(['MS230518e']);
    // The same notice again changes nothing.
    expect(await ingestNotice(repos, notice)).toEqual({ stored: false, associated: 0 });

    // A new alert at ingestion time, inside the region and the window: associated as it is stored.
    const fresh = packetAt(peak.ra, peak.dec + 0.001, 3);
    await ingestBatch(repos, [fresh], emptyStats(), { gw });
    expect(((await eventsOf(`ztf_candidate:${fresh.candid}`)) as Array<{ gracedb_id: string }>).map((e) => e.gracedb_id)).toEqual([
      'MS230518e',
    ]);

    // An update moving the event time 5 days later: the first detection (1 day after) is now before it.
    const update = parseIgwnNotice({
      ...NOTICE,
      alert_type: 'UPDATE',
      time_created: '2023-05-19T00:00:00Z',
      event: { ...NOTICE.event, time: new Date((eventMjd + 2 - 40587) * 86_400_000).toISOString() },
    });
    await ingestNotice(repos, update);
    expect(await eventsOf(`ztf_candidate:${inside.candid}`)).toEqual([]);
    expect(((await eventsOf(`ztf_candidate:${fresh.candid}`)) as unknown[]).length).toBe(1);
    const versions = await repos.gravWaves.listEvents({ limit: 10, offset: 0 });
    expect(versions.rows[0]).toMatchObject({ gracedb_id: 'MS230518e', retracted: false, notice: { notice_type: 'UPDATE', version_id: 2 } });

    // Retracted: every association goes.
    await ingestNotice(
      repos,
      parseIgwnNotice({ superevent_id: 'MS230518e', alert_type: 'RETRACTION', time_created: '2023-05-20T00:00:00Z' }),
    );
    expect(await eventsOf(`ztf_candidate:${fresh.candid}`)).toEqual([]);
    expect((await repos.loci.findById(insideLocus))!.grav_wave_events).toEqual([]);
    expect((await repos.gravWaves.listEvents({ limit: 10, offset: 0 })).rows[0]).toMatchObject({
      retracted: true,
      notice: { version_id: 3 },
    });
    const after = packetAt(peak.ra, peak.dec, 4);
    await ingestBatch(repos, [after], emptyStats(), { gw });
    expect(await eventsOf(`ztf_candidate:${after.candid}`)).toEqual([]);
  }, 120_000);
});
