import { angularSeparationDeg } from '@antares/astro';
import type { apiSession } from './app';
import { approximateLevel, gaussianSkyMap, igwnNotice, type GaussianSkyMap } from './gw-notice';

/**
 * The e2e gravitational-wave event: a PRELIMINARY notice whose event happened half a day before the
 * simulated survey's first night (MJD 61000, 2025-11-21), so every seeded alert falls in the 14-day
 * window, and whose sky map is a Gaussian blob centred on a seeded locus, wide enough to hold more
 * than 10 loci in its 90% region and placed so that no locus sits near the 50% or 90% outline. The
 * map's centre and width travel inside the notice (`e2e_map`), so a kept database is not posted to
 * again and the expectations are rebuilt from the map it has.
 */
export const GW_ID = 'MS251120gw';
const EVENT_TIME = new Date('2025-11-20T12:00:00Z');
const CREATED_TIME = new Date('2025-11-20T12:05:00Z');
const SIGMAS = [8, 9, 10, 11, 12, 13, 14, 15, 16];

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

async function allLoci(call: Api): Promise<Omit<ScenarioLocus, 'level'>[]> {
  const loci: Omit<ScenarioLocus, 'level'>[] = [];
  for (let offset = 0; ; offset += 1000) {
    const page = await json<{ data: { id: string; attributes: { ra: number; dec: number } }[] }>(
      await call(`/loci?page%5Blimit%5D=1000&page%5Boffset%5D=${offset}&sort=ra`),
    );
    loci.push(...page.data.map((l) => ({ id: l.id, ra: l.attributes.ra, dec: l.attributes.dec })));
    if (page.data.length < 1000) return loci;
  }
}

const clearOf = (level: number, margin: number) => Math.abs(level - 0.5) > margin && Math.abs(level - 0.9) > margin;

/** Whether a map suits the tests: > 10 loci inside, none near an outline, loci both deep inside and between the outlines. */
function suits(levels: number[], margin: number): boolean {
  return (
    levels.filter((l) => l <= 0.9).length > 10 &&
    levels.every((l) => clearOf(l, margin)) &&
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
    if (suits(loci.map((l) => map.levelAt(l.ra, l.dec)), 0.02)) return map;
  }
  throw new Error(`no sky map suits the ${loci.length} seeded loci (${candidates.length} approximate candidates)`);
}

/** Posts the e2e notice unless the server has it, and returns what the tests must then see. */
export async function ensureGwEvent(call: Api): Promise<GwScenario> {
  const loci = await allLoci(call);
  const existing = await call(`/grav_wave_notices/${GW_ID}/latest`);
  let map: GaussianSkyMap;
  if (existing.ok) {
    const notice = (await existing.json()) as { data: { attributes: { full_notice: { e2e_map?: { ra: number; dec: number; sigma: number } } } } };
    const kept = notice.data.attributes.full_notice.e2e_map;
    if (!kept) throw new Error(`${GW_ID} exists but was not made by this test`);
    map = gaussianSkyMap(kept.ra, kept.dec, kept.sigma);
  } else {
    map = chooseMap(loci);
    const notice = { ...igwnNotice({ gracedbId: GW_ID, eventTime: EVENT_TIME, createdTime: CREATED_TIME, map }), e2e_map: { ra: map.ra, dec: map.dec, sigma: map.sigma } };
    await json(await call('/grav_wave_notices', { method: 'POST', body: notice }));
  }
  const placed = loci.map((l) => ({ ...l, level: map.levelAt(l.ra, l.dec) })).sort((a, b) => a.level - b.level);
  const inside = placed.filter((l) => l.level <= 0.9);
  const outside = placed.find((l) => l.level > 0.97);
  if (!outside) throw new Error('every locus is inside the map');
  const event = await json<{ data: { attributes: GwScenario['event'] } }>(await call(`/grav_wave_events/${GW_ID}`));

  let mostAlerts: GwScenario['mostAlerts'] = { id: inside[0].id, rows: [] };
  for (const locus of inside) {
    const alerts = await json<{ data: { id: string; attributes: { mjd: number; grav_wave_events?: Omit<GwAlertRow, 'alert_id' | 'mjd'>[] } }[] }>(
      await call(`/loci/${locus.id}/alerts?page%5Blimit%5D=1000`),
    );
    const rows = alerts.data.flatMap((a) => (a.attributes.grav_wave_events ?? []).map((g) => ({ ...g, alert_id: a.id, mjd: a.attributes.mjd })));
    if (rows.length > mostAlerts.rows.length) mostAlerts = { id: locus.id, rows };
  }
  return { sigma: map.sigma, centre: inside[0], inside, outside, event: event.data.attributes, mostAlerts };
}
