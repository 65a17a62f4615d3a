/** Filters, their versions and review, and dry runs. */
import Type from 'typebox';

import { FEEDBACK_REQUIRED, VERSION_STATUSES } from '../filter-review.ts';
import {
  FILTER_CLASS_MAX,
  FILTER_CLASS_PATTERN,
  FILTER_TEST_DEFAULT_LOCI,
  FILTER_TEST_MAX_LOCI,
  type FilterTestReport,
} from '../filter-test.ts';
import { LIMITS } from '../validation.ts';
import { listDocument, numericPathParam, pageQuery, resource, resourceBody, singleDocument, sortQuery, toOne } from './common.ts';
import { endpoint } from './define.ts';
import { User } from './users.ts';

const tags = ['Filters'];
const PRIVATE = 'A private filter is visible only to its owner and administrators; to anyone else it is "not found".';
const FILTER_SORT = 'One of id, name, created_at, updated_at, public, priority.';
const NO_FILTER = 'No such filter (or a private filter of another user)';
const nullableText = Type.Union([Type.String(), Type.Null()]);
const nullableTime = Type.Union([Type.String({ format: 'date-time' }), Type.Null()]);

export const Filter = resource(
  'filter',
  {
    name: Type.String(),
    description: Type.String(),
    public: Type.Boolean(),
    enabled: Type.Boolean(),
    enabled_version: nullableText,
    latest_version: nullableText,
    priority: Type.Integer(),
    level: Type.Integer(),
    user_id: Type.String(),
    created_at: Type.String({ format: 'date-time' }),
    updated_at: Type.String({ format: 'date-time' }),
    disabled_at: nullableTime,
  },
  { relationships: { owner: toOne('user') } },
);

export const FilterVersion = resource(
  'filter_version',
  {
    code: Type.String(),
    comment: Type.String(),
    status: Type.String({ enum: [...VERSION_STATUSES] }),
    feedback: nullableText,
    public: Type.Boolean(),
    declared_outputs: Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()]),
    filter_class: nullableText,
    created_at: Type.String({ format: 'date-time' }),
    updated_at: Type.String({ format: 'date-time' }),
    transitioned_at: nullableTime,
    enabled_at: nullableTime,
    disabled_at: nullableTime,
    validated_at: nullableTime,
  },
  { relationships: { filter: toOne('filter') } },
);

/** The dry-run report (filter-test.ts), typed from its interface. */
export const FilterTest = Type.Object({
  type: Type.Literal('filter_test'),
  id: Type.String(),
  attributes: Type.Unsafe<FilterTestReport>({ type: 'object' }),
});

const filterClass = Type.String({
  maxLength: FILTER_CLASS_MAX,
  pattern: FILTER_CLASS_PATTERN,
  description:
    'The filter to run when the code defines several (a notebook export with drafts and helpers): a filter class, ' +
    'or a 2019-style function `def f(locus)`. Absent or blank: the last filter class the code defines. The load ' +
    'result names the one chosen (`class_name`) and every one found (`filter_classes`).',
});
const include = Type.Optional(
  Type.String({
    enum: ['owner'],
    description: '`owner`: the owners as included user resources (name and username; the e-mail only for the owner and administrators).',
  }),
);
const withOwners = <T extends ReturnType<typeof listDocument> | ReturnType<typeof singleDocument>>(document: T) =>
  Type.Intersect([document, Type.Object({ included: Type.Optional(Type.Array(User)) })]);

const filterId = { filterId: numericPathParam('filter') };
const versionId = { versionId: numericPathParam('filter version') };
const userId = { userId: numericPathParam('user') };

export const listFilters = endpoint({
  method: 'GET',
  path: '/v1/filters',
  operationId: 'list_filters',
  access: 'optional',
  tags,
  summary: "Filters: the public ones, plus the caller's own (admins: all)",
  query: Type.Object({ ...pageQuery(25), ...sortQuery('-created_at', FILTER_SORT), include }),
  response: {
    status: 200,
    description: 'A page of filter resources (included users with include=owner); meta.count, links.next',
    schema: withOwners(listDocument(Filter)),
  },
  errors: { 400: 'Bad page or sort field' },
});

