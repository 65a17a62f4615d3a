/** Locus annotations (a comment and a favorite flag per locus and owner) and the favorites relationship. */
import Type from 'typebox';

import { LIMITS } from '../validation.ts';
import { listDocument, numericPathParam, pageQuery, resource, resourceBody, singleDocument, toOne } from './common.ts';
import { endpoint } from './define.ts';

const tags = ['Users'];
const SELF_OR_ADMIN = 'Only the user or an admin may call it for this user.';
const SELF_ONLY = 'Only the user may call it for this user (administrators too are refused).';

/** Annotations of a user come in pages of up to this many (the favorites page reads them all). */
export const ANNOTATION_PAGE_LIMIT = 1000;

export const LocusAnnotation = resource(
  'locus_annotation',
  {
    comment: Type.Union([Type.String(), Type.Null()]),
    favorited: Type.Boolean(),
    created_at: Type.String({ format: 'date-time' }),
    updated_at: Type.String({ format: 'date-time' }),
  },
  { relationships: { owner: toOne('user'), locus: toOne('locus') } },
);

const attributes = Type.Object({
  comment: Type.Optional(Type.String({ maxLength: LIMITS.commentMax })),
  favorited: Type.Optional(Type.Boolean()),
});
const userId = Type.Object({ userId: numericPathParam('user') });

const annotationBody = (owner: boolean) => ({
  ...resourceBody('locus_annotation', attributes, { locus: toOne('locus'), ...(owner ? { owner: toOne('user') } : {}) }),
  description: `The locus is required (relationships.locus, or \`locus_id\` in a plain body)${owner ? '; the owner, if given, must be the caller' : ''}.`,
});
const created = {
  status: 201,
  description: 'The new locus_annotation resource',
  schema: singleDocument(LocusAnnotation),
};
const CREATE_ERRORS = {
  400: 'No locus given, or a bad comment',
  403: 'The owner is another user',
  404: 'No such user or locus',
  409: 'The owner already has an annotation of this locus (update it instead)',
};

export const listLocusAnnotations = endpoint({
  method: 'GET',
  path: '/v1/users/:userId/locus_annotations',
  operationId: 'list_locus_annotations',
  access: 'login',
  tags,
  summary: "The user's locus annotations (comments and favorites)",
  description: SELF_OR_ADMIN,
  params: userId,
  query: Type.Object(pageQuery(ANNOTATION_PAGE_LIMIT)),
  response: {
    status: 200,
    description: 'A page of locus_annotation resources; meta.count, links.next',
    schema: listDocument(LocusAnnotation),
  },
  errors: { 400: 'Bad page', 403: "Another user's annotations", 404: 'No such user' },
});

export const createUserLocusAnnotation = endpoint({
  method: 'POST',
  path: '/v1/users/:userId/locus_annotations',
  operationId: 'create_user_locus_annotation',
  operation: 'create_locus_annotation',
  access: 'login',
  tags,
  summary: 'Annotate a locus for the user',
  description: SELF_ONLY,
  params: userId,
  body: annotationBody(false),
  response: created,
  errors: CREATE_ERRORS,
});

export const createLocusAnnotation = endpoint({
  method: 'POST',
  path: '/v1/locus_annotations',
  operationId: 'create_locus_annotation',
  access: 'login',
  tags,
  summary: 'Annotate a locus (for the caller)',
  body: annotationBody(true),
  response: created,
  errors: CREATE_ERRORS,
});

export const updateLocusAnnotation = endpoint({
  method: 'PATCH',
  path: '/v1/locus_annotations/:annotationId',
  operationId: 'update_locus_annotation',
  access: 'login',
  tags,
  summary: 'Change the comment or favorite flag of an annotation',
  description: 'Only its owner may.',
  params: Type.Object({ annotationId: numericPathParam('locus annotation') }),
  body: resourceBody('locus_annotation', attributes),
  response: { status: 200, description: 'The updated locus_annotation resource', schema: singleDocument(LocusAnnotation) },
  errors: { 400: 'Bad comment or favorited', 403: "Another user's annotation", 404: 'No such annotation' },
});

const favoriteLoci = Type.Object({
  data: Type.Array(Type.Object({ type: Type.Literal('locus'), id: Type.String() })),
});

export const addFavoriteLoci = endpoint({
  method: 'POST',
  path: '/v1/users/:userId/relationships/favorite_loci',
  operationId: 'add_favorite_loci',
  access: 'login',
  tags,
  summary: 'Mark loci as favorites',
  description: SELF_ONLY,
  params: userId,
  body: { kind: 'plain', schema: favoriteLoci },
  response: { status: 204, description: 'Done' },
  errors: {
    400: 'The body is not {"data": [{"type": "locus", "id": ...}, ...]}',
    403: "Another user's favorites",
    404: 'No such user or locus',
  },
});

export const removeFavoriteLoci = endpoint({
  method: 'DELETE',
  path: '/v1/users/:userId/relationships/favorite_loci',
  operationId: 'remove_favorite_loci',
  access: 'login',
  tags,
  summary: 'Unmark favorite loci',
  description: SELF_ONLY,
  params: userId,
  body: { kind: 'plain', schema: favoriteLoci },
  response: { status: 204, description: 'Done' },
  errors: { 400: 'The body is not {"data": [{"type": "locus", "id": ...}, ...]}', 403: "Another user's favorites", 404: 'No such user' },
});
