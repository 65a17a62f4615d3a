import { htmId } from '@antares/astro';
import type { PGlite } from '@electric-sql/pglite';
import { type Kysely, sql } from 'kysely';
import pg from 'pg';

import { CopyIn } from '../copy-in.ts';
import { ensureAlertPartitions, spanMjds } from '../repositories/alert-partitions.ts';
import type { Database } from '../schema.ts';

/**
 * Benchmarks' archive: `alerts` ZTF-shaped alert rows (a third of them upper limits, as ingestion
 * stores them) over about a tenth as many loci, written with COPY. Each locus is planned from its
 * number alone, so loci and alerts are written in two passes without holding either in memory.
 */
export interface PrefillOptions {
  alerts: number;
  /** The first night to be ingested afterwards: the history spans the two years before it. */
  beforeMjd: number;
  /** Positions the first loci are placed on (the objects the ingested nights will associate with). */
  anchors?: Array<{ ra: number; dec: number }>;
  onProgress?: (rows: number) => void;
}

export interface PrefillResult {
  alerts: number;
  loci: number;
  /** True when the database already held this archive (nothing was written). */
  reused: boolean;
  seconds: number;
  bytes: number;
}

/** Where COPY ... FROM STDIN rows go: a PostgreSQL server (pg's protocol) or embedded PGlite (a blob). */
export interface CopyTarget {
  copyIn(statement: string, chunks: Iterable<string>): Promise<void>;
  close(): Promise<void>;
}

export async function pgCopyTarget(databaseUrl: string): Promise<CopyTarget> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  // A bulk load that the benchmark rebuilds when lost: waiting for each flush to disk only slows it.
  await client.query('SET synchronous_commit = off');
  return {
    copyIn: async (statement, chunks) => {
      await client.query(new CopyIn(statement, chunks)).done;
    },
    close: () => client.end(),
  };
}

export function pgliteCopyTarget(pglite: PGlite): CopyTarget {
  return {
    copyIn: async (statement, chunks) => {
      const blob = new Blob([...chunks]);
      await pglite.query(statement.replace('FROM STDIN', "FROM '/dev/blob'"), [], { blob });
    },
    close: async () => {},
  };
}

const ALERT_COLUMNS = 'alert_id, locus_id, survey, mjd, properties, summary';
const LOCUS_COLUMNS = 'locus_id, ra, dec, htm16, properties, tags, newest_thumbnail_alert_id, ztf_object_ids';
const TAGS = ['high_snr', 'extragalactic', 'nuclear_transient', 'young_extragalactic_candidate', 'lc_feature_extractor'];
const CHUNK_CHARS = 1 << 20;

export async function prefillArchive(db: Kysely<Database>, target: CopyTarget, options: PrefillOptions): Promise<PrefillResult> {
  const started = performance.now();
  const plans = planCounts(options.alerts);
  await sql`CREATE TABLE IF NOT EXISTS bench_prefill (alerts bigint PRIMARY KEY, loci bigint NOT NULL,
    done_at timestamptz NOT NULL DEFAULT now())`.execute(db);
  const marker = await sql<{ n: number }>`SELECT count(*)::int AS n FROM bench_prefill WHERE alerts = ${options.alerts}`.execute(db);
  if (marker.rows[0].n > 0) {
    return { alerts: options.alerts, loci: plans.length, reused: true, seconds: 0, bytes: await databaseBytes(db) };
  }
  const context = { ...options, anchors: options.anchors ?? [] };
  await target.copyIn(
    `COPY locus (${LOCUS_COLUMNS}) FROM STDIN`,
    chunked(plans.length, (k) => locusLine(planLocus(k, plans[k], context))),
  );
  // Secondary indexes are rebuilt once at the end: sorting once is much faster than 10 M random inserts.
  const indexes = await sql<{ name: string; definition: string }>`SELECT indexname AS name, indexdef AS definition
    FROM pg_indexes WHERE tablename = 'alert' AND indexname <> 'alert_pkey'`.execute(db);
  for (const index of indexes.rows) await sql`DROP INDEX ${sql.id(index.name)}`.execute(db);
  // History spans the two years before the first ingested night (planLocus): its monthly partitions.
  await ensureAlertPartitions(db, spanMjds(options.beforeMjd - 730, options.beforeMjd));
  let written = 0;
  await target.copyIn(
    `COPY alert (${ALERT_COLUMNS}) FROM STDIN`,
    chunked(plans.length, (k) => {
      const lines = alertLines(planLocus(k, plans[k], context));
      written += plans[k].count;
      if (k % 10_000 === 0) options.onProgress?.(written);
      return lines;
    }),
  );
  // A partitioned table's index is listed as "ON ONLY alert": run as it stands, it would make an empty,
  // invalid parent index and none on the partitions. Without ONLY it is built on every partition.
  for (const index of indexes.rows) await sql.raw(index.definition.replace(' ON ONLY ', ' ON ')).execute(db);
  await sql`ANALYZE alert`.execute(db);
  await sql`ANALYZE locus`.execute(db);
  await sql`INSERT INTO bench_prefill (alerts, loci) VALUES (${options.alerts}, ${plans.length})`.execute(db);
  return {
    alerts: options.alerts,
    loci: plans.length,
    reused: false,
    seconds: (performance.now() - started) / 1000,
    bytes: await databaseBytes(db),
  };
}

