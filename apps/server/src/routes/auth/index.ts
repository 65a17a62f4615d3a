import { checkSession, forgot, logIn, logInFresh, logOut, refresh, resetPassword } from '@antares/contract/endpoints';
import type { FastifyInstance } from 'fastify';

import { presentedTokens } from '../../auth/authenticator.ts';
import { mailLinkBase } from '../../auth/mail-links.ts';
import { ResetMailQueue } from '../../auth/reset-mails.ts';
import { badRequest, unauthorized } from '../../errors.ts';
import { identityBody } from '../../serializers/user.ts';
import { AuthService } from '../../services/auth-service.ts';
import { attributesOf, stringField } from '../../services/body.ts';
import type { RouteContext } from '../context.ts';
import { route } from '../endpoint.ts';

/**
 * `/v1/auth/*`: plain-JSON session calls (spec section 7). The route is the adapter between HTTP and
 * AuthService: it reads the tokens a request presents and sets or clears the cookies (wire format section 7).
 */
export function authRoutes(app: FastifyInstance, context: RouteContext): void {
  const { auth, repos, tokens, limiter, mailer, config } = context;
  const resetMails = new ResetMailQueue(app.log, { perAccountPerHour: config.resetMailsPerHour, maxPending: 1000 });
  app.addHook('onClose', () => resetMails.idle());
  const service = new AuthService(repos, auth, tokens, limiter, mailer, resetMails);

  route(app, auth, checkSession, async (_request, _reply, identity) => identityBody(identity.user));

  for (const endpoint of [logIn, logInFresh]) {
    route(app, auth, endpoint, async (request, reply) => {
      const body = attributesOf(request.body);
      const session = await service.login(
        { username: stringField(body, 'username'), password: stringField(body, 'password') },
        request.ip,
        endpoint === logInFresh,
      );
      auth.setSessionCookies(request, reply, session);
      const user = await auth.userOf(session.access.claims);
      // type=token: scripts get the tokens in the body instead of relying on cookies.
      return request.query.type === 'token'
        ? { ...identityBody(user), access_token: session.access.token, refresh_token: session.refresh.token }
        : identityBody(user);
    });
  }

  route(app, auth, refresh, async (request, reply) => {
    // Rotated (ADR 0061): the refresh token presented is spent, its successor comes back with the access token.
    const { user, session, fromCookie } = await service.refresh(presentedTokens(request));
    if (fromCookie) auth.setSessionCookies(request, reply, session);
    return request.query.type === 'token'
      ? { ...identityBody(user), access_token: session.access.token, refresh_token: session.refresh.token }
      : identityBody(user);
  });

  route(app, auth, logOut, async (request, reply) => {
    const outcome = await service.logout(presentedTokens(request));
    auth.clearSession(reply);
    if (outcome === 'no-session') throw unauthorized('Not logged in');
    return { logout: true };
  });

  route(app, auth, forgot, async (request, reply) => {
    const username = stringField(attributesOf(request.body), 'username', { required: true }) ?? '';
    if (username.trim() === '') throw badRequest('username: Field is required.');
    // Answer first: the look-up and the mail happen once the answer has gone, so neither its content nor
    // its timing tells whether the account exists. The link's address is configuration, never this request's.
    reply.raw.once('close', () => service.forgot(username.trim(), mailLinkBase(config, app.server.address())));
    return reply.status(202).send({ message: 'If the user exists, a password reset link has been sent to their e-mail address.' });
  });

  route(app, auth, resetPassword, async (request, reply) => {
    const password = stringField(attributesOf(request.body), 'password', { required: true }) ?? '';
    const resetToken = presentedTokens(request).bearer;
    const { user, session } = await service.reset(password, resetToken ? { resetToken } : { caller: () => auth.require(request, 'reset') });
    auth.setSessionCookies(request, reply, session);
    return identityBody(user);
  });
}