export const listUserFilters = endpoint({
  method: 'GET',
  path: '/v1/users/:userId/filters',
  operationId: 'list_user_filters',
  access: 'login',
  tags,
  summary: "A user's filters",
  description: 'Only the user or an admin may call it for this user.',
  params: Type.Object(userId),
  query: Type.Object({ ...pageQuery(25), ...sortQuery('-created_at', FILTER_SORT), include }),
  response: { status: 200, description: 'A page of filter resources; meta.count, links.next', schema: withOwners(listDocument(Filter)) },
  errors: { 400: 'Bad page or sort field', 403: "Another user's filters", 404: 'No such user' },
});

export const createFilter = endpoint({
  method: 'POST',
  path: '/v1/users/:userId/filters',
  operationId: 'create_filter',
  access: 'login',
  tags,
  summary: 'Create a filter (private, without code: add a version next)',
  description: 'For the caller, or by an admin for anyone.',
  params: Type.Object(userId),
  body: resourceBody(
    'filter',
    Type.Object({
      name: Type.String({ maxLength: LIMITS.filterNameMax, pattern: '^[A-Za-z][A-Za-z0-9 _.\\-]*$' }),
      description: Type.String({ maxLength: LIMITS.filterDescriptionMax }),
    }),
  ),
  response: { status: 201, description: 'The new filter resource', schema: singleDocument(Filter) },
  errors: {
    400: 'Missing or invalid name or description',
    403: 'Creating a filter for another user (not an admin)',
    404: 'No such user',
    409: 'The name is already in use',
  },
});

export const testFilter = endpoint({
  method: 'POST',
  path: '/v1/filters/test',
  operationId: 'test_filter',
  access: 'login',
  tags,
  summary: 'Dry-run filter code on recent or chosen loci; nothing is stored',
  description:
    `Runs the code in the server's sandbox as Level 2 would, on \`locus_ids\` or else the newest \`last_n\` loci with at least two measurements (default ${FILTER_TEST_DEFAULT_LOCI}). ` +
    'Loading has a time limit (ANTARES_FILTER_LOAD_TIMEOUT_S, 10 s), and so has the run (ANTARES_FILTER_TEST_BUDGET_S, 10 s): past it, or when two loci in a row time out, it stops and `stopped_early` says why. One sandbox job (dry run or code check) per user at a time. ' +
    "A chained filter (one reading, in INPUT_LOCUS_PROPERTIES, REQUIRED_LOCUS_PROPERTIES or its devkit2 `input_properties`, a locus property that an enabled filter writes) runs after those filters, transitively, on the same loci and within the same budget; `dependencies` names the ones that ran, and only the tested code's results are reported.",
  body: resourceBody(
    'filter_test',
    Type.Object({
      code: Type.String({ maxLength: 512 * 1024, description: 'Python filter code' }),
      locus_ids: Type.Optional(Type.Array(Type.String(), { minItems: 1, maxItems: FILTER_TEST_MAX_LOCI })),
      last_n: Type.Optional(Type.Integer({ minimum: 1, maximum: FILTER_TEST_MAX_LOCI, default: FILTER_TEST_DEFAULT_LOCI })),
      filter_class: Type.Optional(filterClass),
      filter_id: Type.Optional(
        Type.String({ pattern: '^\\d{1,15}$', description: 'One of your filters: the code is given its data files (REQUIRES_FILES)' }),
      ),
    }),
  ),
  response: {
    status: 200,
    description:
      'A filter_test resource: whether the code loaded, its outputs (with `class_name`, the filter that ran, and `filter_classes`, every one the code defines), stdout, per-locus results, timings and counts',
    schema: singleDocument(FilterTest),
  },
  errors: {
    400: 'Missing or too long code, bad locus_ids, last_n or filter_class, or an unknown locus',
    403: 'The e-mail address is not confirmed yet (where the server requires it: ANTARES_REQUIRE_EMAIL_VERIFICATION with SMTP)',
    413: "Request body over the server's limit (1 MiB)",
    429: 'A dry run or code check of this user is still running',
    503: 'The filter sandbox is not available on this server',
  },
});

export const getFilter = endpoint({
  method: 'GET',
  path: '/v1/filters/:filterId',
  operationId: 'get_filter',
  access: 'optional',
  tags,
  summary: 'One filter',
  description: PRIVATE,
  params: Type.Object(filterId),
  query: Type.Object({ include }),
  response: {
    status: 200,
    description: 'A filter resource (included owner with include=owner)',
    schema: withOwners(singleDocument(Filter)),
  },
  errors: { 404: NO_FILTER },
});