async function databaseBytes(db: Kysely<Database>): Promise<number> {
  const size = await sql<{ bytes: string }>`SELECT pg_database_size(current_database())::text AS bytes`.execute(db);
  return Number(size.rows[0].bytes);
}

/** Alert counts per locus: 5 to 15 (10 on average) until `alerts` is reached. */
function planCounts(alerts: number): Array<{ count: number; first: number }> {
  const plans: Array<{ count: number; first: number }> = [];
  for (let total = 0, k = 0; total < alerts; k++) {
    const count = Math.min(5 + ((k * 7) % 11), alerts - total);
    plans.push({ count, first: total });
    total += count;
  }
  return plans;
}

interface LocusPlan {
  k: number;
  locusId: string;
  objectId: string;
  ra: number;
  dec: number;
  count: number;
  firstAlert: number;
  firstMjd: number;
  lastMjd: number;
  mag: number;
  field: number;
  rcid: number;
  random: () => number;
}

function planLocus(
  k: number,
  plan: { count: number; first: number },
  options: { beforeMjd: number; anchors: Array<{ ra: number; dec: number }> },
): LocusPlan {
  const random = rng(k + 1);
  const anchor = options.anchors[k];
  const ra = anchor ? anchor.ra : random() * 360;
  const dec = anchor ? anchor.dec : Math.asin(2 * random() - 1) * (180 / Math.PI);
  const firstMjd = options.beforeMjd - 730 + random() * 700;
  const lastMjd = Math.min(options.beforeMjd - 1, firstMjd + 1 + random() * 400);
  const id = k.toString(36).padStart(10, '0');
  return {
    k,
    locusId: `ANT2024pf${id}`,
    objectId: `ZTF23pf${id}`,
    ra,
    dec,
    count: plan.count,
    firstAlert: plan.first,
    firstMjd,
    lastMjd,
    mag: 16 + random() * 5,
    field: 200 + Math.floor(random() * 700),
    rcid: Math.floor(random() * 64),
    random,
  };
}

/** A deterministic generator per locus (Park-Miller): both passes draw the same numbers for it. */
function rng(seed: number): () => number {
  let state = (seed * 48271) % 2147483647 || 1;
  return () => (state = (state * 48271) % 2147483647) / 2147483647;
}

function* chunked(count: number, lines: (k: number) => string): Iterable<string> {
  let chunk = '';
  for (let k = 0; k < count; k++) {
    chunk += lines(k);
    if (chunk.length >= CHUNK_CHARS) {
      yield chunk;
      chunk = '';
    }
  }
  if (chunk) yield chunk;
}

interface AlertFacts {
  alertId: string;
  mjd: number;
  mag: number;
  band: 'g' | 'R';
  detection: boolean;
}

function alertFacts(plan: LocusPlan, j: number): AlertFacts {
  const mjd = plan.firstMjd + ((plan.lastMjd - plan.firstMjd) * j) / Math.max(1, plan.count - 1);
  const index = plan.firstAlert + j;
  const band = j % 2 === 0 ? 'R' : 'g';
  // Every third row is an upper limit, as in ingested ZTF history (non-detections in prv_candidates).
  const detection = j % 3 !== 2;
  const nid = Math.floor(mjd) - 57754;
  const pid = `${nid}${String(index % 1e9).padStart(9, '0')}`;
  const alertId = detection ? `ztf_candidate:${nid}9${String(index).padStart(14, '0')}` : `ztf_upper_limit:${plan.objectId}-${pid}`;
  return { alertId, mjd, mag: plan.mag + (j % 5) * 0.1, band, detection };
}

