/** Tags (given by enabled public filters) and the filter runner, where admins pause enabled filters. */
import Type from 'typebox';

import { listDocument, pageQuery, pathParam, resource, resourceBody, singleDocument, sortQuery, toOne } from './common.ts';
import { endpoint } from './define.ts';

const tags = ['Filters'];

export const Tag = resource('tag', {
  description: Type.String(),
  filter_version_id: Type.Union([Type.String(), Type.Null()], { description: 'The filter version that gives the tag' }),
});

const nullableNumber = (description: string) => Type.Union([Type.Number(), Type.Null()], { description });

/** One window of a filter's budget (ADR 0056): what Level 2 counted and how it stands against the limits. */
const BudgetWindow = Type.Object({
  start: Type.String({ format: 'date-time' }),
  seconds: Type.Integer({ description: 'The window length' }),
  current: Type.Boolean({ description: 'Whether the window holds the present moment (else the latest one Level 2 ran in)' }),
  alerts_seen: Type.Integer({ description: 'Alerts of the batches Level 2 ran on while the filter was loaded' }),
  loci_run: Type.Integer(),
  alerts_passed: Type.Integer({ description: 'Alerts whose locus the filter tagged' }),
  time_s: Type.Number({ description: 'Time the filter took, summed over its loci' }),
  p50_ms: nullableNumber('Median time per locus (from a histogram of 10 buckets per decade)'),
  p99_ms: nullableNumber('99th percentile of the time per locus'),
  share: nullableNumber('The filter time over the budget for the alerts seen (1: all of it)'),
  allowed_share: Type.Number({ description: 'Its configured share, else 1 / the enabled filters' }),
  over_share: Type.Boolean(),
  yield_per_10k: nullableNumber('Passing alerts per 10,000 alerts seen'),
  over_yield: Type.Boolean({ description: 'Over the most (an hour) or the average (a night) asked of a filter' }),
});

export const RunnerFilter = resource(
  'filter_runner_filter',
  {
    name: Type.String(),
    enabled: Type.Boolean({ description: 'Whether Level 2 runs it' }),
    filter_id: Type.String(),
    state: Type.Union([Type.Literal('running'), Type.Literal('paused'), Type.Literal('paused_for_budget')], {
      description: 'paused: an admin turned it off; paused_for_budget: Level 2 paused it, over its share of the budget',
    }),
    paused_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description: 'When it was paused for its budget' }),
    paused_reason: Type.Union([Type.String(), Type.Null()]),
    budget: Type.Object({
      hour: Type.Union([BudgetWindow, Type.Null()], { description: 'The current (or latest) window of its enabled version' }),
      night: Type.Union([BudgetWindow, Type.Null()], { description: 'The current (or latest) night, from 12:00 UTC' }),
      limits: Type.Object({
        seconds_per_10k: Type.Number({ description: 'The budget of all enabled filters together' }),
        yield_average_per_10k: Type.Number(),
        yield_max_per_10k: Type.Number(),
        window_s: Type.Integer(),
        pause_after_windows: Type.Integer(),
      }),
    }),
  },
  { relationships: { filter: toOne('filter') } },
);

export const listTags = endpoint({
  method: 'GET',
  path: '/v1/tags',
  operationId: 'list_tags',
  access: 'public',
  tags,
  summary: 'Tags given by enabled public filters',
  query: Type.Object({ ...pageQuery(100), ...sortQuery('-id', 'One of id, description.') }),
  response: { status: 200, description: 'A page of tag resources; meta.count, links.next', schema: listDocument(Tag) },
  errors: { 400: 'Bad page or sort field' },
});

export const getTag = endpoint({
  method: 'GET',
  path: '/v1/tags/:name',
  operationId: 'get_tag',
  access: 'public',
  tags,
  summary: 'One tag',
  params: Type.Object({ name: pathParam('Tag name.') }),
  response: { status: 200, description: 'A tag resource', schema: singleDocument(Tag) },
  errors: { 404: 'No such tag' },
});

export const listFilterRunner = endpoint({
  method: 'GET',
  path: '/v1/filter_runner',
  operationId: 'list_filter_runner',
  access: 'public',
  tags,
  summary: 'Enabled filters and whether the runner runs them',
  query: Type.Object({
    ...pageQuery(100),
    ...sortQuery('-id', 'One of id (the filter name), name, created_at, updated_at, public, priority, enabled.'),
  }),
  response: {
    status: 200,
    description: 'A page of filter_runner_filter resources (id: the filter name); meta.count, links.next',
    schema: listDocument(RunnerFilter),
  },
  errors: { 400: 'Bad page or sort field' },
});

export const getFilterRunner = endpoint({
  method: 'GET',
  path: '/v1/filter_runner/:name',
  operationId: 'get_filter_runner',
  access: 'public',
  tags,
  summary: 'One enabled filter in the runner: its state, budget and yield',
  params: Type.Object({ name: pathParam('Filter name (URL-encoded).') }),
  response: { status: 200, description: 'A filter_runner_filter resource', schema: singleDocument(RunnerFilter) },
  errors: { 404: 'No enabled filter of this name' },
});

export const updateFilterRunner = endpoint({
  method: 'PATCH',
  path: '/v1/filter_runner/:name',
  operationId: 'update_filter_runner',
  access: 'admin',
  tags,
  summary: 'Pause or resume an enabled filter in Level 2 (resuming one paused for its budget too)',
  params: Type.Object({ name: pathParam('Filter name (URL-encoded).') }),
  body: resourceBody('filter_runner_filter', Type.Object({ enabled: Type.Boolean() })),
  response: { status: 200, description: 'The updated filter_runner_filter resource', schema: singleDocument(RunnerFilter) },
  errors: { 400: 'enabled: Field is required.', 404: 'No enabled filter of this name' },
});
