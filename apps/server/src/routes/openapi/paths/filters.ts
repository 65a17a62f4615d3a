/** Filters, versions and their review, dry runs, tags and the filter runner (routes/filters, tags). */
import {
  FEEDBACK_REQUIRED,
  FILTER_CLASS_MAX,
  FILTER_CLASS_PATTERN,
  FILTER_TEST_DEFAULT_LOCI,
  FILTER_TEST_MAX_LOCI,
  LIMITS,
  VERSION_STATUSES,
} from '@antares/contract';

import { fail, jsonApi, jsonApiBody, numericPathParam, op, page, type Paths, queryParam, sort } from '../shared.ts';

const tags = ['Filters'];
const filterId = numericPathParam('filterId', 'filter');
const versionId = numericPathParam('versionId', 'filter version');
const include = queryParam(
  'include',
  '`owner`: the owners as included user resources (name and username; the e-mail only for the owner and administrators).',
  { type: 'string', enum: ['owner'] },
);
const PRIVATE = 'A private filter is visible only to its owner and administrators; to anyone else it is "not found".';
const FILTER_SORT = 'One of id, name, created_at, updated_at, public, priority.';
const noFilter = 'No such filter (or a private filter of another user)';
const filterClass = {
  type: 'string',
  maxLength: FILTER_CLASS_MAX,
  pattern: FILTER_CLASS_PATTERN,
  description:
    'The filter to run when the code defines several (a notebook export with drafts and helpers): a filter class, ' +
    'or a 2019-style function `def f(locus)`. Absent or blank: the last filter class the code defines. The load ' +
    'result names the one chosen (`class_name`) and every one found (`filter_classes`).',
};

