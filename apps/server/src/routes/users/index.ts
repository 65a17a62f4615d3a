import type { FastifyInstance } from 'fastify';

import { badRequest, notFound } from '../../errors.ts';
import { policies } from '../../policies/index.ts';
import { listDocument } from '../../serializers/documents.ts';
import { userResource } from '../../serializers/user.ts';
import { attributesOf, booleanField, numericId } from '../../services/body.ts';
import { pageOf, type QueryParams, single } from '../../services/query-params.ts';
import { UserService } from '../../services/user-service.ts';
import type { RouteContext } from '../context.ts';
import { baseUrl, pageLinks } from '../request-url.ts';

export function userRoutes(app: FastifyInstance, { auth, repos, config }: RouteContext): void {
  const users = new UserService(repos);
  const idOf = (text: string) => {
    const id = numericId(text);
    if (id === null) throw notFound(`No user with id "${text}"`);
    return id;
  };

  app.post('/v1/users', async (request, reply) => {
    const user = await users.register(attributesOf(request.body));
    // The new account, to whoever just registered it: they gave its e-mail address.
    return reply.status(201).send({ data: userResource(user, user) });
  });

  app.get('/v1/users', async (request) => {
    const { user: admin } = await auth.requireAdmin(request, 'list_users');
    const query = request.query as QueryParams;
    const { limit, offset } = pageOf(query, 100);
    const page = await repos.users.list({ sort: single(query, 'sort') || 'username', limit, offset });
    const base = baseUrl(request, config.publicUrl);
    return listDocument(
      page.rows.map((user) => userResource(user, admin)),
      pageLinks(base, request, { offset, limit, count: page.count }),
    );
  });

  app.get<{ Params: { userId: string } }>('/v1/users/:userId', async (request) => {
    const identity = await auth.require(request, 'get_user');
    const userId = idOf(request.params.userId);
    policies.assertSelfOrAdmin(identity, userId, 'the account');
    return { data: userResource(await users.get(userId), identity.user) };
  });

  app.patch<{ Params: { userId: string } }>('/v1/users/:userId', async (request) => {
    const { user: admin } = await auth.requireAdmin(request, 'update_user');
    const attributes = attributesOf(request.body);
    const flags = { admin: booleanField(attributes, 'admin'), staff: booleanField(attributes, 'staff') };
    const changes = Object.fromEntries(Object.entries(flags).filter(([, v]) => v !== undefined));
    if (Object.keys(changes).length === 0) throw badRequest('Give admin and/or staff (true or false) to change');
    return { data: userResource(await users.setFlags(idOf(request.params.userId), changes), admin) };
  });
}