// COPY text format: tab-separated, newline-terminated. Nothing generated holds a tab, newline or backslash.
function alertLines(plan: LocusPlan): string {
  let lines = '';
  for (let j = 0; j < plan.count; j++) {
    const a = alertFacts(plan, j);
    const { properties, summary } = a.detection ? candidate(plan, a) : upperLimit(plan, a);
    lines += `${a.alertId}\t${plan.locusId}\tztf\t${a.mjd}\t${properties}\t${summary}\n`;
  }
  return lines;
}

const CANDIDATE_FLOATS = [
  'ztf_rb', 'ztf_drb', 'ztf_sky', 'ztf_fwhm', 'ztf_ranr', 'ztf_xpos', 'ztf_ypos', 'ztf_chinr', 'ztf_decnr', 'ztf_elong',
  'ztf_magap', 'ztf_magnr', 'ztf_scorr', 'ztf_zpmed', 'ztf_aimage', 'ztf_bimage', 'ztf_chipsf', 'ztf_clrmed', 'ztf_clrrms',
  'ztf_distnr', 'ztf_dsdiff', 'ztf_dsnrms', 'ztf_sgmag1', 'ztf_sgmag2', 'ztf_sgmag3', 'ztf_simag1', 'ztf_simag2',
  'ztf_simag3', 'ztf_srmag1', 'ztf_srmag2', 'ztf_srmag3', 'ztf_ssnrms', 'ztf_sumrat', 'ztf_szmag1', 'ztf_szmag2',
  'ztf_szmag3', 'ztf_magdiff', 'ztf_maggaia', 'ztf_sharpnr', 'ztf_classtar', 'ztf_clrcoeff', 'ztf_clrcounc',
  'ztf_magapbig', 'ztf_magzpsci', 'ztf_neargaia', 'ztf_seeratio', 'ztf_sgscore1', 'ztf_sgscore2', 'ztf_sgscore3',
  'ztf_sigmagap', 'ztf_sigmagnr', 'ztf_zpclrcov', 'ztf_aimagerat', 'ztf_bimagerat', 'ztf_distpsnr1', 'ztf_distpsnr2',
  'ztf_distpsnr3', 'ztf_magfromlim', 'ztf_mindtoedge', 'ztf_magzpscirms', 'ztf_magzpsciunc', 'ztf_sigmagapbig',
]; // prettier-ignore

function candidate(plan: LocusPlan, a: AlertFacts): { properties: string; summary: string } {
  const r = plan.random;
  const magerr = 0.02 + r() * 0.1;
  const fid = a.band === 'g' ? 1 : 2;
  const floats = CANDIDATE_FLOATS.map((name) => `"${name}": ${r() * 30}`).join(', ');
  const summary = `{"ant_ra": ${plan.ra}, "ant_dec": ${plan.dec}, "ant_mag": ${a.mag}, "ztf_rcid": ${plan.rcid}, "ztf_field": ${plan.field}, "ant_magerr": ${magerr}, "ant_passband": "${a.band}", "ztf_object_id": "${plan.objectId}"}`;
  const candid = a.alertId.slice('ztf_candidate:'.length);
  const properties =
    `{"ant_ra": ${plan.ra}, "ant_dec": ${plan.dec}, "ant_mag": ${a.mag}, "ant_mjd": ${a.mjd}, "ztf_jd": ${a.mjd + 2400000.5}, ` +
    `"ztf_ra": ${plan.ra}, "ztf_dec": ${plan.dec}, "ztf_fid": ${fid}, "ztf_nid": ${Math.floor(a.mjd) - 57754}, ` +
    `"ztf_rcid": ${plan.rcid}, "ztf_field": ${plan.field}, "ant_magerr": ${magerr}, "ant_maglim": ${20 + r()}, ` +
    `"ant_survey": 1, "ant_passband": "${a.band}", "ztf_candid": "${candid}", "ztf_magpsf": ${a.mag}, ` +
    `"ztf_sigmapsf": ${magerr}, "ztf_isdiffpos": "t", "ztf_object_id": "${plan.objectId}", "ztf_programid": 1, ` +
    `"ztf_programpi": "Kulkarni", "ztf_rbversion": "t17_f5_c3", "ztf_drbversion": "d6_m7", "ztf_exptime": 30, ` +
    `"ztf_ndethist": ${plan.count}, "ztf_ncovhist": ${plan.count * 20}, "ztf_jdstarthist": ${plan.firstMjd + 2400000.5}, ` +
    `"ztf_objectidps1": "1973508062${plan.k}", "ztf_pdiffimfilename": "ztf_${Math.floor(a.mjd)}_${plan.field}_c01_o_q1_scimrefdiffimg.fits", ` +
    `"ant_time_received": 1700000000, ${floats}}`;
  return { properties, summary };
}

