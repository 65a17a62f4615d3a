import type { LocusRow, ThumbnailInfo } from '@antares/db';
import type { ResourceObject } from '@antares/contract';
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

/** `/v1/loci/{id}` (type locus): the listing attributes plus the lightcurve CSV. */
export function locusResource(base: string, locus: LocusRow, lightcurve: string): ResourceObject {
  return {
    type: 'locus',
    id: locus.locus_id,
    attributes: { ...locusAttributes(locus), lightcurve },
    relationships: {
      alerts: { links: { related: `${base}/v1/loci/${locus.locus_id}/alerts` } },
      catalog_matches: { links: { related: `${base}/v1/loci/${locus.locus_id}/catalog-matches` } },
    },
    links: { self: `${base}/v1/loci/${locus.locus_id}` },
  };
}
