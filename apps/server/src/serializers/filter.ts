import { randomUUID } from 'node:crypto';

import type { FilterTestReport, ResourceObject } from '@antares/contract';
import type { FilterRow, FilterVersionRow, TagRow, UserRow } from '@antares/db';

import type { RunnerView } from '../services/runner-budget.ts';
import { userResource, type Viewer } from './user.ts';

export function filterResource(filter: FilterRow, owner?: UserRow): ResourceObject {
  return {
    type: 'filter',
    id: String(filter.filter_id),
    attributes: {
      name: filter.name,
      description: filter.description,
      public: filter.public,
      enabled: filter.enabled_version_id !== null,
      enabled_version: filter.enabled_version_id === null ? null : String(filter.enabled_version_id),
      latest_version: filter.latest_version_id === null ? null : String(filter.latest_version_id),
      priority: filter.priority,
      level: filter.level,
      user_id: String(filter.user_id),
      created_at: filter.created_at.toISOString(),
      updated_at: filter.updated_at.toISOString(),
      disabled_at: filter.disabled_at?.toISOString() ?? null,
    },
    relationships: { owner: { data: owner ? { type: 'user', id: String(owner.user_id) } : { type: 'user', id: String(filter.user_id) } } },
  };
}

/**
 * `include=owner`: the owners as included resources, as `viewer` may see them: names for everyone, e-mails
 * only for admins (the admin table) and for the owner.
 */
export function includedOwners(owners: UserRow[], viewer: Viewer): ResourceObject[] {
  return owners.map((owner) => userResource(owner, viewer));
}

export function filterVersionResource(version: FilterVersionRow, filter: FilterRow): ResourceObject {
  return {
    type: 'filter_version',
    id: String(version.filter_version_id),
    attributes: {
      code: version.code,
      comment: version.comment,
      status: version.status,
      feedback: version.feedback,
      public: filter.public,
      declared_outputs: version.declared_outputs,
      filter_class: version.filter_class,
      created_at: version.created_at.toISOString(),
      updated_at: version.updated_at.toISOString(),
      transitioned_at: version.transitioned_at?.toISOString() ?? null,
      enabled_at: version.enabled_at?.toISOString() ?? null,
      disabled_at: version.disabled_at?.toISOString() ?? null,
      validated_at: version.validated_at?.toISOString() ?? null,
    },
    relationships: { filter: { data: { type: 'filter', id: String(filter.filter_id) } } },
  };
}

/** A filter in the runner: the published client reads name and enabled; the rest is its state and budget (ADR 0056). */
export function runnerResource({ filter, state, paused_at, paused_reason, budget }: RunnerView): ResourceObject {
  return {
    type: 'filter_runner_filter',
    id: filter.name,
    attributes: {
      name: filter.name,
      enabled: filter.runner_enabled,
      filter_id: String(filter.filter_id),
      state,
      paused_at,
      paused_reason,
      budget,
    },
    relationships: { filter: { data: { type: 'filter', id: String(filter.filter_id) } } },
  };
}

export function tagResource(tag: TagRow): ResourceObject {
  return {
    type: 'tag',
    id: tag.tag_id,
    attributes: { description: tag.description, filter_version_id: tag.filter_version_id === null ? null : String(tag.filter_version_id) },
  };
}

/** A dry-run report; its id only names this one run. */
export function filterTestResource(report: FilterTestReport): ResourceObject {
  return { type: 'filter_test', id: randomUUID(), attributes: { ...report } };
}
