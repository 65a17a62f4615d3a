import type { FilterRow, JsonObject, Repositories, UserRow } from '@antares/db';

import { type FilterOutputs, FilterSandboxPool, missingSandboxPrerequisites } from '../pool/index.ts';
import { DEFAULT_FILTER_PYTHON } from '../sandbox-limits.ts';
import { SHIPPED_FILTERS, type ShippedFilter, shippedFilterCode } from './index.ts';

/** The account that owns the shipped filters. Nobody can log in as it (see SYSTEM_PASSWORD_HASH). */
export const SYSTEM_USERNAME = 'antares';
// `.invalid` is reserved (RFC 2606): a password-reset mail to it can never be delivered.
const SYSTEM_EMAIL = 'antares@antares.invalid';
// Not an argon2 hash, so no password ever verifies against it (verifyPassword returns false). Real
// accounts' hashes start with '$', which is how a real user who took the name is told apart.
const SYSTEM_PASSWORD_HASH = '!no-login: owner of the filters shipped with ANTARES';

export type SeedAction = 'created' | 'new-version' | 'unchanged' | 'skipped';
export interface SeedResult {
  name: string;
  action: SeedAction;
  filterId?: number;
  /** The version that has the shipped code. */
  versionId?: number;
  /** Why a filter was skipped. */
  message?: string;
}

export interface SeedOptions {
  /** The filters to seed (default: all shipped ones); tests pass changed code through this. */
  filters?: ReadonlyArray<ShippedFilter & { code?: string }>;
  /** The interpreter that checks their code (ANTARES_FILTER_PYTHON; default Debian's). */
  python?: string;
}

/**
 * Makes the shipped filters exist, public and enabled, owned by the system account; idempotent and run
 * on every start. A filter whose code file changed gets a new version, which is enabled (the previous
 * enabled version becomes DISABLED). An unchanged filter is left alone, so an admin's decisions stick:
 * a version an admin (or Level 2, after repeated failures) disabled stays disabled, a filter made
 * private stays private, and the runner switch is never touched. Only the priority follows the code.
 */
export async function ensureShippedFilters(repos: Repositories, options: SeedOptions = {}): Promise<SeedResult[]> {
  const filters: ReadonlyArray<ShippedFilter & { code?: string }> = options.filters ?? SHIPPED_FILTERS;
  const owner = await systemOwner(repos);
  if ('problem' in owner) return filters.map((f) => ({ name: f.name, action: 'skipped', message: owner.problem }));
  const validator = new LazyValidator(options.python);
  try {
    const results: SeedResult[] = [];
    for (const shipped of filters) {
      try {
        results.push(await ensureOne(repos, owner.user, shipped, shipped.code ?? shippedFilterCode(shipped), validator));
      } catch (error) {
        // One broken filter must not keep the others (or the server) from starting.
        results.push({ name: shipped.name, action: 'skipped', message: error instanceof Error ? error.message : String(error) });
      }
    }
    return results;
  } finally {
    await validator.close();
  }
}

async function systemOwner(repos: Repositories): Promise<{ user: UserRow } | { problem: string }> {
  const user =
    (await repos.users.findByUsername(SYSTEM_USERNAME)) ??
    (await repos.users.create({ username: SYSTEM_USERNAME, email: SYSTEM_EMAIL, name: 'ANTARES', password_hash: SYSTEM_PASSWORD_HASH })) ??
    // Created by another process in the meantime.
    (await repos.users.findByUsername(SYSTEM_USERNAME));
  if (!user) return { problem: `the system account "${SYSTEM_USERNAME}" could not be created` };
  if (user.password_hash.startsWith('$')) {
    return {
      problem: `the username "${SYSTEM_USERNAME}" belongs to a real account (id ${user.user_id}); shipped filters are not installed`,
    };
  }
  return { user };
}

