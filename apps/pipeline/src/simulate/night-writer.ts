// Writes the container files of some of the nights of a planned survey. Each night's file
// depends only on the plan, never on which other nights were written before it in the same
// process, so nights can be split between worker threads and the bytes stay the same.
import { join } from 'node:path';

import { StampFactory } from './cutouts.ts';
import { PacketEncoder } from './encoder.ts';
import { writeLsstNights } from './lsst-writer.ts';
import type { NightJob } from './night-job.ts';
import { OcfWriter } from './ocf-writer.ts';
import { buildPacket, type ObjectContext, objectContext, type PacketContext, prvRow } from './packet.ts';
import type { Obs, SimObject, SurveyPlan } from './plan.ts';
import { Rng } from './prng.ts';
import { utDate } from './schedule.ts';
import { ZTF_ALERT_SCHEMA } from './ztf-schema.ts';

export function nightFile(job: NightJob, night: number): string {
  return join(job.outDir, `ztf_${utDate(job.startMjd + night)}_sim.avro`);
}

/** Detections of each written night, in observation order (as the live stream sends them). */
export function alertsByNight(plan: SurveyPlan, nights: number): [SimObject, Obs][][] {
  const byNight: [SimObject, Obs][][] = Array.from({ length: nights }, () => []);
  for (const obj of plan.objects) {
    for (const obs of obj.obs) if (obs.detected && obs.exp.night >= 0) byNight[obs.exp.night].push([obj, obs]);
  }
  for (const list of byNight) list.sort((a, b) => a[1].exp.mjd - b[1].exp.mjd || (a[1].candid! < b[1].candid! ? -1 : 1));
  return byNight;
}

export async function writeNights(job: NightJob, plan: SurveyPlan, nights: number[], onPacket: () => void): Promise<void> {
  const byNight = alertsByNight(plan, job.nights);
  const lastNight = new Map<SimObject, number>();
  for (const night of nights) for (const [obj] of byNight[night]) lastNight.set(obj, night);
  const schemaJson = JSON.stringify(ZTF_ALERT_SCHEMA);
  const stamps = new StampFactory(job.seed);
  const encoder = new PacketEncoder();
  // Encoded prv rows are cached (each is reused by ~20 later packets) and evicted once older
  // than the 30-day prv_candidates window.
  const rows = new Map<Obs, Buffer>();
  const contexts = new Map<SimObject, ObjectContext>();
  const ctx: PacketContext = {
    seed: job.seed,
    stamps,
    encoder,
    prvBytes: (obj, obs) => {
      let bytes = rows.get(obs);
      if (!bytes) rows.set(obs, (bytes = encoder.encodePrv(prvRow(obj, obs))));
      return bytes;
    },
    objectContext: (obj) => {
      let c = contexts.get(obj);
      if (!c) contexts.set(obj, (c = objectContext(obj)));
      return c;
    },
  };

  for (const night of [...nights].sort((a, b) => a - b)) {
    const syncRng = new Rng(job.seed, 'sync', night);
    const sync = Buffer.alloc(16);
    for (let i = 0; i < 16; i += 4) sync.writeUInt32LE(syncRng.u32(), i);
    const writer = await OcfWriter.create(nightFile(job, night), schemaJson, sync, job.codec);
    try {
      for (const [obj, obs] of byNight[night]) {
        await writer.append(buildPacket(ctx, obj, obs));
        onPacket();
      }
    } finally {
      await writer.close();
    }
    const horizon = job.startMjd + night - 31;
    for (const obs of rows.keys()) if (obs.exp.mjd < horizon) rows.delete(obs);
    for (const [obj, last] of lastNight) {
      if (last !== night) continue;
      stamps.drop(obj);
      contexts.delete(obj);
    }
  }
  await writeLsstNights(job, plan, nights, onPacket);
}

export type { NightJob };
