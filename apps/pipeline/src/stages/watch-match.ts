import { angularSeparationDeg } from '@antares/astro';
import type { Repositories, WatchTarget } from '@antares/db';

/** The spec's largest watch radius (degrees): the grid below is sized for it. */
export const MAX_WATCH_RADIUS_DEG = 0.01;
const BAND_DEG = 2 * MAX_WATCH_RADIUS_DEG;
const BANDS = Math.ceil(180 / BAND_DEG);

/**
 * A spatial index of watch objects: declination bands of 0.02 degrees, each cut into right-ascension
 * cells at least 0.02 degrees wide on the sky. An object sits in the cell of its centre; a position
 * is looked up in the cells within the largest radius of it (with the RA wrap and the poles), then by
 * exact angular distance. 100,000 objects take a few megabytes and a lookup a few microseconds.
 */
export class WatchIndex {
  private readonly cells = new Map<number, WatchTarget[]>();
  readonly size: number;

  constructor(targets: WatchTarget[]) {
    this.size = targets.length;
    for (const t of targets) {
      const key = cellKey(bandOf(t.dec), raCellOf(bandOf(t.dec), t.ra));
      const list = this.cells.get(key);
      if (list) list.push(t);
      else this.cells.set(key, [t]);
    }
  }

  /** The objects whose circle holds this position. */
  match(ra: number, dec: number): WatchTarget[] {
    if (this.size === 0) return [];
    const found: WatchTarget[] = [];
    const band = bandOf(dec);
    for (let b = Math.max(0, band - 1); b <= Math.min(BANDS - 1, band + 1); b++) {
      const n = raCellsIn(b);
      // How far in RA the largest circle can reach at this band's worst declination.
      const worstDec = Math.min(90, Math.max(Math.abs(dec), Math.abs(bandEdgeNearPole(b))) + MAX_WATCH_RADIUS_DEG);
      const cos = Math.cos((worstDec * Math.PI) / 180);
      const reach = cos < 1e-9 ? 360 : MAX_WATCH_RADIUS_DEG / cos;
      const cellsNeeded = reach * 2 >= 360 ? n : Math.min(n, Math.ceil((reach * n) / 360) * 2 + 1);
      const first = raCellOf(b, ra) - Math.floor(cellsNeeded / 2);
      for (let k = 0; k < cellsNeeded; k++) {
        const list = this.cells.get(cellKey(b, (((first + k) % n) + n) % n));
        if (!list) continue;
        for (const t of list) if (angularSeparationDeg(ra, dec, t.ra, t.dec) <= t.radius) found.push(t);
      }
    }
    return found;
  }
}

function bandOf(dec: number): number {
  return Math.min(BANDS - 1, Math.max(0, Math.floor((dec + 90) / BAND_DEG)));
}
/** The edge of a band nearer a pole: where its RA cells are narrowest on the sky. */
function bandEdgeNearPole(band: number): number {
  const low = -90 + band * BAND_DEG;
  const high = Math.min(90, low + BAND_DEG);
  return Math.abs(low) > Math.abs(high) ? low : high;
}
function raCellsIn(band: number): number {
  const cos = Math.cos((Math.abs(bandEdgeNearPole(band)) * Math.PI) / 180);
  return Math.max(1, Math.floor((360 * cos) / BAND_DEG));
}
function raCellOf(band: number, ra: number): number {
  const n = raCellsIn(band);
  const wrapped = ((ra % 360) + 360) % 360;
  return Math.min(n - 1, Math.floor((wrapped / 360) * n));
}
function cellKey(band: number, cell: number): number {
  return band * 100_000 + cell;
}

/**
 * The watch-list stage of the pipeline: the index of every watch object, reloaded when lists change
 * (one cheap query per batch), and the chat message for a match.
 */
export class WatchMatcher {
  private index = new WatchIndex([]);
  private loadedVersion = '';

  constructor(private readonly siteUrl = 'http://localhost:8080') {}

  get objectCount(): number {
    return this.index.size;
  }

  async refresh(repos: Repositories): Promise<void> {
    const version = await repos.watchLists.version();
    if (version === this.loadedVersion) return;
    this.index = new WatchIndex(await repos.watchLists.allTargets());
    this.loadedVersion = version;
  }

  match(ra: number, dec: number): WatchTarget[] {
    return this.index.match(ra, dec);
  }

  /** Names the object, the locus link, magnitude, band and time (Slack mrkdwn). */
  message(target: WatchTarget, locusId: string, alert: { alert_id: string; mjd: number; properties: Record<string, unknown> }): string {
    const mag = typeof alert.properties.ant_mag === 'number' ? (alert.properties.ant_mag as number).toFixed(2) : 'n/a';
    const band = String(alert.properties.ant_passband ?? '?');
    const utc = new Date((alert.mjd - 40587) * 86_400_000).toISOString().replace('T', ' ').slice(0, 19);
    const what = target.comment ? `"${target.comment}" ` : '';
    return (
      `Watch list *${target.list_name}*: object ${what}(RA ${target.ra.toFixed(5)}, Dec ${target.dec.toFixed(5)}) ` +
      `has a new alert on <${this.siteUrl}/loci/${locusId}|${locusId}>: ${band}-band magnitude ${mag} at ${utc} UTC (MJD ${alert.mjd.toFixed(5)}).`
    );
  }
}
