import type { Repositories } from '@antares/db';
import { matchPositions } from '@antares/pipeline';

import { badRequest, notFound } from '../errors.ts';

/** Catalog samples (`n` per catalog) are capped at this. */
export const SAMPLES_MAX = 100;

/** Catalog matches of a locus, samples of every catalog, and catalog objects at a position. */
export class CatalogService {
  constructor(private readonly repos: Repositories) {}

  /** `sort` is meta.separation (nearest first, the default) or -meta.separation. */
  async matchesOf(locusId: string, sort: string | undefined, page: { limit: number; offset: number }) {
    if (!(await this.repos.loci.findById(locusId))) throw notFound(`No locus with id "${locusId}"`);
    const order = sort || 'meta.separation';
    if (order !== 'meta.separation' && order !== '-meta.separation') throw badRequest('sort must be meta.separation or -meta.separation');
    return this.repos.catalogs.matchesOfLocus(locusId, { descending: order.startsWith('-'), ...page });
  }

  samples(n: number) {
    return this.repos.catalogs.samples(n);
  }

  /** The catalog objects whose match radius holds the position (path parameters in degrees, as text). */
  async at(raText: string, decText: string) {
    const ra = Number(raText);
    const dec = Number(decText);
    if (!Number.isFinite(ra) || ra < 0 || ra >= 360) throw badRequest('ra must be a number of degrees from 0 to 360');
    if (!Number.isFinite(dec) || dec < -90 || dec > 90) throw badRequest('dec must be a number of degrees from -90 to 90');
    const matches = await matchPositions(this.repos, [{ id: 'position', ra, dec }]);
    return this.repos.catalogs.objectsById(matches.map((m) => m.object_id));
  }
}
