import {
  FEEDBACK_REQUIRED,
  FILTER_CLASS_MAX,
  FILTER_CLASS_PATTERN,
  type FilterTestReport,
  isVersionStatus,
  LIMITS,
  MESSAGES,
  TRANSITIONS,
} from '@antares/contract';
import type { FilterRow, FilterVersionRow, FilterViewer, LocusRow, Repositories, UserRow } from '@antares/db';
import { chainSides, findCycle } from '@antares/pipeline';

import type { Identity } from '../auth/authenticator.ts';
import { badRequest, conflict, notFound, unprocessable } from '../errors.ts';
import { policies } from '../policies/index.ts';
import { booleanField, stringField } from './body.ts';
import { assertFilesForEnabling, requiredFilesOf } from './filter-file-service.ts';
import { SandboxTurns } from './sandbox-turns.ts';

/**
 * The filter sandbox as the server uses it (apps/pipeline's createFilterSandbox); absent where the
 * sandbox cannot run, and then code is stored unchecked and dry runs answer 503.
 */
export interface FilterSandbox {
  /**
   * Loads code in the sandbox (its filter `filterClass`, else the last it defines) and tells what it
   * declares; with `files` (its data files so far), setup() runs only when all it requires are there.
   */
  validate(
    code: string,
    filterClass?: string,
    files?: Record<string, Uint8Array>,
  ): Promise<{ ok: true; outputs: Record<string, unknown> } | { ok: false; message: string }>;
  /** Runs code (given these data files) on these loci as Level 2 would, storing nothing. */
  dryRun(code: string, loci: LocusRow[], filterClass?: string, files?: Record<string, Uint8Array>): Promise<FilterTestReport>;
}

const FILTER_CLASS = new RegExp(FILTER_CLASS_PATTERN);

/** `filter_class` of a version or a dry run: a Python identifier, or absent (blank counts as absent). */
export function filterClassOf(attributes: Record<string, unknown>): string | undefined {
  const name = (stringField(attributes, 'filter_class') ?? '').trim();
  if (name === '') return undefined;
  if (name.length > FILTER_CLASS_MAX) throw badRequest(`filter_class: ${MESSAGES.maxLength(FILTER_CLASS_MAX)}`);
  if (!FILTER_CLASS.test(name)) throw badRequest(`filter_class: ${MESSAGES.invalidCharacters}`);
  return name;
}

const FILTER_NAME = /^[A-Za-z][A-Za-z0-9 _.-]*$/;

export class FilterService {
  /** `turns`: shared with dry runs, so that a user holds at most one sandbox worker at a time. */
  constructor(
    private readonly repos: Repositories,
    private readonly sandbox?: FilterSandbox,
    private readonly turns = new SandboxTurns(),
  ) {}

  static viewerOf(identity: Identity | null): FilterViewer {
    return identity ? { userId: identity.user.user_id, admin: identity.user.admin } : null;
  }

  /** A filter the caller may see; a private filter of someone else is "not found", not "forbidden". */
  async visible(filterId: number, identity: Identity | null): Promise<FilterRow> {
    const filter = await this.repos.filters.findById(filterId);
    const viewer = FilterService.viewerOf(identity);
    if (!filter || (!filter.public && !(viewer?.admin || viewer?.userId === filter.user_id))) {
      throw notFound(`No filter with id ${filterId}`);
    }
    return filter;
  }

  /** The filters `identity` may see (public ones, its own; admins all), of one owner when `ownerId` is given. */
  list(identity: Identity | null, ownerId: number | undefined, options: { sort: string | undefined; limit: number; offset: number }) {
    if (ownerId !== undefined && identity) policies.assertSelfOrAdmin(identity, ownerId, 'the filters');
    return this.repos.filters.list({ viewer: FilterService.viewerOf(identity), ownerId, ...options, sort: options.sort || '-created_at' });
  }

  /** The owners of these filters (for `include=owner`). */
  async owners(filters: Array<{ user_id: number }>): Promise<UserRow[]> {
    const owners = await Promise.all([...new Set(filters.map((f) => f.user_id))].map((id) => this.repos.users.findById(id)));
    return owners.filter((user): user is UserRow => user !== undefined);
  }

  /** Makes a visible filter public or private (`public` in the attributes): its owner or an admin. */
  async setPublic(filterId: number, identity: Identity, attributes: Record<string, unknown>): Promise<FilterRow> {
    const filter = await this.visible(filterId, identity);
    this.assertMayAct(filter, identity);
    const isPublic = booleanField(attributes, 'public');
    if (isPublic === undefined) throw badRequest('public: Field is required.');
    return (await this.repos.filters.update(filter.filter_id, { public: isPublic }))!;
  }

  versions(filter: FilterRow, options: { sort: string | undefined; limit: number; offset: number }) {
    return this.repos.filters.listVersions(filter.filter_id, { ...options, sort: options.sort || '-created_at' });
  }

  async version(filter: FilterRow, versionId: number): Promise<FilterVersionRow> {
    const version = await this.repos.filters.findVersion(filter.filter_id, versionId);
    if (!version) throw notFound(`No version ${versionId} of filter ${filter.filter_id}`);
    return version;
  }

  assertMayAct(filter: FilterRow, identity: Identity): void {
    policies.assertFilterOwnerOrAdmin(identity, filter, 'change');
  }

