/** Accounts, annotations, favorites and announcements (routes/users, annotations, announcements). */
import { ANNOUNCEMENT_VARIANTS, LIMITS } from '@antares/contract';

import {
  fail,
  identifier,
  type Json,
  jsonApi,
  jsonApiBody,
  noContent,
  numericPathParam,
  op,
  page,
  type Paths,
  queryParam,
  sort,
  toOne,
} from '../shared.ts';

const users = ['Users'];
const announcements = ['Announcements'];
const userId = numericPathParam('userId', 'user');
const SELF_OR_ADMIN = 'Only the user or an admin may call it for this user.';
const SELF_ONLY = 'Only the user may call it for this user (administrators too are refused).';

const annotationAttributes = {
  comment: { type: 'string', maxLength: LIMITS.commentMax },
  favorited: { type: 'boolean' },
};
const annotationBody = (owner: boolean) =>
  jsonApiBody('locus_annotation', annotationAttributes, {
    relationships: { locus: toOne('locus'), ...(owner ? { owner: toOne('user') } : {}) },
    description: `The locus is required (relationships.locus, or \`locus_id\` in a plain body)${owner ? '; the owner, if given, must be the caller' : ''}.`,
  });
const createdAnnotation = {
  201: jsonApi('The new locus_annotation resource'),
  ...fail({
    400: 'No locus given, or a bad comment',
    403: 'The owner is another user',
    404: 'No such user or locus',
    409: 'The owner already has an annotation of this locus (update it instead)',
  }),
};

const favorites = (method: 'post' | 'delete'): Json =>
  op(method, 'login', {
    tags: users,
    operationId: method === 'post' ? 'add_favorite_loci' : 'remove_favorite_loci',
    summary: method === 'post' ? 'Mark loci as favorites' : 'Unmark favorite loci',
    description: SELF_ONLY,
    parameters: [userId],
    requestBody: {
      required: true,
      content: {
        'application/json': {
          schema: { type: 'object', required: ['data'], properties: { data: { type: 'array', items: identifier('locus') } } },
        },
      },
    },
    responses: {
      204: noContent('Done'),
      ...fail({
        400: 'The body is not {"data": [{"type": "locus", "id": ...}, ...]}',
        403: "Another user's favorites",
        404: method === 'post' ? 'No such user or locus' : 'No such user',
      }),
    },
  });

export const accountPaths: Paths = {
  '/v1/users/{userId}/locus_annotations': {
    get: op('get', 'login', {
      tags: users,
      operationId: 'list_locus_annotations',
      summary: "The user's locus annotations (comments and favorites)",
      description: SELF_OR_ADMIN,
      parameters: [userId, ...page(1000)],
      responses: {
        200: jsonApi('A page of locus_annotation resources; meta.count, links.next'),
        ...fail({ 400: 'Bad page', 403: "Another user's annotations", 404: 'No such user' }),
      },
    }),
    post: op('post', 'login', {
      tags: users,
      operationId: 'create_user_locus_annotation',
      summary: 'Annotate a locus for the user',
      description: SELF_ONLY,
      parameters: [userId],
      requestBody: annotationBody(false),
      responses: createdAnnotation,
    }),
  },
  '/v1/locus_annotations': {
    post: op('post', 'login', {
      tags: users,
      operationId: 'create_locus_annotation',
      summary: 'Annotate a locus (for the caller)',
      requestBody: annotationBody(true),
      responses: createdAnnotation,
    }),
  },
  '/v1/locus_annotations/{annotationId}': {
    patch: op('patch', 'login', {
      tags: users,
      operationId: 'update_locus_annotation',
      summary: 'Change the comment or favorite flag of an annotation',
      description: 'Only its owner may.',
      parameters: [numericPathParam('annotationId', 'locus annotation')],
      requestBody: jsonApiBody('locus_annotation', annotationAttributes),
      responses: {
        200: jsonApi('The updated locus_annotation resource'),
        ...fail({ 400: 'Bad comment or favorited', 403: "Another user's annotation", 404: 'No such annotation' }),
      },
    }),
  },
  '/v1/users/{userId}/relationships/favorite_loci': { post: favorites('post'), delete: favorites('delete') },
  '/v1/announcements': {
    get: op('get', 'public', {
      tags: announcements,
      operationId: 'list_announcements',
      summary: 'Announcements (the site banners)',
      parameters: [
        ...page(100),
        sort('-active', 'One of id, message, variant, active, created_at.'),
        queryParam(
          'filter',
          'JSON list of {"field", "op", "value"} (op: eq, ne, lt, le, gt, ge, in) over id, message, variant, active, created_at; e.g. [{"field":"active","op":"eq","value":true}].',
        ),
      ],
      responses: { 200: jsonApi('A page of announcement resources; meta.count, links.next'), ...fail({ 400: 'Bad page, sort or filter' }) },
    }),
    post: op('post', 'admin', {
      tags: announcements,
      operationId: 'create_announcement',
      summary: 'Create an announcement',
      requestBody: jsonApiBody(
        'announcement',
        {
          message: { type: 'string', maxLength: LIMITS.announcementMessageMax },
          variant: { type: 'string', enum: [...ANNOUNCEMENT_VARIANTS], default: 'info' },
          active: { type: 'boolean', default: false },
        },
        { required: ['message'] },
      ),
      responses: { 201: jsonApi('The new announcement resource'), ...fail({ 400: 'Missing or too long message, or an unknown variant' }) },
    }),
  },
  '/v1/announcements/{id}': {
    patch: op('patch', 'admin', {
      tags: announcements,
      operationId: 'update_announcement',
      summary: 'Show or hide an announcement',
      parameters: [numericPathParam('id', 'announcement')],
      requestBody: jsonApiBody('announcement', { active: { type: 'boolean' } }, { required: ['active'] }),
      responses: {
        200: jsonApi('The updated announcement resource'),
        ...fail({ 400: 'active: Field is required.', 404: 'No such announcement' }),
      },
    }),
  },
};
