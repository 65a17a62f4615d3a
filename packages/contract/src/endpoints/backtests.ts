/** Filter backtests (issue #19): a filter version, or unsaved code, replayed over the stored alerts as a background job. */
import Type from 'typebox';

import { allDocument, numericPathParam, resource, resourceBody, singleDocument } from './common.ts';
import { endpoint } from './define.ts';

const tags = ['Filters'];

/** Loci one backtest replays unless the request names fewer (the server's ANTARES_BACKTEST_MAX_LOCI caps it). */
export const BACKTEST_DEFAULT_LOCI = 1000;

const nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()]);

/** What a backtest was asked to replay. */
const BacktestParamsSchema = Type.Object({
  from_mjd: Type.Number({ description: 'Alerts from this MJD' }),
  to_mjd: Type.Number({ description: 'Alerts up to this MJD' }),
  elasticsearch_query: Type.Unknown({ description: 'The /v1/loci search document ({"query": ...}) choosing the loci; null: all' }),
  max_loci: Type.Integer(),
  granularity: Type.Union([Type.Literal('alert'), Type.Literal('night')], {
    description: 'alert: the filter meets each locus at each packet, as live Level 2 does; night: at the last packet of each night',
  }),
});

export const Backtest = resource(
  'backtest',
  {
    state: Type.Union(['queued', 'running', 'done', 'failed', 'cancelled'].map((s) => Type.Literal(s))),
    filter_id: nullable(Type.String()),
    filter_version_id: nullable(Type.String({ description: 'null for unsaved code' })),
    filter_class: nullable(Type.String()),
    params: BacktestParamsSchema,
    progress: Type.Object({
      loci_done: Type.Integer(),
      loci_total: nullable(Type.Integer()),
      steps_done: Type.Integer({ description: 'Alert-steps replayed' }),
      fraction: nullable(Type.Number()),
      steps_per_second: nullable(Type.Number()),
      eta_seconds: nullable(Type.Number()),
    }),
    error: nullable(Type.String()),
    resumes: Type.Integer({ description: 'Times the job was taken up again after a server restart' }),
    created_at: Type.String(),
    started_at: nullable(Type.String()),
    finished_at: nullable(Type.String()),
    expires_at: nullable(Type.String({ description: 'When the job and its results are deleted' })),
    tagged_loci_query: Type.Unknown({ description: 'The /v1/loci search document of the loci it tagged (backtest_id term)' }),
    results: nullable(
      Type.Record(Type.String(), Type.Unknown(), {
        description:
          'Per night loci and alerts tagged per tag, projected stream messages per night, first tagging alert per locus, ' +
          'errors by type with an example traceback, cost percentiles and projected CPU share, property distributions ' +
          '(while running: from the loci done so far)',
      }),
    ),
  },
  { links: true },
);

const side = Type.Object({
  count: Type.Integer(),
  locus_ids: Type.Array(Type.String(), { description: 'The first 100, by id' }),
  query: Type.Unknown({ description: 'The /v1/loci search document of these loci' }),
});

export const BacktestComparison = resource('backtest_comparison', {
  first: Type.String(),
  second: Type.String(),
  both: side,
  only_first: side,
  only_second: side,
});

const requestAttributes = {
  from_mjd: Type.Optional(Type.Number({ description: 'Default: the start of the archive' })),
  to_mjd: Type.Optional(Type.Number({ description: 'Default: its end' })),
  elasticsearch_query: Type.Optional(Type.Unknown({ description: 'A /v1/loci search document: a cone, tags, catalogs, ...' })),
  max_loci: Type.Optional(Type.Integer({ minimum: 1, description: `Default ${BACKTEST_DEFAULT_LOCI}` })),
  granularity: Type.Optional(Type.Union([Type.Literal('alert'), Type.Literal('night')])),
};

const backtestParams = Type.Object({ backtestId: numericPathParam('backtest') });
const versionParams = Type.Object({ filterId: numericPathParam('filter'), versionId: numericPathParam('filter version') });
const queued = { status: 202, description: 'The queued backtest resource', schema: singleDocument(Backtest) };
const refusals = {
  400: 'A bad window, search, cap or code',
  403: 'The e-mail address is not confirmed yet (where the server requires it: ANTARES_REQUIRE_EMAIL_VERIFICATION with SMTP)',
  429: 'You already have a backtest queued or running (admins may run more)',
  503: 'This server has no filter sandbox',
};

