/** The web app's runtime configuration and the API's own OpenAPI document (plain JSON, not JSON:API). */
import Type from 'typebox';

import { endpoint } from './define.ts';

const tags = ['Site'];

export const SiteConfig = Type.Object({
  apiURL: Type.String({ description: 'Base URL of this API (ends in /v1/)' }),
  frontendURL: Type.String(),
  supportEmail: Type.String(),
  issueTrackerURL: Type.String(),
  chatInvitationURL: Type.String(),
  team: Type.Unknown({ description: 'The team shown on the About page' }),
});

export const getConfig = endpoint({
  method: 'GET',
  path: '/config.json',
  operationId: 'get_config',
  access: 'public',
  tags,
  summary: 'Runtime configuration of the web app',
  response: { status: 200, description: 'URLs and contacts the web app needs', schema: SiteConfig },
});

export const getOpenApi = endpoint({
  method: 'GET',
  path: '/v1/openapi.json',
  operationId: 'get_openapi',
  access: 'public',
  tags,
  summary: 'This OpenAPI document (browsable at /v1/docs)',
  response: { status: 200, description: 'OpenAPI 3.1 document', schema: Type.Object({ openapi: Type.String() }) },
});