async function ensureOne(
  repos: Repositories,
  owner: UserRow,
  shipped: ShippedFilter,
  code: string,
  validator: LazyValidator,
): Promise<SeedResult> {
  let filter: FilterRow | undefined = await repos.filters.findByName(shipped.name);
  const created = !filter;
  filter ??=
    (await repos.filters.create({ user_id: owner.user_id, name: shipped.name, description: shipped.description })) ??
    (await repos.filters.findByName(shipped.name));
  if (!filter) return { name: shipped.name, action: 'skipped', message: 'the filter could not be created' };
  if (filter.user_id !== owner.user_id) {
    return {
      name: shipped.name,
      action: 'skipped',
      filterId: filter.filter_id,
      message: `a filter named "${shipped.name}" already belongs to user ${filter.user_id}`,
    };
  }
  const latest = (await repos.filters.listVersions(filter.filter_id, { sort: '-id', limit: 1, offset: 0 })).rows[0];
  // No version yet: first installation (or one interrupted before its version): public from the start.
  if (!latest) await repos.filters.update(filter.filter_id, { public: true, priority: shipped.priority });
  else if (filter.priority !== shipped.priority) await repos.filters.update(filter.filter_id, { priority: shipped.priority });

  // Same code as the newest version: nothing to do, unless that version was created and never moved
  // (an interrupted installation), which is then finished.
  if (latest && latest.code === code && (latest.status !== 'PENDING_REVIEW' || latest.transitioned_at !== null)) {
    return { name: shipped.name, action: 'unchanged', filterId: filter.filter_id, versionId: latest.filter_version_id };
  }
  const version =
    latest && latest.code === code
      ? latest
      : await repos.filters.createVersion({
          filter_id: filter.filter_id,
          code,
          comment: latest ? 'Shipped with ANTARES (code changed)' : 'Shipped with ANTARES',
          declared_outputs: await declaredOutputs(shipped, code, validator),
        });
  await repos.filters.transition(filter.filter_id, version.filter_version_id, 'ENABLED', 'Shipped with ANTARES: enabled by default');
  return {
    name: shipped.name,
    action: created || !latest ? 'created' : 'new-version',
    filterId: filter.filter_id,
    versionId: version.filter_version_id,
  };
}

/**
 * What the version declares, as the filter API stores it (plus the tag's description, which the tag
 * list shows). Read by loading the code in the sandbox; where there is none, only the tag is known.
 */
async function declaredOutputs(shipped: ShippedFilter, code: string, validator: LazyValidator): Promise<JsonObject> {
  const tag_descriptions = { [shipped.name]: shipped.tagDescription };
  const outputs = await validator.outputs(code);
  if (!outputs) return { tags: [shipped.name], tag_descriptions };
  if (!outputs.tags.includes(shipped.name)) {
    throw new Error(`shipped filter ${shipped.file} does not declare its tag "${shipped.name}" (declares: ${outputs.tags.join(', ')})`);
  }
  return { ...outputs, tag_descriptions };
}

/** A sandbox pool started only when some version has to be created (normally the first start only). */
class LazyValidator {
  private pool?: FilterSandboxPool;
  private available?: boolean;
  private count = 0;

  constructor(private readonly python = DEFAULT_FILTER_PYTHON) {}

  async outputs(code: string): Promise<FilterOutputs | undefined> {
    // Probing for the sandbox starts Python (~1 s): only done when a version is really created.
    this.available ??= missingSandboxPrerequisites(this.python).length === 0;
    if (!this.available) return undefined;
    // Its own uid range (slots 700+), apart from the pipeline's and the API server's pools.
    this.pool ??= new FilterSandboxPool({ maxWorkers: 1, slotOffset: 700, python: this.python });
    const id = `shipped-check-${++this.count}`;
    try {
      const result = await this.pool.load(id, code);
      if (!result.ok || !result.outputs) {
        throw new Error(
          `a shipped filter failed to load: ${result.error ? `${result.error.type}: ${result.error.message}` : 'unknown error'}`,
        );
      }
      return result.outputs;
    } finally {
      await this.pool.unload(id).catch(() => {});
    }
  }

  async close(): Promise<void> {
    await this.pool?.close();
  }
}