  async create(identity: Identity, ownerId: number, attributes: Record<string, unknown>): Promise<FilterRow> {
    policies.assertMayCreateFor(identity, ownerId, 'filters', true);
    const name = (stringField(attributes, 'name') ?? '').trim();
    const description = (stringField(attributes, 'description') ?? '').trim();
    const nameProblem =
      name === ''
        ? MESSAGES.required
        : name.length > LIMITS.filterNameMax
          ? MESSAGES.maxLength(LIMITS.filterNameMax)
          : FILTER_NAME.test(name)
            ? null
            : MESSAGES.invalidCharacters;
    if (nameProblem) throw badRequest(`name: ${nameProblem}`);
    if (description === '') throw badRequest(`description: ${MESSAGES.required}`);
    if (description.length > LIMITS.filterDescriptionMax)
      throw badRequest(`description: ${MESSAGES.maxLength(LIMITS.filterDescriptionMax)}`);
    const filter = await this.repos.filters.create({ user_id: ownerId, name, description });
    if (!filter) throw conflict('This name is already in use, please choose another.');
    return filter;
  }

  async addVersion(filter: FilterRow, identity: Identity, attributes: Record<string, unknown>): Promise<FilterVersionRow> {
    this.assertMayAct(filter, identity);
    const code = stringField(attributes, 'code') ?? '';
    const comment = (stringField(attributes, 'comment') ?? '').trim();
    if (code.trim() === '') throw badRequest(`code: ${MESSAGES.required}`);
    if (comment === '') throw badRequest(`comment: ${MESSAGES.required}`);
    if (comment.length > LIMITS.commentMax) throw badRequest(`comment: ${MESSAGES.maxLength(LIMITS.commentMax)}`);
    const named = filterClassOf(attributes);
    let outputs: Record<string, unknown> | null = null;
    const sandbox = this.sandbox;
    if (sandbox) {
      // With the files uploaded so far: a first version (no files yet) is checked up to its declarations.
      const files = await this.repos.filterFiles.read(await this.repos.filterFiles.list(filter.filter_id));
      const result = await this.turns.take(identity.user.user_id, () => sandbox.validate(code, named, files));
      if (!result.ok) throw unprocessable('Invalid filter code', result.message);
      outputs = result.outputs;
    }
    // The filter the version runs: as named, else the one the sandbox chose (stored, so a later runtime
    // choosing differently cannot change what an approved version runs).
    const chosen = typeof outputs?.class_name === 'string' ? outputs.class_name : undefined;
    const version = await this.repos.filters.createVersion({
      filter_id: filter.filter_id,
      code,
      comment,
      declared_outputs: outputs,
      filter_class: named ?? chosen ?? null,
    });
    // It is submitted with the filter's files it requires (ADR 0053).
    await this.repos.filterFiles.pinCurrent(filter.filter_id, version.filter_version_id, requiredFilesOf(version));
    return version;
  }

  /** Moves a version to another status; the filter as it then is (enabling changes it) comes back with it. */
  async transition(
    filter: FilterRow,
    versionId: number,
    attributes: Record<string, unknown>,
  ): Promise<{ version: FilterVersionRow; filter: FilterRow }> {
    const version = await this.version(filter, versionId);
    const status = stringField(attributes, 'status', { required: true }) ?? '';
    if (!isVersionStatus(status)) throw badRequest(`status must be one of ${Object.keys(TRANSITIONS).join(', ')}`);
    const allowed = isVersionStatus(version.status) ? TRANSITIONS[version.status] : [];
    if (!allowed.includes(status)) {
      throw conflict(
        `A ${version.status} version cannot become ${status}` +
          (allowed.length ? ` (allowed: ${allowed.join(', ')})` : ' (no transition is defined from it)'),
      );
    }
    const feedback = (stringField(attributes, 'feedback') ?? '').trim();
    if (FEEDBACK_REQUIRED.has(status) && feedback === '') throw badRequest('Feedback is required');
    if (status === 'ENABLED') await this.assertNoChainCycle(filter, version);
    if (status === 'ENABLED') await assertFilesForEnabling(this.repos, version);
    const updated = await this.repos.filters.transition(filter.filter_id, versionId, status, feedback === '' ? null : feedback);
    if (!updated) throw notFound(`No version ${versionId} of filter ${filter.filter_id}`);
    // Back to waiting for review: it takes the filter's files as they are now, and follows them again.
    if (status === 'PENDING_REVIEW') await this.repos.filterFiles.pinCurrent(filter.filter_id, versionId, requiredFilesOf(updated), true);
    return { version: updated, filter: (await this.repos.filters.findById(filter.filter_id))! };
  }

  /**
   * Chained filters run after the filters whose properties they read (ADR 0055): a version that would
   * close a cycle with the other enabled filters (each reading what the next writes) has no order to
   * run in, so enabling it is refused, naming the filters of the cycle and what each reads of the other.
   */
  private async assertNoChainCycle(filter: FilterRow, version: FilterVersionRow): Promise<void> {
    const others = (await this.repos.filters.listForPipeline())
      .filter((f) => f.filter_id !== filter.filter_id)
      .map((f) => ({ name: f.name, ...chainSides(f.declared_outputs) }));
    const members = [...others, { name: filter.name, ...chainSides(version.declared_outputs) }];
    const cycle = findCycle(members, members.length - 1);
    if (!cycle) return;
    const links = cycle.map((member, i) => {
      const next = cycle[(i + 1) % cycle.length];
      const shared = member.writes.filter((p) => next.reads.includes(p));
      return `"${next.name}" reads ${shared.join(', ')}, written by "${member.name}"`;
    });
    throw conflict(
      `Enabling this version would make a cycle of chained filters, which have no order to run in: ${links.join('; ')}. ` +
        `Change one of ${cycle.map((m) => `"${m.name}"`).join(', ')} so that it no longer reads what another writes.`,
    );
  }
}
