import { ERROR_KEYWORDS } from '@antares/contract/endpoints';
import type { Repositories } from '@antares/db';
import fastifyCompress from '@fastify/compress';
import fastifyCookie from '@fastify/cookie';
import Fastify, { type FastifyBodyParser, type FastifyInstance } from 'fastify';

import { Authenticator } from './auth/authenticator.ts';
import { LoginLimiter } from './auth/login-limiter.ts';
import { Mailer } from './auth/mailer.ts';
import { TokenService } from './auth/tokens.ts';
import type { Config } from './config.ts';
import { registerEdgeLimits } from './edge-limits.ts';
import { clientErrorHandler, frameworkErrorHandler, registerErrorHandling } from './errors.ts';
import { finiteNumbers } from './finite-numbers.ts';
import { registerInputGuard } from './input-guard.ts';
import { alertUploadRoutes } from './routes/alert-uploads/index.ts';
import { alertRoutes } from './routes/alerts/index.ts';
import { annotationRoutes } from './routes/annotations/index.ts';
import { announcementRoutes } from './routes/announcements/index.ts';
import { authRoutes } from './routes/auth/index.ts';
import { backtestRoutes } from './routes/backtests/index.ts';
import { catalogRoutes } from './routes/catalogs/index.ts';
import { filterEnvironmentRoutes } from './routes/filter-environment/index.ts';
import { filterFileRoutes } from './routes/filter-files/index.ts';
import { filterRoutes } from './routes/filters/index.ts';
import { gravWaveRoutes } from './routes/grav-waves/index.ts';
import { lociRoutes } from './routes/loci/index.ts';
import { openApiRoutes } from './routes/openapi/index.ts';
import { propertyRoutes } from './routes/properties/index.ts';
import { siteRoutes, webAppFiles, webDistOf } from './routes/site/index.ts';
import { streamRoutes } from './routes/streams/index.ts';
import { tagAndRunnerRoutes } from './routes/tags/index.ts';
import { userRoutes } from './routes/users/index.ts';
import { watchListRoutes } from './routes/watch-lists/index.ts';
import { registerSecurityHeaders } from './security-headers.ts';
import type { FilterSandbox } from './services/filter-service.ts';

export interface BuildOptions {
  config: Config;
  repos: Repositories;
  /** Background jobs' repositories (backtests), free of the requests' statement timeout; default `repos`. */
  jobRepos?: Repositories;
  logger?: boolean;
  filterSandbox?: FilterSandbox;
  /** Told of every route as it is registered (the permission matrix test checks it covers them all). */
  onRoute?: (route: { method: string | string[]; url: string }) => void;
}

/** The whole HTTP application: JSON:API under /v1, /config.json and the web app. */
export async function buildServer({
  config,
  repos,
  jobRepos,
  logger = false,
  filterSandbox,
  onRoute,
}: BuildOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: logger ? { level: 'info' } : false,
    // request.ip (the login limits' client address) reads X-Forwarded-For only from configured proxies.
    trustProxy: config.trustedProxies.length > 0 ? config.trustedProxies : false,
    // Alert ids (path parameters) can be long; allow them. The published client builds some URLs as
    // `<base>/v1/` + `/grav_wave_notices/...`: a doubled slash is the same path.
    routerOptions: { ignoreTrailingSlash: true, ignoreDuplicateSlashes: true, maxParamLength: 1000 },
    // Refusals made before any route runs (bad URL encoding, over-long parameters, malformed HTTP) are
    // JSON:API errors too.
    frameworkErrors: frameworkErrorHandler,
    clientErrorHandler,
    // The contract's schemas word their own errors (errors.ts reads these keywords; JSON Schema ignores them).
    // finiteNumbers: a number no handler can use ("Infinity", "1e400") is a 400 too, not a 500.
    ajv: { customOptions: { keywords: [...ERROR_KEYWORDS] }, plugins: [finiteNumbers] },
    // Timeouts suited to an API (ADR 0060): headers within seconds, a whole request (uploads included)
    // within minutes, and a connection on which nothing moves, such as a client that never reads, closed.
    http: { headersTimeout: config.httpTimeouts.headersMs, connectionsCheckingInterval: Math.min(30_000, config.httpTimeouts.headersMs) },
    requestTimeout: config.httpTimeouts.requestMs,
    keepAliveTimeout: config.httpTimeouts.keepAliveMs,
    connectionTimeout: config.httpTimeouts.idleMs,
  });
  // First of all hooks: a request past its connection's or address's limits is refused before any work.
  registerEdgeLimits(app, config.edgeLimits);
  if (onRoute) app.addHook('onRoute', onRoute);
  registerJsonParsers(app);
  const webDist = webDistOf(config);
  if (!webDist) app.log.warn('the web app is not built (apps/web/dist): only the API is served');
  registerErrorHandling(app, { spaIndex: webDist !== undefined });
  await app.register(fastifyCookie);
  registerInputGuard(app);
  // Large JSON (sky maps, long lists) travels gzipped; gzip rather than brotli, which is slow to make.
  await app.register(fastifyCompress, { threshold: 2048, encodings: ['gzip', 'deflate'] });
  await registerSecurityHeaders(app);
  const tokens = new TokenService(config);
  const context = {
    config,
    repos,
    jobRepos: jobRepos ?? repos,
    tokens,
    auth: new Authenticator(tokens, repos),
    limiter: new LoginLimiter({
      perPair: config.loginLimitPerPair,
      perAddress: config.loginLimitPerIp,
      maxDelaySeconds: config.loginMaxDelaySeconds,
    }),
    mailer: new Mailer(config, app.log),
    filterSandbox,
  };
  lociRoutes(app, context);
  alertRoutes(app, context);
  alertUploadRoutes(app, context);
  propertyRoutes(app, context);
  authRoutes(app, context);
  userRoutes(app, context);
  annotationRoutes(app, context);
  announcementRoutes(app, context);
  filterRoutes(app, context);
  filterFileRoutes(app, context);
  backtestRoutes(app, context);
  filterEnvironmentRoutes(app, context);
  tagAndRunnerRoutes(app, context);
  watchListRoutes(app, context);
  streamRoutes(app, context);
  catalogRoutes(app, context);
  gravWaveRoutes(app, context);
  await openApiRoutes(app, context);
  await siteRoutes(app, context);
  if (webDist) await webAppFiles(app, webDist);
  return app;
}

/**
 * JSON bodies, as `application/json` and as JSON:API clients send them (`application/vnd.api+json`). An empty
 * body is no body rather than Fastify's 400 "Body cannot be empty": clients send the JSON content type on
 * POSTs whose body is optional (logout, refresh, finder charts). A route that needs a body refuses the
 * missing one itself, with a JSON:API 400 naming what it needs (services/body.ts).
 */
function registerJsonParsers(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'ignore');
  const jsonOrNothing: FastifyBodyParser<string> = (request, body, done) => {
    if (body.trim() === '') {
      done(null, undefined);
      return;
    }
    void parseJson(request, body, done);
  };
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, jsonOrNothing);
  app.addContentTypeParser('application/vnd.api+json', { parseAs: 'string' }, jsonOrNothing);
}
