/** Catalog matches of loci, catalog samples and searches at a position (routes/catalogs). */
import { fail, jsonApi, op, page, pathParam, type Paths, queryParam, sort } from '../shared.ts';

const tags = ['Catalogs'];

export const catalogPaths: Paths = {
  '/v1/loci/{locusId}/catalog-matches': {
    get: op('get', 'public', {
      tags,
      operationId: 'list_catalog_matches',
      summary: 'Catalog objects matched to a locus, nearest first',
      parameters: [pathParam('locusId', 'Locus id.'), ...page(10), sort('meta.separation', 'Only meta.separation or -meta.separation.')],
      responses: {
        200: jsonApi('A page of catalog_entry resources (meta.separation and meta.radius in arcsec); meta.count, links.next'),
        ...fail({ 400: 'Bad page or sort', 404: 'No locus with this id' }),
      },
    }),
  },
  '/v1/catalog_samples': {
    get: op('get', 'public', {
      tags,
      operationId: 'list_catalog_samples',
      summary: 'A few objects of every catalog',
      parameters: [queryParam('n', 'Objects per catalog.', { type: 'integer', minimum: 1, maximum: 100, default: 5 })],
      responses: { 200: jsonApi('catalog_sample resources; meta.count'), ...fail({ 400: 'n out of range' }) },
    }),
  },
  '/v1/catalog_search/{ra}/{dec}': {
    get: op('get', 'public', {
      tags,
      operationId: 'catalog_search',
      summary: 'Catalog objects matching a position (as a new locus there would be matched)',
      parameters: [
        pathParam('ra', 'Right ascension in degrees, 0 <= ra < 360.', { type: 'number', minimum: 0, exclusiveMaximum: 360 }),
        pathParam('dec', 'Declination in degrees, -90..90.', { type: 'number', minimum: -90, maximum: 90 }),
      ],
      responses: { 200: jsonApi('catalog_sample resources; meta.count'), ...fail({ 400: 'ra or dec is not a number in range' }) },
    }),
  },
};
