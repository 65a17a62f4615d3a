import { getOpenApi } from '@antares/contract/endpoints';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';

import type { RouteContext } from '../context.ts';
import { route } from '../endpoint.ts';
import { openApiDocument } from './document.ts';

/** `/v1/openapi.json` and a browsable docs page at `/v1/docs` (Swagger UI served from our own files). */
export async function openApiRoutes(app: FastifyInstance, { auth }: RouteContext): Promise<void> {
  route(app, auth, getOpenApi, async () => openApiDocument);
  await app.register(fastifySwagger, { mode: 'static', specification: { document: openApiDocument as never } });
  await app.register(fastifySwaggerUi, { routePrefix: '/v1/docs' });
}
