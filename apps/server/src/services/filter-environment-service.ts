import type { FilterEnvironment } from '@antares/contract';
import { probeFilterEnvironment } from '@antares/pipeline';

import { ApiError } from '../errors.ts';

/**
 * What filters may import: read from the sandbox's Python once per process, on first request (a probe
 * starts Python, too slow to repeat); a failed probe is retried on the next request.
 */
export class FilterEnvironmentService {
  private environment: Promise<FilterEnvironment> | undefined;

  constructor(private readonly log: { error(error: unknown): void }) {}

  async get(): Promise<FilterEnvironment> {
    this.environment ??= probeFilterEnvironment();
    try {
      return await this.environment;
    } catch (error) {
      this.environment = undefined;
      this.log.error(error);
      throw new ApiError(503, 'Service Unavailable', 'The filter environment could not be read on this server');
    }
  }
}