function upperLimit(plan: LocusPlan, a: AlertFacts): { properties: string; summary: string } {
  const r = plan.random;
  const summary = `{"ztf_rcid": ${plan.rcid}, "ztf_field": ${plan.field}, "ant_passband": "${a.band}", "ztf_object_id": "${plan.objectId}"}`;
  const properties =
    `{"ztf_jd": ${a.mjd + 2400000.5}, "ant_mjd": ${a.mjd}, "ztf_fid": ${a.band === 'g' ? 1 : 2}, ` +
    `"ztf_nid": ${Math.floor(a.mjd) - 57754}, "ztf_rcid": ${plan.rcid}, "ztf_field": ${plan.field}, ` +
    `"ant_maglim": ${20 + r()}, "ant_survey": 2, "ant_passband": "${a.band}", "ztf_clrcoeff": ${r() - 0.5}, ` +
    `"ztf_clrcounc": ${r() * 1e-4}, "ztf_magzpsci": ${26 + r()}, "ztf_object_id": "${plan.objectId}", ` +
    `"ztf_programid": 1, "ztf_programpi": "Kulkarni", "ztf_rbversion": "t17_f5_c3", "ztf_diffmaglim": ${20 + r()}, ` +
    `"ztf_magzpscirms": ${r() * 0.05}, "ztf_magzpsciunc": ${r() * 1e-4}, "ant_time_received": 1700000000, ` +
    `"ztf_pdiffimfilename": "/ztf/archive/sci/${Math.floor(a.mjd)}/ztf_${plan.field}_zg_c05_o_q2_scimrefdiffimg.fits.fz"}`;
  return { properties, summary };
}

const FEATURES = ['mean', 'skew', 'median', 'kurtosis', 'amplitude', 'stetson_k', 'beyond_1_std', 'weighted_mean'].concat([
  'linear_fit_slope',
  'percent_amplitude',
  'standard_deviation',
]);

function locusLine(plan: LocusPlan): string {
  const r = plan.random;
  const facts = Array.from({ length: plan.count }, (_, j) => alertFacts(plan, j));
  const detections = facts.filter((a) => a.detection);
  const newest = detections[detections.length - 1] ?? facts[facts.length - 1];
  const oldest = detections[0] ?? facts[0];
  const brightest = detections.reduce((b, a) => (a.mag < b.mag ? a : b), oldest);
  const features = FEATURES.flatMap((f) =>
    ['flux', 'magn'].flatMap((kind) => ['g', 'r'].map((band) => `"feature_${f}_${kind}_${band}": ${r() * 50}`)),
  ).join(', ');
  const properties =
    `{"survey": {"ztf": {"id": ["${plan.objectId}"], "rcid": [${plan.rcid}], "field": [${plan.field}], "ssnamenr": []}}, ` +
    `"num_alerts": ${plan.count}, "is_corrected": "false", "ztf_object_id": "${plan.objectId}", ` +
    `"num_mag_values": ${detections.length}, "newest_alert_id": "${newest.alertId}", "oldest_alert_id": "${oldest.alertId}", ` +
    `"brightest_alert_id": "${brightest.alertId}", "newest_alert_magnitude": ${newest.mag}, "oldest_alert_magnitude": ${oldest.mag}, ` +
    `"brightest_alert_magnitude": ${brightest.mag}, "newest_alert_observation_time": ${newest.mjd}, ` +
    `"oldest_alert_observation_time": ${oldest.mjd}, "brightest_alert_observation_time": ${brightest.mjd}, ${features}}`;
  const tags = `{${TAGS.filter(() => r() < 0.15).join(',')}}`;
  const thumbnail = newest.detection ? newest.alertId : '\\N';
  return `${plan.locusId}\t${plan.ra}\t${plan.dec}\t${htmId(plan.ra, plan.dec)}\t${properties}\t${tags}\t${thumbnail}\t{${plan.objectId}}\n`;
}
