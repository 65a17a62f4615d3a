import { FILTER_TEST_DEFAULT_LOCI, FILTER_TEST_MAX_LOCI, type FilterTestReport, MESSAGES } from '@antares/contract';
import type { LocusRow, Repositories } from '@antares/db';
import { filesOfFilter } from '@antares/pipeline';

import type { Identity } from '../auth/authenticator.ts';
import { badRequest, unavailable } from '../errors.ts';
import { policies } from '../policies/index.ts';
import { stringField } from './body.ts';
import { filterForCode } from './filter-file-service.ts';
import { filterClassOf, type FilterSandbox } from './filter-service.ts';
import { SandboxTurns } from './sandbox-turns.ts';

/** Level 2 runs only on loci with at least two measurements; a dry run picks its recent loci alike. */
const MIN_MEASUREMENTS = 2;
/** Request bodies are capped by the server (1 MiB by default); code is checked again here for a clear message. */
const CODE_MAX_CHARS = 512 * 1024;

/** Dry runs of filter code (POST /v1/filters/test): nothing is stored, the report says what would happen. */
export class FilterTestService {
  constructor(
    private readonly repos: Repositories,
    private readonly sandbox?: FilterSandbox,
    private readonly turns = new SandboxTurns(),
    /** Dry runs wait for a confirmed e-mail address (config.requireEmailVerification). */
    private readonly requireVerifiedEmail = false,
  ) {}

  /**
   * A dry run for this user: one at a time each (429 otherwise), bounded by the sandbox's limits; with
   * `filter_id`, given that filter's data files (REQUIRES_FILES) as they are now.
   */
  async run(identity: Identity, attributes: Record<string, unknown>): Promise<FilterTestReport> {
    policies.assertEmailVerified(identity, this.requireVerifiedEmail);
    const userId = identity.user.user_id;
    const code = stringField(attributes, 'code') ?? '';
    if (code.trim() === '') throw badRequest(`code: ${MESSAGES.required}`);
    if (code.length > CODE_MAX_CHARS) throw badRequest(`code: ${MESSAGES.maxLength(CODE_MAX_CHARS)}`);
    const filterClass = filterClassOf(attributes);
    const filter = await filterForCode(this.repos, identity, attributes);
    const loci = await this.lociFor(attributes);
    if (!this.sandbox) {
      throw unavailable('Filters cannot be tested on this server: its filter sandbox is not available');
    }
    const sandbox = this.sandbox;
    const files = filter ? await filesOfFilter(this.repos, filter.filter_id) : {};
    return this.turns.take(userId, () => sandbox.dryRun(code, loci, filterClass, files));
  }

  private async lociFor(attributes: Record<string, unknown>): Promise<LocusRow[]> {
    const ids = attributes.locus_ids;
    if (ids !== undefined && ids !== null) {
      if (!Array.isArray(ids) || ids.length === 0 || ids.some((id) => typeof id !== 'string' || id.trim() === '')) {
        throw badRequest('locus_ids must be a non-empty list of locus ids');
      }
      const unique = [...new Set((ids as string[]).map((id) => id.trim()))];
      if (unique.length > FILTER_TEST_MAX_LOCI) throw badRequest(`locus_ids: at most ${FILTER_TEST_MAX_LOCI} loci per test`);
      const found = new Map((await this.repos.loci.findMany(unique)).map((l) => [l.locus_id, l]));
      const missing = unique.filter((id) => !found.has(id));
      if (missing.length > 0) throw badRequest(`No locus with id ${missing.map((id) => `"${id}"`).join(', ')}`);
      return unique.map((id) => found.get(id)!);
    }
    const lastN = attributes.last_n ?? FILTER_TEST_DEFAULT_LOCI;
    if (typeof lastN !== 'number' || !Number.isInteger(lastN) || lastN < 1 || lastN > FILTER_TEST_MAX_LOCI) {
      throw badRequest(`last_n must be a whole number from 1 to ${FILTER_TEST_MAX_LOCI}`);
    }
    return this.repos.loci.newestForFilters(lastN, MIN_MEASUREMENTS);
  }
}
