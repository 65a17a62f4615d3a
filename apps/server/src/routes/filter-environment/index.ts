import { getFilterEnvironment } from '@antares/contract/endpoints';
import type { FastifyInstance } from 'fastify';

import { FilterEnvironmentService } from '../../services/filter-environment-service.ts';
import type { RouteContext } from '../context.ts';
import { route } from '../endpoint.ts';

/**
 * `GET /v1/filter_environment`: the Python packages and devkit modules filters can import, with the
 * versions installed on this server (the Filters page and the FAQ show it).
 */
export function filterEnvironmentRoutes(app: FastifyInstance, { auth, config }: RouteContext): void {
  const environment = new FilterEnvironmentService(app.log, config.filterLimits);
  route(app, auth, getFilterEnvironment, async () => ({
    data: { type: 'filter_environment', id: 'sandbox', attributes: await environment.get() },
  }));
}
