import type { ResourceObject } from '@antares/contract';
import type { CatalogMatchRow } from '@antares/db';

// The published antares-client loads catalog entries with its own schema (marshmallow-jsonapi): every
// attribute it declares must have the type it declares. `object_name` is a string there (an object
// without a name gives its id), and the catalog is named in `meta.catalog_name` and the id prefix only:
// the schema declares `catalog` a relationship, so a plain `catalog` attribute breaks its load (ADR 0016).

/** The catalog object's name, else its id: never null. */
function objectName(match: { object_name: string | null; object_key: string }): string {
  return match.object_name ?? match.object_key;
}

/** A `catalog_entry` (wire format section 2): radius in arcsec (null for point sources), separation in arcsec. */
export function catalogEntryResource(match: CatalogMatchRow): ResourceObject {
  return {
    type: 'catalog_entry',
    id: `${match.catalog_name}:${match.object_key}`,
    attributes: {
      object_id: match.object_key,
      object_name: objectName(match),
      name: objectName(match),
      ra: match.ra,
      dec: match.dec,
      properties: match.properties,
    },
    meta: {
      catalog_name: match.catalog_name,
      radius: match.catalog_kind === 'point' ? null : match.radius * 3600,
      separation: match.separation * 3600,
    },
  };
}

/**
 * One item of a locus' `catalog_matches` attribute (`/v1/loci/{id}`): the match without the catalog row,
 * which `/v1/loci/{id}/catalog-matches` serves. A list of plain objects, as the client's locus schema reads it.
 */
export function catalogMatchSummary(match: CatalogMatchRow): Record<string, unknown> {
  return {
    id: `${match.catalog_name}:${match.object_key}`,
    catalog_name: match.catalog_name,
    object_id: match.object_key,
    object_name: objectName(match),
    ra: match.ra,
    dec: match.dec,
    radius: match.catalog_kind === 'point' ? null : match.radius * 3600,
    separation: match.separation * 3600,
  };
}

/** A `catalog_sample` (wire format: `id` is the object's own id), its catalog and the whole row. */
export function catalogSampleResource(sample: {
  catalog_name: string;
  object_key: string;
  ra: number;
  dec: number;
  properties: Record<string, unknown>;
}): ResourceObject {
  return {
    type: 'catalog_sample',
    id: sample.object_key,
    attributes: { object_id: sample.object_key, catalog_name: sample.catalog_name, data: sample.properties },
  };
}
