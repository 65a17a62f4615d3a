import { angularSeparationDeg, dateToMjd } from '@antares/astro';

import type { apiSession } from './app';
import { approximateLevel, type GaussianSkyMap, gaussianSkyMap, igwnNotice } from './gw-notice';

/**
 * The e2e gravitational-wave event: a PRELIMINARY notice whose event happened half a day before the
 * simulated survey's first night (MJD 61000, 2025-11-21), so every seeded alert falls in the 14-day
 * window, and whose sky map is a Gaussian blob centred on a seeded locus, wide enough to hold more
 * than 10 loci in its 90% region and placed so that no locus sits near its 90% outline. The
 * map's centre and width travel inside the notice (`e2e_map`), so a kept database is not posted to
 * again and the expectations are rebuilt from the map it has. Only loci observed within the window
 * count: other test files add loci of their own (real Rubin alerts from months before the event, which
 * the event never takes in, wherever they lie; simulated ones at random places).
 */
export const GW_ID = 'MS251120gw';
/** Not sharing the main event's prefix: the GW filter's prefix search must not find its loci. */
export const SECOND_ID = 'S251120ab';
export const RETRACTED_ID = 'S251120rt';
const EVENT_TIME = new Date('2025-11-20T12:00:00Z');
const CREATED_TIME = new Date('2025-11-20T12:05:00Z');
const SIGMAS = [8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 22, 24];
/** The pipeline's DEFAULT_GW_WINDOW_DAYS: alerts observed up to this long after the event are associated. */
const WINDOW_DAYS = 14;

type Api = Awaited<ReturnType<typeof apiSession>>;

export interface ScenarioLocus {
  id: string;
  ra: number;
  dec: number;
  /** Credible level (0..1) of the locus' position in the posted map. */
  level: number;
}

export interface GwAlertRow {
  gracedb_id: string;
  alert_id: string;
  mjd: number;
  contour_level: number;
  contour_area: number;
}

export interface GwScenario {
  sigma: number;
  centre: ScenarioLocus;
  /** Loci inside the 90% region, by level. */
  inside: ScenarioLocus[];
  /** A locus far outside the 90% region. */
  outside: ScenarioLocus;
  event: { area50: number; area90: number; loci_count: number };
  /** The locus of the region with the most associated alerts, and their GW rows as the API gives them. */
  mostAlerts: { id: string; rows: GwAlertRow[] };
}

