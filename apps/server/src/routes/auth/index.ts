import type { FastifyInstance } from 'fastify';
import type { RouteContext } from '../context.ts';
import { AuthService } from '../../services/auth-service.ts';
import { attributesOf, stringField } from '../../services/body.ts';
import { baseUrl } from '../../services/request-url.ts';
import { identityBody } from '../../serializers/user.ts';
import { badRequest } from '../../errors.ts';

/** `/v1/auth/*`: plain-JSON session calls (spec section 7), cookies as in wire format section 7. */
export function authRoutes(app: FastifyInstance, context: RouteContext): void {
  const { auth, repos, tokens, limiter, mailer, config } = context;
  const service = new AuthService(repos, auth, tokens, limiter, mailer);
  const wantsTokens = (query: unknown) => (query as { type?: string }).type === 'token';

  app.get('/v1/auth/check', async (request) => identityBody((await auth.require(request, 'check')).user));

  for (const [path, fresh] of [['/v1/auth/login', false], ['/v1/auth/login-fresh', true]] as const) {
    app.post(path, async (request, reply) => {
      const body = attributesOf(request.body);
      const session = await service.login(request, reply, {
        username: stringField(body, 'username'), password: stringField(body, 'password'),
      }, fresh);
      const user = await auth.userOf(session.access.claims);
      // type=token: scripts get the tokens in the body instead of relying on cookies.
      return wantsTokens(request.query)
        ? { ...identityBody(user), access_token: session.access.token, refresh_token: session.refresh.token }
        : identityBody(user);
    });
  }

  app.post('/v1/auth/refresh', async (request, reply) => {
    const { user, accessToken } = await service.refresh(request, reply);
    return wantsTokens(request.query) ? { ...identityBody(user), access_token: accessToken } : identityBody(user);
  });

  app.post('/v1/auth/logout', async (request, reply) => {
    await service.logout(request, reply);
    return { logout: true };
  });

  app.post('/v1/auth/forgot', async (request, reply) => {
    const username = stringField(attributesOf(request.body), 'username', { required: true }) ?? '';
    if (username.trim() === '') throw badRequest('username: Field is required.');
    await service.forgot(username.trim(), `${baseUrl(request, config.publicUrl)}/`);
    return reply.status(202).send({ message: 'If the user exists, a password reset link has been sent to their e-mail address.' });
  });

  app.post('/v1/auth/reset', async (request, reply) => {
    const password = stringField(attributesOf(request.body), 'password', { required: true }) ?? '';
    return identityBody(await service.reset(request, reply, password));
  });
}
