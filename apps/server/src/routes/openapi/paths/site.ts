/** The web app's runtime configuration (routes/site) and this document itself (routes/openapi). */
import { op, type Paths, plainJson } from '../shared.ts';

const site = ['Site'];

export const sitePaths: Paths = {
  '/config.json': {
    get: op('get', 'public', {
      tags: site,
      operationId: 'get_config',
      summary: 'Runtime configuration of the web app',
      responses: {
        200: plainJson('URLs and contacts the web app needs', {
          type: 'object',
          properties: {
            apiURL: { type: 'string', description: 'Base URL of this API (ends in /v1/)' },
            frontendURL: { type: 'string' },
            supportEmail: { type: 'string' },
            issueTrackerURL: { type: 'string' },
            chatInvitationURL: { type: 'string' },
            team: { description: 'The team shown on the About page' },
          },
        }),
      },
    }),
  },
  '/v1/openapi.json': {
    get: op('get', 'public', {
      tags: site,
      operationId: 'get_openapi',
      summary: 'This OpenAPI document (browsable at /v1/docs)',
      responses: { 200: plainJson('OpenAPI 3.1 document', { type: 'object' }) },
    }),
  },
};
