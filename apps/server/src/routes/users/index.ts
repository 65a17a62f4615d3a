import { createUser, getUser, listUsers, updateUser } from '@antares/contract/endpoints';
import type { FastifyInstance } from 'fastify';

import { listDocument } from '../../serializers/documents.ts';
import { userResource } from '../../serializers/user.ts';
import { attributesOf } from '../../services/body.ts';
import { UserService } from '../../services/user-service.ts';
import type { RouteContext } from '../context.ts';
import { route } from '../endpoint.ts';
import { baseUrl, pageLinks } from '../request-url.ts';

export function userRoutes(app: FastifyInstance, { auth, repos, config }: RouteContext): void {
  const users = new UserService(repos);

  route(app, auth, createUser, async (request, reply) => {
    const user = await users.register(attributesOf(request.body));
    // The new account, to whoever just registered it: they gave its e-mail address.
    return reply.status(201).send({ data: userResource(user, user) });
  });

  route(app, auth, listUsers, async (request, _reply, { user: admin }) => {
    const { 'page[limit]': limit = 100, 'page[offset]': offset = 0, sort } = request.query;
    const page = await users.list({ sort, limit, offset });
    return listDocument(
      page.rows.map((user) => userResource(user, admin)),
      pageLinks(baseUrl(request, config.publicUrl), request, { offset, limit, count: page.count }),
    );
  });

  route(app, auth, getUser, async (request, _reply, identity) => ({
    data: userResource(await users.readable(identity, Number(request.params.userId)), identity.user),
  }));

  route(app, auth, updateUser, async (request, _reply, { user: admin }) => ({
    data: userResource(await users.updateFlags(Number(request.params.userId), attributesOf(request.body)), admin),
  }));
}
