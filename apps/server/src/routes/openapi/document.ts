/**
 * The OpenAPI description of the API, generated from the contract's endpoints (@antares/contract, ADR 0020):
 * every operation documents the wire format (sections 1-4 and 7). openapi.test.ts checks that it has an
 * operation for every route the server registers, and no other.
 */
import { ENDPOINTS } from '@antares/contract/endpoints';

import { schemas, securitySchemes, tags } from './components.ts';
import { contractPaths } from './generate.ts';

export const openApiDocument = {
  openapi: '3.1.0',
  info: {
    title: 'ANTARES API',
    version: '1.0.0',
    description: [
      'JSON:API access to the ANTARES alert broker: loci, alerts and thumbnails, accounts, filters, watch lists, output streams, catalogs, gravitational waves and alert uploads. Compatible with the antares-client package.',
      'Sessions (wire format section 7): POST /v1/auth/login sets HttpOnly `access_token_cookie` and `refresh_token_cookie` and readable `csrf_access_token` and `csrf_refresh_token` cookies; every unsafe call (POST, PATCH, DELETE) of a cookie session echoes the CSRF value in `X-CSRF-TOKEN` (else 403). Scripts log in with `?type=token` and send `Authorization: Bearer <access_token>` instead, with no CSRF header. Access tokens last 15 minutes: POST /v1/auth/refresh gives a new one.',
      'Each operation says who may call it (`x-antares-access`: public, optional, login or admin); errors are JSON:API error documents.',
    ].join('\n\n'),
  },
  servers: [{ url: '/' }],
  tags,
  paths: contractPaths(ENDPOINTS),
  components: { schemas, securitySchemes },
};