export const createVersionBacktest = endpoint({
  method: 'POST',
  path: '/v1/filters/:filterId/versions/:versionId/backtests',
  operationId: 'create_version_backtest',
  access: 'login',
  tags,
  summary: "Backtest a filter version over the stored alerts (the filter's owner or an admin)",
  params: versionParams,
  body: resourceBody('backtest', Type.Object(requestAttributes)),
  response: queued,
  errors: { ...refusals, 403: 'Not your filter, or the e-mail address is not confirmed yet', 404: 'No such filter or version' },
});

export const createCodeBacktest = endpoint({
  method: 'POST',
  path: '/v1/filters/test/backtests',
  operationId: 'create_code_backtest',
  access: 'login',
  tags,
  summary: "Backtest unsaved code (a dry run's body) over the stored alerts",
  body: resourceBody(
    'backtest',
    Type.Object({
      code: Type.String(),
      filter_class: Type.Optional(Type.String()),
      filter_id: Type.Optional(Type.String({ description: 'One of your filters: the code is given its data files (REQUIRES_FILES)' })),
      ...requestAttributes,
    }),
  ),
  response: queued,
  errors: refusals,
});

export const listVersionBacktests = endpoint({
  method: 'GET',
  path: '/v1/filters/:filterId/versions/:versionId/backtests',
  operationId: 'list_version_backtests',
  access: 'login',
  tags,
  summary: "A filter version's backtests, newest first (all of them for its owner and admins, else the caller's own)",
  params: versionParams,
  response: { status: 200, description: 'The backtest resources (at most 50)', schema: allDocument(Backtest) },
  errors: { 404: 'No such filter or version' },
});

export const getVersionBacktest = endpoint({
  method: 'GET',
  path: '/v1/filters/:filterId/versions/:versionId/backtests/:backtestId',
  operationId: 'get_version_backtest',
  access: 'login',
  tags,
  summary: 'One backtest of a filter version: state, progress, results',
  params: Type.Object({ ...versionParams.properties, ...backtestParams.properties }),
  response: { status: 200, description: 'The backtest resource', schema: singleDocument(Backtest) },
  errors: { 404: 'No such backtest of this version, or not yours' },
});

export const getBacktest = endpoint({
  method: 'GET',
  path: '/v1/backtests/:backtestId',
  operationId: 'get_backtest',
  access: 'login',
  tags,
  summary: 'One backtest: state, progress (loci done of total, alerts replayed, ETA), results',
  params: backtestParams,
  response: { status: 200, description: 'The backtest resource', schema: singleDocument(Backtest) },
  errors: { 404: 'No such backtest, or not yours' },
});

export const cancelBacktest = endpoint({
  method: 'DELETE',
  path: '/v1/backtests/:backtestId',
  operationId: 'cancel_backtest',
  access: 'login',
  tags,
  summary: 'Cancel a backtest (a running one stops after its current round; what it did is kept)',
  params: backtestParams,
  response: { status: 200, description: 'The backtest resource', schema: singleDocument(Backtest) },
  errors: { 404: 'No such backtest, or not yours' },
});

export const backtestEvents = endpoint({
  method: 'GET',
  path: '/v1/backtests/:backtestId/events',
  operationId: 'backtest_events',
  access: 'login',
  tags,
  summary: "Server-sent events of a backtest's progress (`progress` events, each the backtest resource), until it ends",
  params: backtestParams,
  response: { status: 200, description: 'text/event-stream', mediaType: 'text/event-stream' },
  errors: { 404: 'No such backtest, or not yours' },
});

export const compareBacktests = endpoint({
  method: 'GET',
  path: '/v1/backtests/:backtestId/comparison/:otherId',
  operationId: 'compare_backtests',
  access: 'login',
  tags,
  summary: 'The loci two backtests (say an old and a new version) both tag, only the first tags, only the second tags',
  params: Type.Object({ ...backtestParams.properties, otherId: numericPathParam('backtest') }),
  response: { status: 200, description: 'A backtest_comparison resource', schema: singleDocument(BacktestComparison) },
  errors: { 404: 'No such backtest, or not yours' },
});
