/**
 * Building blocks of the endpoint schemas: paging, sorting, path parameters, JSON:API documents. Each
 * parameter's description is the one the OpenAPI document shows; `x-error` and `x-not-found` word the
 * answer to a value that fails (define.ts).
 */
import Type, { type TObject, type TProperties, type TSchema } from 'typebox';

import { PAGE_LIMIT_MAX, PAGE_LIMIT_MIN } from '../paging.ts';

// --- Parameters ---------------------------------------------------------------------------------------

/** `page[limit]` (1..1000, the endpoint's own default) and `page[offset]`; anything else is a 400 naming it. */
export const pageQuery = (defaultLimit: number) => ({
  'page[limit]': Type.Optional(
    Type.Integer({
      minimum: PAGE_LIMIT_MIN,
      maximum: PAGE_LIMIT_MAX,
      default: defaultLimit,
      description: `Page size (${PAGE_LIMIT_MIN}..${PAGE_LIMIT_MAX}).`,
      'x-error': `page[limit] must be a whole number from ${PAGE_LIMIT_MIN} to ${PAGE_LIMIT_MAX}, got "{value}"`,
    }),
  ),
  'page[offset]': Type.Optional(
    Type.Integer({
      minimum: 0,
      // Past 2^53 a number is no longer exact (and the database refuses it).
      maximum: Number.MAX_SAFE_INTEGER,
      default: 0,
      description: 'Items to skip.',
      'x-error': 'page[offset] must be a whole number of 0 or more, got "{value}"',
    }),
  ),
});

/** `sort`: a field, `-` first for descending; `fields` lists them ("One of a, b." is read by the fuzz test). */
export const sortQuery = (fallback: string, fields?: string) => ({
  sort: Type.Optional(
    Type.String({ default: fallback, description: `Field to sort on; a leading "-" sorts descending.${fields ? ` ${fields}` : ''}` }),
  ),
});

/** A whole number within bounds, as a query parameter. */
export const integerQuery = (name: string, description: string, min: number, max: number, fallback: number) =>
  Type.Optional(
    Type.Integer({
      minimum: min,
      maximum: max,
      default: fallback,
      description,
      'x-error': `${name} must be a whole number from ${min} to ${max}`,
    }),
  );

export const pathParam = (description: string, options: Record<string, unknown> = {}) => Type.String({ description, ...options });

/** The numeric ids of users, filters, versions, annotations and watch lists: anything else is a 404. */
export const numericPathParam = (what: string) =>
  Type.String({
    pattern: '^\\d{1,15}$',
    description: `Id of the ${what} (digits; anything else answers 404).`,
    'x-not-found': `No ${what} with id "{value}"`,
  });

// --- Documents ------------------------------------------------------------------------------------------

const links = Type.Object({ self: Type.String(), next: Type.Optional(Type.String()) });

/**
 * A JSON:API resource object of `type` with these attributes. Relationships and meta, when given, are
 * typed but optional members (the server leaves them out of some answers, e.g. sparse fieldsets).
 */
export function resource<A extends TProperties, M extends TProperties = TProperties, R extends TProperties = TProperties>(
  type: string,
  attributes: A,
  options: { meta?: M; relationships?: R; links?: boolean } = {},
) {
  return Type.Object({
    type: Type.Literal(type),
    id: Type.String(),
    attributes: Type.Object(attributes),
    relationships: Type.Optional(Type.Object(options.relationships ?? ({} as R))),
    meta: Type.Optional(Type.Object(options.meta ?? ({} as M))),
    ...(options.links ? { links: Type.Optional(Type.Record(Type.String(), Type.String())) } : {}),
  });
}

/** A relationship to one resource, `{"data": {"type", "id"}}`. */
export const toOne = (type: string) => Type.Object({ data: Type.Object({ type: Type.Literal(type), id: Type.String() }) });

/** A page of resources: `data`, `links.self` and `links.next` (all but the last page), `meta.count`. */
export const listDocument = <R extends TSchema>(item: R) =>
  Type.Object({ data: Type.Array(item), links, meta: Type.Object({ count: Type.Integer() }) });

/** A list without paging: `data` and `meta.count`. */
export const allDocument = <R extends TSchema>(item: R) =>
  Type.Object({ data: Type.Array(item), meta: Type.Object({ count: Type.Integer() }) });

/** One resource in `data`. */
export const singleDocument = <R extends TSchema>(item: R) => Type.Object({ data: item, links: Type.Optional(links) });

/** The attributes of a resource body, as JSON:API `data.attributes` or as plain JSON (define.ts BodySpec). */
export const resourceBody = <A extends TObject>(type: string, attributes: A, relationships?: Record<string, TSchema>) => ({
  kind: 'resource' as const,
  type,
  schema: attributes,
  ...(relationships ? { relationships } : {}),
});
