import type { ResourceObject } from '@antares/contract';
import type { CatalogMatchRow, LocusRow, ThumbnailInfo } from '@antares/db';

import { catalogMatchSummary } from './catalog.ts';
import { newestThumbnailsMeta } from './thumbnail.ts';

function locusAttributes(locus: LocusRow): Record<string, unknown> {
  return {
    ra: locus.ra,
    dec: locus.dec,
    htm16: locus.htm16,
    properties: locus.properties,
    tags: locus.tags,
    catalogs: locus.catalogs,
    grav_wave_events: locus.grav_wave_events,
  };
}

function pick(attributes: Record<string, unknown>, fields?: Set<string>): Record<string, unknown> {
  if (!fields) return attributes;
  return Object.fromEntries(Object.entries(attributes).filter(([key]) => fields.has(key)));
}

/** An item of `/v1/loci` (type locus_listing). */
export function locusListingResource(base: string, locus: LocusRow, thumbnails: ThumbnailInfo[], fields?: Set<string>): ResourceObject {
  return {
    type: 'locus_listing',
    id: locus.locus_id,
    attributes: { ...pick(locusAttributes(locus), fields) },
    relationships: {
      alerts: { links: { related: `${base}/v1/loci/${locus.locus_id}/alerts` } },
      locus: { links: { related: `${base}/v1/loci/${locus.locus_id}` } },
    },
    links: { self: `${base}/v1/loci/${locus.locus_id}` },
    meta: { newest_thumbnails: newestThumbnailsMeta(base, thumbnails) },
  };
}

/**
 * `/v1/loci/{id}` (type locus): the listing attributes plus the lightcurve CSV and `catalog_matches`, the
 * locus' matches nearest first (left out of stream messages, which snapshot the locus without them). That one
 * is an attribute holding a list, never a relationship: the published client's locus schema declares it a
 * list of objects and refuses anything else (ADR 0016).
 */
export function locusResource(base: string, locus: LocusRow, lightcurve: string, matches?: CatalogMatchRow[]): ResourceObject {
  return {
    type: 'locus',
    id: locus.locus_id,
    attributes: { ...locusAttributes(locus), lightcurve, ...(matches ? { catalog_matches: matches.map(catalogMatchSummary) } : {}) },
    relationships: {
      alerts: { links: { related: `${base}/v1/loci/${locus.locus_id}/alerts` } },
    },
    links: { self: `${base}/v1/loci/${locus.locus_id}` },
  };
}

/** `/v1/loci/{id}`: the locus with its galactic coordinates (in its meta and the document's, as clients read either). */
export function locusDocument(
  base: string,
  found: {
    locus: LocusRow;
    lightcurve: string;
    matches: CatalogMatchRow[];
    thumbnails: ThumbnailInfo[];
    galactic: { l: number; b: number };
  },
) {
  const { locus, galactic } = found;
  return {
    data: { ...locusResource(base, locus, found.lightcurve, found.matches), meta: { coordinates: { galactic } } },
    links: { self: `${base}/v1/loci/${locus.locus_id}` },
    meta: { coordinates: { galactic }, newest_thumbnails: newestThumbnailsMeta(base, found.thumbnails) },
  };
}

/** `/v1/loci/statistics`: tag and catalog counts and the measurement range of the loci a search matches. */
export function locusStatisticResource(stats: {
  tags: Record<string, number>;
  catalogs: Record<string, number>;
  minNumMeasurements: number | null;
  maxNumMeasurements: number | null;
}): ResourceObject {
  return {
    type: 'locus_listing_statistic',
    id: 'locus_listing_statistic',
    attributes: {
      tags: stats.tags,
      catalogs: stats.catalogs,
      min_num_measurements: stats.minNumMeasurements,
      max_num_measurements: stats.maxNumMeasurements,
    },
  };
}
