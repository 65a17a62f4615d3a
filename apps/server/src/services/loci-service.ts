import {
  compileLocusSearch, parseLocusSort, type LocusRow, type Repositories, type ThumbnailInfo, type AlertRow,
} from '@antares/db';
import { icrsToGalactic } from '@antares/astro';
import { notFound } from '../errors.ts';
import { lightcurveCsv } from './lightcurve.ts';
import { pageOf, parseJsonParam, single, type QueryParams } from './query-params.ts';
import { badRequest } from '../errors.ts';

const DEFAULT_SORT = '-properties.newest_alert_observation_time';

export interface LocusListing {
  rows: LocusRow[];
  thumbnails: Map<string, ThumbnailInfo[]>;
  count: number;
  countIsEstimate: boolean;
  hasMore: boolean;
  limit: number;
  offset: number;
}

/** The `elasticsearch_query[...]` search document: only `query` may appear at its top level. */
function searchOf(query: QueryParams, key: 'locus_listing' | 'locus_listing_statistic') {
  const body = parseJsonParam(query, `elasticsearch_query[${key}]`);
  if (body !== undefined && (typeof body !== 'object' || body === null || Array.isArray(body))) {
    throw badRequest(`elasticsearch_query[${key}] must be a JSON object such as {"query": {...}}`);
  }
  return compileLocusSearch(body);
}

export class LociService {
  constructor(private readonly repos: Repositories) {}

  async list(query: QueryParams): Promise<LocusListing> {
    const { limit, offset } = pageOf(query);
    const sortText = single(query, 'sort') || DEFAULT_SORT;
    const sort = sortText.split(',').filter(Boolean).map(parseLocusSort);
    const search = searchOf(query, 'locus_listing');
    const { rows, count, countIsEstimate, hasMore } = await this.repos.loci.search({ search, sort, limit, offset });
    const thumbnailAlertIds = rows.map((r) => r.newest_thumbnail_alert_id).filter((id): id is string => id !== null);
    const thumbnails = new Map<string, ThumbnailInfo[]>();
    for (const t of await this.repos.thumbnails.listForAlerts(thumbnailAlertIds)) {
      thumbnails.set(t.alert_id, [...(thumbnails.get(t.alert_id) ?? []), t]);
    }
    return { rows, thumbnails, count, countIsEstimate, hasMore, limit, offset };
  }

  async statistics(query: QueryParams) {
    return this.repos.loci.statistics(searchOf(query, 'locus_listing_statistic'));
  }

  async get(locusId: string): Promise<{ locus: LocusRow; alerts: AlertRow[]; thumbnails: ThumbnailInfo[]; galactic: { l: number; b: number }; lightcurve: string }> {
    const locus = await this.repos.loci.findById(locusId);
    if (!locus) throw notFound(`No locus with id "${locusId}"`);
    const alerts = await this.repos.alerts.listByLocus(locusId);
    const thumbnails = locus.newest_thumbnail_alert_id
      ? await this.repos.thumbnails.listForAlerts([locus.newest_thumbnail_alert_id])
      : [];
    return { locus, alerts, thumbnails, galactic: icrsToGalactic(locus.ra, locus.dec), lightcurve: lightcurveCsv(alerts) };
  }

  async alerts(locusId: string): Promise<AlertRow[]> {
    const locus = await this.repos.loci.findById(locusId);
    if (!locus) throw notFound(`No locus with id "${locusId}"`);
    return this.repos.alerts.listByLocus(locusId);
  }
}
