import type { FilterEnvironment } from '@antares/contract';
import { probeFilterEnvironment } from '@antares/pipeline';
import type { FastifyInstance } from 'fastify';

import { ApiError } from '../../errors.ts';

/**
 * `GET /v1/filter_environment`: the Python packages and devkit modules filters may import, with the
 * versions installed on this server (the Filters page and the FAQ show it). Read from the sandbox's
 * Python once per process, on first request; a failed probe is retried on the next one.
 */
export function filterEnvironmentRoutes(app: FastifyInstance): void {
  let environment: Promise<FilterEnvironment> | undefined;
  app.get('/v1/filter_environment', async () => {
    environment ??= probeFilterEnvironment();
    try {
      return { data: { type: 'filter_environment', id: 'sandbox', attributes: await environment } };
    } catch (error) {
      environment = undefined;
      app.log.error(error);
      throw new ApiError(503, 'Service Unavailable', 'The filter environment could not be read on this server');
    }
  });
}
