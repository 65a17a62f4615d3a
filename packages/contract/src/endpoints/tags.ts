/** Tags (given by enabled public filters) and the filter runner, where admins pause enabled filters. */
import Type from 'typebox';

import { listDocument, pageQuery, pathParam, resource, resourceBody, singleDocument, sortQuery, toOne } from './common.ts';
import { endpoint } from './define.ts';

const tags = ['Filters'];

export const Tag = resource('tag', {
  description: Type.String(),
  filter_version_id: Type.Union([Type.String(), Type.Null()], { description: 'The filter version that gives the tag' }),
});

export const RunnerFilter = resource(
  'filter_runner_filter',
  { name: Type.String(), enabled: Type.Boolean({ description: 'Whether Level 2 runs it' }), filter_id: Type.String() },
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

export const updateFilterRunner = endpoint({
  method: 'PATCH',
  path: '/v1/filter_runner/:name',
  operationId: 'update_filter_runner',
  access: 'admin',
  tags,
  summary: 'Pause or resume an enabled filter in Level 2',
  params: Type.Object({ name: pathParam('Filter name (URL-encoded).') }),
  body: resourceBody('filter_runner_filter', Type.Object({ enabled: Type.Boolean() })),
  response: { status: 200, description: 'The updated filter_runner_filter resource', schema: singleDocument(RunnerFilter) },
  errors: { 400: 'enabled: Field is required.', 404: 'No enabled filter of this name' },
});
