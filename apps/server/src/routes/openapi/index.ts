import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';

import type { RouteContext } from '../context.ts';
import { openApiDocument } from './document.ts';

/** `/v1/openapi.json` and a browsable docs page at `/v1/docs` (Swagger UI served from our own files). */
export async function openApiRoutes(app: FastifyInstance, _context: RouteContext): Promise<void> {
  app.get('/v1/openapi.json', async () => openApiDocument);
  await app.register(fastifySwagger, { mode: 'static', specification: { document: openApiDocument as never } });
  await app.register(fastifySwaggerUi, { routePrefix: '/v1/docs' });
}
