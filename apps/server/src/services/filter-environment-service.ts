import type { FilterEnvironment } from '@antares/contract';
import { probeFilterEnvironment, type WorkerLimits } from '@antares/pipeline';

import { unavailable } from '../errors.ts';

/**
 * What filters can import: read from the configured interpreter (ANTARES_FILTER_PYTHON) inside the
 * sandbox, once per process, on first request (a probe starts a sandbox, too slow to repeat); a failed
 * probe is retried on the next request.
 */
export class FilterEnvironmentService {
  private environment: Promise<FilterEnvironment> | undefined;

  constructor(
    private readonly log: { error(error: unknown): void },
    private readonly limits: WorkerLimits,
  ) {}

  async get(): Promise<FilterEnvironment> {
    this.environment ??= probeFilterEnvironment({ limits: this.limits });
    try {
      return await this.environment;
    } catch (error) {
      this.environment = undefined;
      this.log.error(error);
      throw unavailable('The filter environment could not be read on this server');
    }
  }
}
