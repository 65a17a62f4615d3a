/** Watch lists: positions whose new alerts mark their locus and tell a chat channel (routes/watch-lists). */
import { LIMITS } from '@antares/contract';

import { fail, jsonApi, jsonApiBody, noContent, numericPathParam, op, page, type Paths, queryParam, sort } from '../shared.ts';

const tags = ['Watch lists'];
const userId = numericPathParam('userId', 'user');
const listId = numericPathParam('id', 'watch list');
const HIDDEN = 'Another user\'s list is "not found" (administrators may read every list).';

const watchObject = {
  type: 'object',
  required: ['right_ascension', 'declination', 'radius'],
  properties: {
    right_ascension: { type: 'number', minimum: 0, maximum: 360, description: 'Degrees' },
    declination: { type: 'number', minimum: -90, maximum: 90, description: 'Degrees' },
    radius: { type: 'number', minimum: 0, maximum: LIMITS.watchRadiusMaxDeg, description: 'Degrees' },
    comment: { type: 'string', maxLength: LIMITS.watchObjectCommentMax },
  },
};

export const watchListPaths: Paths = {
  '/v1/users/{userId}/watch_lists': {
    post: op('post', 'login', {
      tags,
      operationId: 'create_watch_list',
      summary: 'Create a watch list',
      description: `Only the user may create lists for themselves. Up to ${LIMITS.watchObjectsMax.toLocaleString('en')} objects in one request (body limit 64 MiB).`,
      parameters: [userId],
      requestBody: jsonApiBody(
        'watch_list',
        {
          name: { type: 'string', maxLength: LIMITS.watchListNameMax },
          description: { type: 'string', maxLength: LIMITS.watchListDescriptionMax },
          slack_channel: { type: 'string', maxLength: LIMITS.slackChannelMax, description: 'Where new matches are announced' },
          objects: { type: 'array', minItems: 1, maxItems: LIMITS.watchObjectsMax, items: watchObject },
        },
        { required: ['name', 'description', 'objects'] },
      ),
      responses: {
        201: jsonApi('The new watch_list resource (object_count, without the objects)'),
        ...fail({
          400: 'A missing or invalid field (source.pointer names it, e.g. /data/attributes/objects/3/radius)',
          403: 'Creating a list for another user',
          404: 'No such user',
          413: 'Request body over 64 MiB',
        }),
      },
    }),
    get: op('get', 'login', {
      tags,
      operationId: 'list_watch_lists',
      summary: "A user's watch lists",
      description: 'Only the user or an admin may call it for this user.',
      parameters: [userId, ...page(25), sort('-created_at', 'One of created_at, name, id.')],
      responses: {
        200: jsonApi('A page of watch_list resources (without their objects); meta.count, links.next'),
        ...fail({ 400: 'Bad page or sort field', 403: "Another user's lists", 404: 'No such user' }),
      },
    }),
  },
  '/v1/watch_lists/{id}': {
    get: op('get', 'login', {
      tags,
      operationId: 'get_watch_list',
      summary: 'One watch list with all its objects',
      description: HIDDEN,
      parameters: [
        listId,
        queryParam(
          'fields[watch_list]',
          'Comma-separated attributes to return (e.g. history_matched_at,matched_loci: the matching state without the objects).',
        ),
      ],
      responses: {
        200: jsonApi(
          'A watch_list resource with attributes.objects and matched_loci (loci matched so far); history_matched_at is null while the list is being matched against the stored alerts',
        ),
        ...fail({ 404: "No such watch list (or another user's)" }),
      },
    }),
    delete: op('delete', 'login', {
      tags,
      operationId: 'delete_watch_list',
      summary: 'Delete a watch list',
      description: `Only its owner may. ${HIDDEN}`,
      parameters: [listId],
      responses: {
        204: noContent('Deleted'),
        ...fail({ 403: "An administrator deleting another user's list", 404: "No such watch list (or another user's)" }),
      },
    }),
  },
};
