/** The property catalogue: what each alert and locus property means (`/v1/alert_properties`, `/v1/loci_properties`). */
import Type from 'typebox';

import { listDocument, pageQuery, pathParam, resource, singleDocument, sortQuery } from './common.ts';
import { endpoint } from './define.ts';

const tags = ['Properties'];

const attributes = {
  name: Type.String(),
  type: Type.Enum(['int', 'float', 'str', 'bool', 'list', 'dict']),
  origin: Type.String(),
  description: Type.String(),
  es_mapping: Type.String({ description: 'The Elasticsearch type a search treats it as' }),
};

export const AlertProperty = resource('alert_property', attributes);
export const LocusProperty = resource('locus_property', attributes);

const query = Type.Object({ ...pageQuery(100), ...sortQuery('-id', 'One of id, type, origin, description, es_mapping.') });
const name = Type.Object({ name: pathParam('Property name, e.g. `ant_mag` or `num_alerts`.') });

export const listAlertProperties = endpoint({
  method: 'GET',
  path: '/v1/alert_properties',
  operationId: 'list_alert_properties',
  access: 'public',
  tags,
  summary: 'Alert property catalogue',
  query,
  response: { status: 200, description: 'A page of alert_property resources; meta.count, links.next', schema: listDocument(AlertProperty) },
  errors: { 400: 'Bad page or sort field' },
});

export const getAlertProperty = endpoint({
  method: 'GET',
  path: '/v1/alert_properties/:name',
  operationId: 'get_alert_property',
  access: 'public',
  tags,
  summary: 'One alert property',
  params: name,
  response: { status: 200, description: 'An alert_property resource', schema: singleDocument(AlertProperty) },
  errors: { 404: 'No alert property of this name' },
});

export const listLocusProperties = endpoint({
  method: 'GET',
  path: '/v1/loci_properties',
  operationId: 'list_loci_properties',
  access: 'public',
  tags,
  summary: 'Locus property catalogue',
  query,
  response: { status: 200, description: 'A page of locus_property resources; meta.count, links.next', schema: listDocument(LocusProperty) },
  errors: { 400: 'Bad page or sort field' },
});

export const getLocusProperty = endpoint({
  method: 'GET',
  path: '/v1/loci_properties/:name',
  operationId: 'get_locus_property',
  access: 'public',
  tags,
  summary: 'One locus property',
  params: name,
  response: { status: 200, description: 'A locus_property resource', schema: singleDocument(LocusProperty) },
  errors: { 404: 'No locus property of this name' },
});