async function json<T>(response: Response): Promise<T> {
  if (!response.ok) throw new Error(`${response.url}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

interface LocusAttributes {
  ra: number;
  dec: number;
  properties: { oldest_alert_observation_time?: number; newest_alert_observation_time?: number };
}

/** The loci the event can take in: those with alerts observed within the window after it. */
async function lociInWindow(call: Api): Promise<Omit<ScenarioLocus, 'level'>[]> {
  const eventMjd = dateToMjd(EVENT_TIME);
  const loci: Omit<ScenarioLocus, 'level'>[] = [];
  for (let offset = 0; ; offset += 1000) {
    const page = await json<{ data: { id: string; attributes: LocusAttributes }[] }>(
      await call(`/loci?page%5Blimit%5D=1000&page%5Boffset%5D=${offset}&sort=ra`),
    );
    for (const {
      id,
      attributes: { ra, dec, properties },
    } of page.data) {
      const oldest = properties.oldest_alert_observation_time ?? Infinity;
      const newest = properties.newest_alert_observation_time ?? -Infinity;
      if (newest >= eventMjd && oldest <= eventMjd + WINDOW_DAYS) loci.push({ id, ra, dec });
    }
    if (page.data.length < 1000) return loci;
  }
}

/**
 * Whether a map suits the tests: more than 10 loci inside (a second page), none near the 90% outline
 * (which decides membership), and loci both deep inside and between the two outlines.
 */
function suits(levels: number[], margin: number): boolean {
  return (
    levels.filter((l) => l <= 0.9).length > 10 &&
    levels.every((l) => Math.abs(l - 0.9) > margin) &&
    levels.some((l) => l <= 0.35) &&
    levels.some((l) => l >= 0.65 && l <= 0.82)
  );
}

function chooseMap(loci: Omit<ScenarioLocus, 'level'>[]): GaussianSkyMap {
  const candidates: { ra: number; dec: number; sigma: number; id: string }[] = [];
  for (const sigma of SIGMAS) {
    for (const c of loci) {
      const levels = loci.map((l) => approximateLevel(angularSeparationDeg(c.ra, c.dec, l.ra, l.dec), sigma));
      if (suits(levels, 0.04)) candidates.push({ ra: c.ra, dec: c.dec, sigma, id: c.id });
    }
  }
  // The exact (pixelated, spherical) map decides; the approximation only narrows the search.
  for (const c of candidates.slice(0, 20)) {
    const map = gaussianSkyMap(c.ra, c.dec, c.sigma);
    if (
      suits(
        loci.map((l) => map.levelAt(l.ra, l.dec)),
        0.02,
      )
    )
      return map;
  }
  throw new Error(`no sky map suits the ${loci.length} seeded loci (${candidates.length} approximate candidates)`);
}

interface KeptMap {
  ra: number;
  dec: number;
  sigma: number;
}

/** The map a notice of this test carried (`e2e_map`), or null when the server has no such event. */
async function keptMap(call: Api, gracedbId: string): Promise<KeptMap | null> {
  const response = await call(`/grav_wave_notices/${gracedbId}/latest`);
  if (response.status === 404) return null;
  const notice = await json<{ data: { attributes: { full_notice: { e2e_map?: KeptMap } } } }>(response);
  const kept = notice.data.attributes.full_notice.e2e_map;
  if (!kept) throw new Error(`${gracedbId} exists but was not made by this test`);
  return kept;
}

async function postNotice(
  call: Api,
  gracedbId: string,
  map: GaussianSkyMap,
  alertType = 'PRELIMINARY',
  createdTime = CREATED_TIME,
): Promise<void> {
  const notice = igwnNotice({ gracedbId, eventTime: EVENT_TIME, createdTime, map, alertType });
  await json(
    await call('/grav_wave_notices', { method: 'POST', body: { ...notice, e2e_map: { ra: map.ra, dec: map.dec, sigma: map.sigma } } }),
  );
}

async function gwRows(call: Api, locusId: string): Promise<GwAlertRow[]> {
  const alerts = await json<{
    data: { id: string; attributes: { mjd: number; grav_wave_events?: Omit<GwAlertRow, 'alert_id' | 'mjd'>[] } }[];
  }>(await call(`/loci/${locusId}/alerts?page%5Blimit%5D=1000`));
  return alerts.data.flatMap((a) => (a.attributes.grav_wave_events ?? []).map((g) => ({ ...g, alert_id: a.id, mjd: a.attributes.mjd })));
}

/**
 * Posts the e2e notices unless the server has them, and returns what the tests must then see. Besides
 * the main event: a narrow second event on the locus with the most associated alerts (its alerts then
 * carry two events: more rows than one page of the locus' GW tab), and a retracted third event.
 */
export async function ensureGwEvent(call: Api): Promise<GwScenario> {
  const loci = await lociInWindow(call);
  const kept = await keptMap(call, GW_ID);
  const map = kept ? gaussianSkyMap(kept.ra, kept.dec, kept.sigma) : chooseMap(loci);
  if (!kept) await postNotice(call, GW_ID, map);
  const placed = loci.map((l) => ({ ...l, level: map.levelAt(l.ra, l.dec) })).sort((a, b) => a.level - b.level);
  const inside = placed.filter((l) => l.level <= 0.9);
  const event = await json<{ data: { attributes: GwScenario['event'] } }>(await call(`/grav_wave_events/${GW_ID}`));

  const keptSecond = await keptMap(call, SECOND_ID);
  let busiest = inside[0];
  if (keptSecond) busiest = inside.find((l) => angularSeparationDeg(l.ra, l.dec, keptSecond.ra, keptSecond.dec) < 1 / 3600) ?? busiest;
  else {
    let most = 0;
    for (const locus of inside) {
      const rows = (await gwRows(call, locus.id)).length;
      if (rows > most) [busiest, most] = [locus, rows];
    }
    await postNotice(call, SECOND_ID, gaussianSkyMap(busiest.ra, busiest.dec, 2));
  }
  if ((await call(`/grav_wave_events/${RETRACTED_ID}`)).status === 404) {
    const elsewhere = gaussianSkyMap((busiest.ra + 180) % 360, -busiest.dec, 3);
    await postNotice(call, RETRACTED_ID, elsewhere);
    await postNotice(call, RETRACTED_ID, elsewhere, 'RETRACTION', new Date(CREATED_TIME.getTime() + 3_600_000));
  }
  const outside = placed.find((l) => l.level > 0.97 && angularSeparationDeg(l.ra, l.dec, busiest.ra, busiest.dec) > 20);
  if (!outside) throw new Error('every locus is inside the maps');
  return {
    sigma: map.sigma,
    centre: inside[0],
    inside,
    outside,
    event: event.data.attributes,
    mostAlerts: { id: busiest.id, rows: await gwRows(call, busiest.id) },
  };
}
