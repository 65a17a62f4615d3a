import type { ResourceObject } from '@antares/contract';
import type { CatalogMatchRow } from '@antares/db';

/** A `catalog_entry` (wire format section 2): radius in arcsec (null for point sources), separation in arcsec. */
export function catalogEntryResource(match: CatalogMatchRow): ResourceObject {
  return {
    type: 'catalog_entry',
    id: `${match.catalog_name}:${match.object_key}`,
    attributes: {
      object_id: match.object_key,
      object_name: match.object_name,
      name: match.object_name ?? match.object_key,
      ra: match.ra,
      dec: match.dec,
      properties: match.properties,
      catalog: match.catalog_name,
    },
    meta: {
      catalog_name: match.catalog_name,
      radius: match.catalog_kind === 'point' ? null : match.radius * 3600,
      separation: match.separation * 3600,
    },
  };
}

/** A `catalog_sample` (wire format: `id` is the object's own id), its catalog and the whole row. */
export function catalogSampleResource(sample: { catalog_name: string; object_key: string; ra: number; dec: number; properties: Record<string, unknown> }): ResourceObject {
  return {
    type: 'catalog_sample',
    id: sample.object_key,
    attributes: { object_id: sample.object_key, catalog_name: sample.catalog_name, data: sample.properties },
  };
}
