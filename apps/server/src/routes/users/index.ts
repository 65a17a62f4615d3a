import { createUser, getUser, listUsers, updateUser, verifyEmail } from '@antares/contract/endpoints';
import type { FastifyInstance } from 'fastify';

import { EmailVerification } from '../../auth/email-verification.ts';
import { mailLinkBase } from '../../auth/mail-links.ts';
import { RegistrationLimiter } from '../../auth/registration-limiter.ts';
import { ResetMailQueue } from '../../auth/reset-mails.ts';
import { listDocument } from '../../serializers/documents.ts';
import { userResource } from '../../serializers/user.ts';
import { attributesOf } from '../../services/body.ts';
import { UserService } from '../../services/user-service.ts';
import type { RouteContext } from '../context.ts';
import { route } from '../endpoint.ts';
import { baseUrl, pageLinks } from '../request-url.ts';

export function userRoutes(app: FastifyInstance, { auth, repos, config, tokens, mailer }: RouteContext): void {
  // Verification mails go one at a time after the answer, like reset mails (auth/email-verification.ts).
  const mails = new ResetMailQueue(app.log, { perAccountPerHour: 1, maxPending: 1000 });
  app.addHook('onClose', () => mails.idle());
  const verification = new EmailVerification(repos, auth, tokens, mailer, mails);
  const users = new UserService(repos, {
    limiter: new RegistrationLimiter({ perAddressPerHour: config.registrationsPerAddressPerHour, perHour: config.registrationsPerHour }),
    unverified: config.requireEmailVerification,
    onRegistered: config.requireEmailVerification
      ? (user) => verification.mailLink(user, () => mailLinkBase(config, app.server.address()))
      : undefined,
  });

  route(app, auth, verifyEmail, async (request) => {
    await verification.confirm(request.query.token);
    return { message: 'Your e-mail address is confirmed: you can now test and backtest filters.' };
  });

  route(app, auth, createUser, async (request, reply) => {
    // Throttled per client address and overall (ADR 0061): an account must cost more than a request.
    const user = await users.register(attributesOf(request.body), {}, request.ip);
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
