import { randomBytes } from 'node:crypto';

import { icrsToGalactic } from '@antares/astro';
import { LOCI_DEFAULT_SORT } from '@antares/contract/endpoints';
import {
  type AlertRow,
  type CatalogMatchRow,
  type CompiledLocusSearch,
  compileLocusSearch,
  type LocusRow,
  parseLocusSort,
  type Repositories,
  type ThumbnailInfo,
} from '@antares/db';

import { badRequest, notFound } from '../errors.ts';
import { lightcurveCsv } from './lightcurve.ts';
import { parseJsonText } from './query-params.ts';

/** What `/v1/loci` was asked (validated against the contract: whole numbers in range, single values). */
export interface LocusListQuery {
  limit: number;
  offset: number;
  /** Comma-separated fields; empty or absent gives the default order. */
  sort?: string;
  /** The `elasticsearch_query[locus_listing]` JSON text. */
  search?: string;
  /** `page[seed]`: the order of a random listing, carried by links.next. */
  seed?: string;
}

export interface LocusListing {
  rows: LocusRow[];
  thumbnails: Map<string, ThumbnailInfo[]>;
  count: number;
  countIsEstimate: boolean;
  hasMore: boolean;
  limit: number;
  offset: number;
  /** The seed of a random listing without its own (`page[seed]`), for its `links.next`. */
  randomSeed?: string;
}

/** The `elasticsearch_query[...]` search document: only `query` may appear at its top level. */
function searchOf(text: string | undefined, key: 'locus_listing' | 'locus_listing_statistic') {
  const body = parseJsonText(`elasticsearch_query[${key}]`, text);
  if (body !== undefined && (typeof body !== 'object' || body === null || Array.isArray(body))) {
    throw badRequest(`elasticsearch_query[${key}] must be a JSON object such as {"query": {...}}`);
  }
  return compileLocusSearch(body);
}

/**
 * A random listing (`random_score`) without a seed of its own gets one, carried from page to page as
 * `page[seed]`: clients page through `links.next` (get_random_loci(n) reads n loci over several pages), and a
 * fresh order on each page would repeat some loci and skip others.
 */
function randomSeeded(search: CompiledLocusSearch, given: string | undefined): CompiledLocusSearch {
  if (!search.randomOrder || search.randomSeed !== undefined) return search;
  if (given !== undefined && !/^[0-9a-f]{1,32}$/.test(given)) throw badRequest('page[seed] must be the hexadecimal seed a links.next gave');
  return { ...search, randomSeed: given ?? randomBytes(8).toString('hex') };
}

export class LociService {
  constructor(private readonly repos: Repositories) {}

  async list({ limit, offset, sort: sortText, search: searchText, seed }: LocusListQuery): Promise<LocusListing> {
    const sort = (sortText || LOCI_DEFAULT_SORT).split(',').filter(Boolean).map(parseLocusSort);
    const asked = searchOf(searchText, 'locus_listing');
    const search = randomSeeded(asked, seed);
    const { rows, count, countIsEstimate, hasMore } = await this.repos.loci.search({ search, sort, limit, offset });
    const thumbnailAlertIds = rows.map((r) => r.newest_thumbnail_alert_id).filter((id): id is string => id !== null);
    const thumbnails = new Map<string, ThumbnailInfo[]>();
    for (const t of await this.repos.thumbnails.listForAlerts(thumbnailAlertIds)) {
      thumbnails.set(t.alert_id, [...(thumbnails.get(t.alert_id) ?? []), t]);
    }
    const pageSeed = asked.randomOrder && asked.randomSeed === undefined ? search.randomSeed : undefined;
    return { rows, thumbnails, count, countIsEstimate, hasMore, limit, offset, ...(pageSeed ? { randomSeed: pageSeed } : {}) };
  }

  async statistics(searchText: string | undefined) {
    return this.repos.loci.statistics(searchOf(searchText, 'locus_listing_statistic'));
  }

  async get(locusId: string): Promise<{
    locus: LocusRow;
    alerts: AlertRow[];
    thumbnails: ThumbnailInfo[];
    galactic: { l: number; b: number };
    lightcurve: string;
    matches: CatalogMatchRow[];
  }> {
    const locus = await this.repos.loci.findById(locusId);
    if (!locus) throw notFound(`No locus with id "${locusId}"`);
    const alerts = await this.repos.alerts.listByLocus(locusId);
    const thumbnails = locus.newest_thumbnail_alert_id ? await this.repos.thumbnails.listForAlerts([locus.newest_thumbnail_alert_id]) : [];
    const matches = await this.repos.catalogs.matchesOfLoci([locusId]);
    return { locus, alerts, thumbnails, galactic: icrsToGalactic(locus.ra, locus.dec), lightcurve: lightcurveCsv(alerts), matches };
  }

  async alerts(locusId: string): Promise<AlertRow[]> {
    const locus = await this.repos.loci.findById(locusId);
    if (!locus) throw notFound(`No locus with id "${locusId}"`);
    return this.repos.alerts.listByLocus(locusId);
  }
}
