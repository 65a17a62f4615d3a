import type { Repositories } from '@antares/db';
import { matchPositions } from '@antares/pipeline';

import { notFound } from '../errors.ts';

/** Catalog matches of a locus, samples of every catalog, and catalog objects at a position. */
export class CatalogService {
  constructor(private readonly repos: Repositories) {}

  /** Nearest first unless `descending` (the sort's allow-list is the contract's). */
  async matchesOf(locusId: string, page: { descending: boolean; limit: number; offset: number }) {
    if (!(await this.repos.loci.findById(locusId))) throw notFound(`No locus with id "${locusId}"`);
    return this.repos.catalogs.matchesOfLocus(locusId, page);
  }

  samples(n: number) {
    return this.repos.catalogs.samples(n);
  }

  /** The catalog objects whose match radius holds the position (degrees, in range: the contract checks them). */
  async at(ra: number, dec: number) {
    const matches = await matchPositions(this.repos, [{ id: 'position', ra, dec }]);
    return this.repos.catalogs.objectsById(matches.map((m) => m.object_id));
  }
}
