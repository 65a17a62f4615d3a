/** Watch lists: positions whose new alerts mark their locus and tell a chat channel. */
import Type from 'typebox';

import { LIMITS } from '../validation.ts';
import { listDocument, numericPathParam, pageQuery, resource, resourceBody, singleDocument, sortQuery, toOne } from './common.ts';
import { endpoint } from './define.ts';

const tags = ['Watch lists'];
const HIDDEN = 'Another user\'s list is "not found" (administrators may read every list).';

/** 100,000 objects of about 100 bytes each in one request. */
export const WATCH_LIST_BODY_LIMIT = 64 * 1024 * 1024;

export const WatchObject = Type.Object({
  id: Type.String(),
  right_ascension: Type.Number({ description: 'Degrees' }),
  declination: Type.Number({ description: 'Degrees' }),
  radius: Type.Number({ description: 'Degrees' }),
  comment: Type.Union([Type.String(), Type.Null()]),
  created_at: Type.String({ format: 'date-time' }),
});

/** A watch list; the single-list answer adds `matched_loci` and (unless `fields[watch_list]` leaves them out) its objects. */
export const WatchList = resource(
  'watch_list',
  {
    name: Type.String(),
    description: Type.String(),
    slack_channel: Type.Union([Type.String(), Type.Null()]),
    created_at: Type.String({ format: 'date-time' }),
    object_count: Type.Integer(),
    history_matched_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
      description: 'When the list was matched against the stored alerts; null while that waits or runs',
    }),
    matched_loci: Type.Optional(Type.Integer({ description: 'Only in the single-list answer: loci matched so far' })),
    objects: Type.Optional(Type.Array(WatchObject, { description: 'Only in the single-list answer: every object, newest first' })),
  },
  { relationships: { owner: toOne('user') } },
);

const newWatchObject = Type.Object({
  right_ascension: Type.Number({ minimum: 0, maximum: 360, description: 'Degrees' }),
  declination: Type.Number({ minimum: -90, maximum: 90, description: 'Degrees' }),
  radius: Type.Number({ minimum: 0, maximum: LIMITS.watchRadiusMaxDeg, description: 'Degrees' }),
  comment: Type.Optional(Type.String({ maxLength: LIMITS.watchObjectCommentMax })),
});

const userId = Type.Object({ userId: numericPathParam('user') });
const listId = Type.Object({ id: numericPathParam('watch list') });

export const createWatchList = endpoint({
  method: 'POST',
  path: '/v1/users/:userId/watch_lists',
  operationId: 'create_watch_list',
  access: 'login',
  tags,
  summary: 'Create a watch list',
  description: `Only the user may create lists for themselves. Up to ${LIMITS.watchObjectsMax.toLocaleString('en')} objects in one request (body limit 64 MiB).`,
  params: userId,
  bodyLimit: WATCH_LIST_BODY_LIMIT,
  body: resourceBody(
    'watch_list',
    Type.Object({
      name: Type.String({ maxLength: LIMITS.watchListNameMax }),
      description: Type.String({ maxLength: LIMITS.watchListDescriptionMax }),
      slack_channel: Type.Optional(Type.String({ maxLength: LIMITS.slackChannelMax, description: 'Where new matches are announced' })),
      objects: Type.Array(newWatchObject, { minItems: 1, maxItems: LIMITS.watchObjectsMax }),
    }),
  ),
  response: {
    status: 201,
    description: 'The new watch_list resource (object_count, without the objects)',
    schema: singleDocument(WatchList),
  },
  errors: {
    400: 'A missing or invalid field (source.pointer names it, e.g. /data/attributes/objects/3/radius)',
    403: 'Creating a list for another user',
    404: 'No such user',
    413: 'Request body over 64 MiB',
  },
});

export const listWatchLists = endpoint({
  method: 'GET',
  path: '/v1/users/:userId/watch_lists',
  operationId: 'list_watch_lists',
  access: 'login',
  tags,
  summary: "A user's watch lists",
  description: 'Only the user or an admin may call it for this user.',
  params: userId,
  query: Type.Object({ ...pageQuery(25), ...sortQuery('-created_at', 'One of created_at, name, id.') }),
  response: {
    status: 200,
    description: 'A page of watch_list resources (without their objects); meta.count, links.next',
    schema: listDocument(WatchList),
  },
  errors: { 400: 'Bad page or sort field', 403: "Another user's lists", 404: 'No such user' },
});

export const getWatchList = endpoint({
  method: 'GET',
  path: '/v1/watch_lists/:id',
  operationId: 'get_watch_list',
  access: 'login',
  tags,
  summary: 'One watch list with all its objects',
  description: HIDDEN,
  params: listId,
  query: Type.Object({
    'fields[watch_list]': Type.Optional(
      Type.String({
        description: 'Comma-separated attributes to return (e.g. history_matched_at,matched_loci: the matching state without the objects).',
      }),
    ),
  }),
  response: {
    status: 200,
    description:
      'A watch_list resource with attributes.objects and matched_loci (loci matched so far); history_matched_at is null while the list is being matched against the stored alerts',
    schema: singleDocument(WatchList),
  },
  errors: { 404: "No such watch list (or another user's)" },
});

export const deleteWatchList = endpoint({
  method: 'DELETE',
  path: '/v1/watch_lists/:id',
  operationId: 'delete_watch_list',
  access: 'login',
  tags,
  summary: 'Delete a watch list',
  description: `Only its owner may. ${HIDDEN}`,
  params: listId,
  response: { status: 204, description: 'Deleted' },
  errors: { 403: "An administrator deleting another user's list", 404: "No such watch list (or another user's)" },
});