export const updateFilter = endpoint({
  method: 'PATCH',
  path: '/v1/filters/:filterId',
  operationId: 'update_filter',
  access: 'login',
  tags,
  summary: 'Make a filter public or private',
  description: `Its owner or an admin. ${PRIVATE}`,
  params: Type.Object(filterId),
  body: resourceBody('filter', Type.Object({ public: Type.Boolean() })),
  response: { status: 200, description: 'The updated filter resource', schema: singleDocument(Filter) },
  errors: { 400: 'public: Field is required.', 403: 'Not the owner of this public filter', 404: NO_FILTER },
});

export const listFilterVersions = endpoint({
  method: 'GET',
  path: '/v1/filters/:filterId/versions',
  operationId: 'list_filter_versions',
  access: 'optional',
  tags,
  summary: 'Versions of a filter',
  description: PRIVATE,
  params: Type.Object(filterId),
  query: Type.Object({ ...pageQuery(100), ...sortQuery('-created_at', 'One of id, created_at, status, updated_at.') }),
  response: { status: 200, description: 'A page of filter_version resources; meta.count, links.next', schema: listDocument(FilterVersion) },
  errors: { 400: 'Bad page or sort field', 404: NO_FILTER },
});

export const createFilterVersion = endpoint({
  method: 'POST',
  path: '/v1/filters/:filterId/versions',
  operationId: 'create_filter_version',
  access: 'login',
  tags,
  summary: 'Submit new code for a filter (a PENDING_REVIEW version)',
  description: `Its owner or an admin. The code is loaded in the sandbox first when the server has one. ${PRIVATE}`,
  params: Type.Object(filterId),
  body: resourceBody(
    'filter_version',
    Type.Object({
      code: Type.String({ description: 'Python filter code' }),
      comment: Type.String({ maxLength: LIMITS.commentMax }),
      filter_class: Type.Optional(filterClass),
    }),
  ),
  response: {
    status: 201,
    description:
      "The new filter_version resource: `filter_class` is the filter it runs (as named, else the sandbox's choice), `declared_outputs.filter_classes` every one its code defines",
    schema: singleDocument(FilterVersion),
  },
  errors: {
    400: 'Missing code or comment, too long a comment, or a bad filter_class',
    403: 'Not the owner of this public filter',
    404: NO_FILTER,
    413: "Request body over the server's limit (1 MiB)",
    422: 'The code does not load in the sandbox, or defines no filter named filter_class (the message says why)',
    429: 'A dry run or code check of this user is still running',
  },
});

export const getFilterVersion = endpoint({
  method: 'GET',
  path: '/v1/filters/:filterId/versions/:versionId',
  operationId: 'get_filter_version',
  access: 'optional',
  tags,
  summary: 'One version of a filter, with its code',
  description: PRIVATE,
  params: Type.Object({ ...filterId, ...versionId }),
  response: { status: 200, description: 'A filter_version resource', schema: singleDocument(FilterVersion) },
  errors: { 404: 'No such filter or version' },
});

export const updateFilterVersion = endpoint({
  method: 'PATCH',
  path: '/v1/filters/:filterId/versions/:versionId',
  operationId: 'update_filter_version',
  access: 'admin',
  tags,
  summary: 'Review a version: move it to another status',
  description:
    'Transitions: PENDING_REVIEW -> REVIEWED; REVIEWED -> PENDING_REVIEW or ENABLED; ENABLED -> DISABLED; DISABLED -> PENDING_REVIEW or ENABLED. Enabling a version runs it in Level 2, after the enabled filters that write a locus property it reads (a chain); a version that would close a cycle of such filters is refused with 409, naming them.',
  params: Type.Object({ ...filterId, ...versionId }),
  body: resourceBody(
    'filter_version',
    Type.Object({
      status: Type.String({ enum: [...VERSION_STATUSES] }),
      feedback: Type.Optional(Type.String({ description: `For the owner; required for ${[...FEEDBACK_REQUIRED].join(' and ')}` })),
    }),
  ),
  response: { status: 200, description: 'The updated filter_version resource', schema: singleDocument(FilterVersion) },
  errors: {
    400: 'Unknown status, or feedback missing',
    404: 'No such filter or version',
    409: 'The version cannot move from its status to this one, or enabling it would make a cycle of chained filters (the refusal names them)',
  },
});
