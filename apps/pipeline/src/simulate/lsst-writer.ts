// Writes the Rubin alerts of some nights of a planned survey, one container file per night that has any
// (`lsst_<YYYYMMDD>_sim.avro`, beside ZTF's files). As for ZTF, a night's bytes depend only on the plan.
import { join } from 'node:path';

import { StampFactory } from './cutouts.ts';
import { diaForcedSourceRow, diaSourceRow, lsstAlertParts, type LsstPacketContext } from './lsst-packet.ts';
import type { LsstObject, LsstObs } from './lsst-plan.ts';
import { LsstAlertEncoder, lsstAlertSchema } from './lsst-schema.ts';
import type { NightJob } from './night-job.ts';
import { OcfWriter } from './ocf-writer.ts';
import type { SurveyPlan } from './plan.ts';
import { Rng } from './prng.ts';
import { utDate } from './schedule.ts';

export function lsstNightFile(job: NightJob, night: number): string {
  return join(job.outDir, `lsst_${utDate(job.startMjd + night)}_sim.avro`);
}

/** Rubin detections of each written night, in observation order (one alert each). */
export function lsstAlertsByNight(plan: SurveyPlan, nights: number): [LsstObject, LsstObs][][] {
  const byNight: [LsstObject, LsstObs][][] = Array.from({ length: nights }, () => []);
  for (const lo of plan.lsst.objects) {
    for (const obs of lo.obs)
      if (obs.detected && obs.visit.night >= 0 && obs.visit.night < nights) byNight[obs.visit.night].push([lo, obs]);
  }
  for (const list of byNight) list.sort((a, b) => a[1].visit.mjd - b[1].visit.mjd || (a[1].diaSourceId! < b[1].diaSourceId! ? -1 : 1));
  return byNight;
}

export async function writeLsstNights(job: NightJob, plan: SurveyPlan, nights: number[], onPacket: () => void): Promise<void> {
  const byNight = lsstAlertsByNight(plan, job.nights);
  const lastNight = new Map<LsstObject, number>();
  for (const night of nights) for (const [lo] of byNight[night]) lastNight.set(lo, night);
  const encoder = new LsstAlertEncoder(job.lsstSchemaVersion);
  const schemaJson = JSON.stringify(lsstAlertSchema(job.lsstSchemaVersion));
  const stamps = new StampFactory(job.seed);
  const sources = new Map<LsstObs, Record<string, unknown>>();
  const forced = new Map<LsstObs, Record<string, unknown>>();
  // Encoded rows, reused by every later alert of the object.
  const sourceBytes = new Map<LsstObs, Buffer>();
  const forcedBytes = new Map<LsstObs, Buffer>();
  const encodedSource = (lo: LsstObject, obs: LsstObs) => {
    let bytes = sourceBytes.get(obs);
    if (!bytes) sourceBytes.set(obs, (bytes = encoder.encodeSource(ctx.diaSource(lo, obs))));
    return bytes;
  };
  const encodedForced = (lo: LsstObject, obs: LsstObs) => {
    let bytes = forcedBytes.get(obs);
    if (!bytes) forcedBytes.set(obs, (bytes = encoder.encodeForced(ctx.forced(lo, obs))));
    return bytes;
  };
  const ctx: LsstPacketContext = {
    stamps,
    diaSource: (lo, obs) => {
      let row = sources.get(obs);
      if (!row) sources.set(obs, (row = diaSourceRow(lo, obs)));
      return row;
    },
    forced: (lo, obs) => {
      let row = forced.get(obs);
      if (!row) forced.set(obs, (row = diaForcedSourceRow(lo, obs)));
      return row;
    },
  };
  for (const night of [...nights].sort((a, b) => a - b)) {
    if (byNight[night].length === 0) continue;
    const syncRng = new Rng(job.seed, 'lsst-sync', night);
    const sync = Buffer.alloc(16);
    for (let i = 0; i < 16; i += 4) sync.writeUInt32LE(syncRng.u32(), i);
    const writer = await OcfWriter.create(lsstNightFile(job, night), schemaJson, sync, job.codec);
    try {
      for (const [lo, obs] of byNight[night]) {
        const p = lsstAlertParts(ctx, lo, obs);
        await writer.append(
          encoder.encode(
            p.head,
            encodedSource(lo, obs),
            p.prvDiaSources?.map((o) => encodedSource(lo, o)) ?? null,
            p.prvDiaForcedSources?.map((o) => encodedForced(lo, o)) ?? null,
            p.tail,
          ),
        );
        onPacket();
      }
    } finally {
      await writer.close();
    }
    for (const [lo, last] of lastNight) {
      if (last !== night) continue;
      stamps.dropLsst(lo.sim);
      for (const obs of lo.obs) {
        sources.delete(obs);
        forced.delete(obs);
        sourceBytes.delete(obs);
        forcedBytes.delete(obs);
      }
    }
  }
}
