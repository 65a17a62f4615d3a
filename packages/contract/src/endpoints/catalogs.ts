/** Catalog matches of loci, catalog samples and searches at a position. */
import Type from 'typebox';

import { allDocument, integerQuery, listDocument, pageQuery, pathParam, resource } from './common.ts';
import { endpoint } from './define.ts';

const tags = ['Catalogs'];

/** Catalog samples (`n` per catalog) are capped at this. */
export const CATALOG_SAMPLES_MAX = 100;

/** A catalog object matched to a locus: the catalog in meta and the id prefix only (ADR 0016). */
export const CatalogEntry = resource(
  'catalog_entry',
  {
    object_id: Type.String(),
    object_name: Type.String({ description: "The object's name, else its id" }),
    name: Type.String(),
    ra: Type.Number(),
    dec: Type.Number(),
    properties: Type.Record(Type.String(), Type.Unknown()),
  },
  {
    meta: {
      catalog_name: Type.String(),
      radius: Type.Union([Type.Number(), Type.Null()], { description: 'Match radius in arcsec; null for point sources' }),
      separation: Type.Number({ description: 'In arcsec' }),
    },
  },
);

export const CatalogSample = resource('catalog_sample', {
  object_id: Type.String(),
  catalog_name: Type.String(),
  data: Type.Record(Type.String(), Type.Unknown(), { description: "The catalog's whole row" }),
});

const SORTS = ['meta.separation', '-meta.separation'];

export const listCatalogMatches = endpoint({
  method: 'GET',
  path: '/v1/loci/:locusId/catalog-matches',
  operationId: 'list_catalog_matches',
  access: 'public',
  tags,
  summary: 'Catalog objects matched to a locus, nearest first',
  params: Type.Object({ locusId: pathParam('Locus id.') }),
  query: Type.Object({
    ...pageQuery(10),
    sort: Type.Optional(
      Type.Union(
        SORTS.map((sort) => Type.Literal(sort)),
        {
          default: SORTS[0],
          description: 'Field to sort on; a leading "-" sorts descending. Only meta.separation or -meta.separation.',
          'x-error': 'sort must be meta.separation or -meta.separation',
        },
      ),
    ),
  }),
  response: {
    status: 200,
    description: 'A page of catalog_entry resources (meta.separation and meta.radius in arcsec); meta.count, links.next',
    schema: listDocument(CatalogEntry),
  },
  errors: { 400: 'Bad page or sort', 404: 'No locus with this id' },
});

export const listCatalogSamples = endpoint({
  method: 'GET',
  path: '/v1/catalog_samples',
  operationId: 'list_catalog_samples',
  access: 'public',
  tags,
  summary: 'A few objects of every catalog',
  query: Type.Object({ n: integerQuery('n', 'Objects per catalog.', 1, CATALOG_SAMPLES_MAX, 5) }),
  response: { status: 200, description: 'catalog_sample resources; meta.count', schema: allDocument(CatalogSample) },
  errors: { 400: 'n out of range' },
});

export const catalogSearch = endpoint({
  method: 'GET',
  path: '/v1/catalog_search/:ra/:dec',
  operationId: 'catalog_search',
  access: 'public',
  tags,
  summary: 'Catalog objects matching a position (as a new locus there would be matched)',
  params: Type.Object({
    ra: Type.Number({
      minimum: 0,
      exclusiveMaximum: 360,
      description: 'Right ascension in degrees, 0 <= ra < 360.',
      'x-error': 'ra must be a number of degrees from 0 to 360',
    }),
    dec: Type.Number({
      minimum: -90,
      maximum: 90,
      description: 'Declination in degrees, -90..90.',
      'x-error': 'dec must be a number of degrees from -90 to 90',
    }),
  }),
  response: { status: 200, description: 'catalog_sample resources; meta.count', schema: allDocument(CatalogSample) },
  errors: { 400: 'ra or dec is not a number in range' },
});
