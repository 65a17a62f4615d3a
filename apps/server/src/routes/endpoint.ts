/**
 * Registers a route from its contract endpoint (@antares/contract, ADR 0020): Fastify validates the path
 * parameters and the query against the endpoint's schemas (a failure is a JSON:API 400 naming the field,
 * errors.ts), and the caller is checked against the endpoint's access before anything else runs, so the
 * contract is what decides who may call it.
 */
import type { Access, BodyOf, Endpoint, ParamsOf, QueryOf } from '@antares/contract/endpoints';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

import type { Authenticator, Identity } from '../auth/authenticator.ts';

/** The identity a handler is given: none for public endpoints, perhaps one for optional, always one otherwise. */
export type IdentityFor<A extends Access> = A extends 'public' ? undefined : A extends 'optional' ? Identity | null : Identity;

export type EndpointRequest<E extends Endpoint> = FastifyRequest<{ Params: ParamsOf<E>; Querystring: QueryOf<E>; Body: unknown }>;

export type EndpointHandler<E extends Endpoint> = (
  request: EndpointRequest<E>,
  reply: FastifyReply,
  identity: IdentityFor<E['access']>,
) => Promise<unknown>;

/** Marks a route's options with its endpoint (the permission and OpenAPI tests read it back). */
export interface EndpointRouteConfig {
  endpoint: Endpoint;
}

const identities = new WeakMap<FastifyRequest, Identity | null>();

/** The body's documented type; the service still checks it field by field (bodies are not validated here yet). */
export type EndpointBody<E extends Endpoint> = BodyOf<E>;

export function route<E extends Endpoint>(app: FastifyInstance, auth: Authenticator, endpoint: E, handler: EndpointHandler<E>): void {
  const operation = endpoint.operation ?? endpoint.operationId;
  app.route({
    method: endpoint.method,
    url: endpoint.path,
    ...(endpoint.bodyLimit ? { bodyLimit: endpoint.bodyLimit } : {}),
    schema: {
      ...(endpoint.params ? { params: endpoint.params } : {}),
      ...(endpoint.query ? { querystring: endpoint.query } : {}),
    },
    config: { endpoint } satisfies EndpointRouteConfig,
    // Before validation: an anonymous caller of a login-only endpoint hears 401, whatever it sent.
    preValidation: async (request) => {
      // The session calls check the credentials they carry themselves (AuthService).
      if (endpoint.access === 'public' || endpoint.credentials) return;
      const identity =
        endpoint.access === 'optional'
          ? await auth.identify(request)
          : endpoint.access === 'admin'
            ? await auth.requireAdmin(request, operation)
            : await auth.require(request, operation);
      identities.set(request, identity);
    },
    handler: async (request, reply) =>
      handler(request as unknown as EndpointRequest<E>, reply, identities.get(request) as IdentityFor<E['access']>),
  });
}