export const filterPaths: Paths = {
  '/v1/filters': {
    get: op('get', 'optional', {
      tags,
      operationId: 'list_filters',
      summary: "Filters: the public ones, plus the caller's own (admins: all)",
      parameters: [...page(25), sort('-created_at', FILTER_SORT), include],
      responses: {
        200: jsonApi('A page of filter resources (included users with include=owner); meta.count, links.next'),
        ...fail({ 400: 'Bad page or sort field' }),
      },
    }),
  },
  '/v1/users/{userId}/filters': {
    get: op('get', 'login', {
      tags,
      operationId: 'list_user_filters',
      summary: "A user's filters",
      description: 'Only the user or an admin may call it for this user.',
      parameters: [numericPathParam('userId', 'user'), ...page(25), sort('-created_at', FILTER_SORT), include],
      responses: {
        200: jsonApi('A page of filter resources; meta.count, links.next'),
        ...fail({ 400: 'Bad page or sort field', 403: "Another user's filters", 404: 'No such user' }),
      },
    }),
    post: op('post', 'login', {
      tags,
      operationId: 'create_filter',
      summary: 'Create a filter (private, without code: add a version next)',
      description: 'For the caller, or by an admin for anyone.',
      parameters: [numericPathParam('userId', 'user')],
      requestBody: jsonApiBody(
        'filter',
        {
          name: { type: 'string', maxLength: LIMITS.filterNameMax, pattern: '^[A-Za-z][A-Za-z0-9 _.\\-]*$' },
          description: { type: 'string', maxLength: LIMITS.filterDescriptionMax },
        },
        { required: ['name', 'description'] },
      ),
      responses: {
        201: jsonApi('The new filter resource'),
        ...fail({
          400: 'Missing or invalid name or description',
          403: 'Creating a filter for another user (not an admin)',
          404: 'No such user',
          409: 'The name is already in use',
        }),
      },
    }),
  },
  '/v1/filters/test': {
    post: op('post', 'login', {
      tags,
      operationId: 'test_filter',
      summary: 'Dry-run filter code on recent or chosen loci; nothing is stored',
      description:
        `Runs the code in the server's sandbox as Level 2 would, on \`locus_ids\` or else the newest \`last_n\` loci with at least two measurements (default ${FILTER_TEST_DEFAULT_LOCI}). ` +
        'Loading has a time limit (ANTARES_FILTER_LOAD_TIMEOUT_S, 10 s), and so has the run (ANTARES_FILTER_TEST_BUDGET_S, 10 s): past it, or when two loci in a row time out, it stops and `stopped_early` says why. One sandbox job (dry run or code check) per user at a time.',
      requestBody: jsonApiBody(
        'filter_test',
        {
          code: { type: 'string', maxLength: 512 * 1024, description: 'Python filter code' },
          locus_ids: { type: 'array', items: { type: 'string' }, minItems: 1, maxItems: FILTER_TEST_MAX_LOCI },
          last_n: { type: 'integer', minimum: 1, maximum: FILTER_TEST_MAX_LOCI, default: FILTER_TEST_DEFAULT_LOCI },
          filter_class: filterClass,
        },
        { required: ['code'] },
      ),
      responses: {
        200: jsonApi(
          'A filter_test resource: whether the code loaded, its outputs (with `class_name`, the filter that ran, and `filter_classes`, every one the code defines), stdout, per-locus results, timings and counts',
        ),
        ...fail({
          400: 'Missing or too long code, bad locus_ids, last_n or filter_class, or an unknown locus',
          413: "Request body over the server's limit (1 MiB)",
          429: 'A dry run or code check of this user is still running',
          503: 'The filter sandbox is not available on this server',
        }),
      },
    }),
  },
  '/v1/filters/{filterId}': {
    get: op('get', 'optional', {
      tags,
      operationId: 'get_filter',
      summary: 'One filter',
      description: PRIVATE,
      parameters: [filterId, include],
      responses: { 200: jsonApi('A filter resource (included owner with include=owner)'), ...fail({ 404: noFilter }) },
    }),
    patch: op('patch', 'login', {
      tags,
      operationId: 'update_filter',
      summary: 'Make a filter public or private',
      description: `Its owner or an admin. ${PRIVATE}`,
      parameters: [filterId],
      requestBody: jsonApiBody('filter', { public: { type: 'boolean' } }, { required: ['public'] }),
      responses: {
        200: jsonApi('The updated filter resource'),
        ...fail({ 400: 'public: Field is required.', 403: 'Not the owner of this public filter', 404: noFilter }),
      },
    }),
  },
  '/v1/filters/{filterId}/versions': {
    get: op('get', 'optional', {
      tags,
      operationId: 'list_filter_versions',
      summary: 'Versions of a filter',
      description: PRIVATE,
      parameters: [filterId, ...page(100), sort('-created_at', 'One of id, created_at, status, updated_at.')],
      responses: {
        200: jsonApi('A page of filter_version resources; meta.count, links.next'),
        ...fail({ 400: 'Bad page or sort field', 404: noFilter }),
      },
    }),
    post: op('post', 'login', {
      tags,
      operationId: 'create_filter_version',
      summary: 'Submit new code for a filter (a PENDING_REVIEW version)',
      description: `Its owner or an admin. The code is loaded in the sandbox first when the server has one. ${PRIVATE}`,
      parameters: [filterId],
      requestBody: jsonApiBody(
        'filter_version',
        {
          code: { type: 'string', description: 'Python filter code' },
          comment: { type: 'string', maxLength: LIMITS.commentMax },
          filter_class: filterClass,
        },
        { required: ['code', 'comment'] },
      ),
      responses: {
        201: jsonApi(
          "The new filter_version resource: `filter_class` is the filter it runs (as named, else the sandbox's choice), `declared_outputs.filter_classes` every one its code defines",
        ),
        ...fail({
          400: 'Missing code or comment, too long a comment, or a bad filter_class',
          403: 'Not the owner of this public filter',
          404: noFilter,
          413: "Request body over the server's limit (1 MiB)",
          422: 'The code does not load in the sandbox, or defines no filter named filter_class (the message says why)',
          429: 'A dry run or code check of this user is still running',
        }),
      },
    }),
  },
  '/v1/filters/{filterId}/versions/{versionId}': {
    get: op('get', 'optional', {
      tags,
      operationId: 'get_filter_version',
      summary: 'One version of a filter, with its code',
      description: PRIVATE,
      parameters: [filterId, versionId],
      responses: { 200: jsonApi('A filter_version resource'), ...fail({ 404: 'No such filter or version' }) },
    }),
    patch: op('patch', 'admin', {
      tags,
      operationId: 'update_filter_version',
      summary: 'Review a version: move it to another status',
      description:
        'Transitions: PENDING_REVIEW -> REVIEWED; REVIEWED -> PENDING_REVIEW or ENABLED; ENABLED -> DISABLED; DISABLED -> PENDING_REVIEW or ENABLED. Enabling a version runs it in Level 2.',
      parameters: [filterId, versionId],
      requestBody: jsonApiBody(
        'filter_version',
        {
          status: { type: 'string', enum: [...VERSION_STATUSES] },
          feedback: { type: 'string', description: `For the owner; required for ${[...FEEDBACK_REQUIRED].join(' and ')}` },
        },
        { required: ['status'] },
      ),
      responses: {
        200: jsonApi('The updated filter_version resource'),
        ...fail({
          400: 'Unknown status, or feedback missing',
          404: 'No such filter or version',
          409: 'The version cannot move from its status to this one',
        }),
      },
    }),
  },
};
