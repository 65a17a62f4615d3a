import { existsSync } from 'node:fs';
import path from 'node:path';

import { getConfig } from '@antares/contract/endpoints';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

import type { RouteContext } from '../context.ts';
import { route } from '../endpoint.ts';
import { baseUrl } from '../request-url.ts';
import { DEFAULT_TEAM, loadTeamFile } from './team.ts';

/** `/config.json` for the web app (the team file, when set, is read and checked here, at start-up). */
export async function siteRoutes(app: FastifyInstance, { auth, config }: RouteContext): Promise<void> {
  const team = config.teamFile ? loadTeamFile(config.teamFile) : DEFAULT_TEAM;
  route(app, auth, getConfig, async (request) => {
    const base = baseUrl(request, config.publicUrl);
    return {
      apiURL: `${base}/v1/`,
      frontendURL: `${base}/`,
      supportEmail: config.supportEmail,
      issueTrackerURL: config.issueTrackerUrl,
      chatInvitationURL: config.chatInvitationUrl,
      team,
    };
  });
}

/** The built web app's folder, when it has been built. */
export function webDistOf(config: RouteContext['config']): string | undefined {
  const dist = config.webDist ?? path.resolve(import.meta.dirname, '../../../../web/dist');
  return existsSync(path.join(dist, 'index.html')) ? dist : undefined;
}

/**
 * Serves the built web app's files, looked up on each request so that a rebuild is served without a
 * restart; index.html for the app's own pages comes from the not-found handler (errors.ts).
 */
export async function webAppFiles(app: FastifyInstance, dist: string): Promise<void> {
  await app.register(fastifyStatic, { root: dist, wildcard: true, index: 'index.html' });
}
