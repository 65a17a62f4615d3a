import { LIMITS, MESSAGES } from '@antares/contract';
import type { NewWatchObject, Repositories, WatchListRow, WatchObjectRow } from '@antares/db';

import type { Identity } from '../auth/authenticator.ts';
import { badRequest, notFound } from '../errors.ts';
import { policies } from '../policies/index.ts';
import { stringField } from './body.ts';
import type { WatchListHistoryMatcher } from './watch-list-history.ts';

const WATCH_RADIUS_MAX = LIMITS.watchRadiusMaxDeg;
const WATCH_OBJECTS_MAX = LIMITS.watchObjectsMax;
const NAME_MAX = LIMITS.watchListNameMax;
const DESCRIPTION_MAX = LIMITS.watchListDescriptionMax;
const COMMENT_MAX = LIMITS.watchObjectCommentMax;

const OBJECT_RANGES: Array<[keyof NewWatchObject & string, string, number, number]> = [
  ['ra', 'right_ascension', 0, 360],
  ['dec', 'declination', -90, 90],
  ['radius', 'radius', 0, WATCH_RADIUS_MAX],
];

/** A watch list as its page shows it: with how many loci it has matched so far. */
export interface WatchListDetail {
  list: WatchListRow;
  matchedLoci: number;
  objects?: WatchObjectRow[];
}

/**
 * Watch lists: owner-only (admins may read); the spec's limits checked here, whatever the client did.
 * A new list is matched against the stored alerts in the background (`history`).
 */
export class WatchListService {
  constructor(
    private readonly repos: Repositories,
    private readonly history?: WatchListHistoryMatcher,
  ) {}

  async create(identity: Identity, ownerId: number, attributes: Record<string, unknown>): Promise<WatchListRow> {
    policies.assertMayCreateFor(identity, ownerId, 'watch lists', false);
    const name = this.text(attributes, 'name', NAME_MAX, true)!;
    const description = this.text(attributes, 'description', DESCRIPTION_MAX, true)!;
    const channel = this.text(attributes, 'slack_channel', LIMITS.slackChannelMax, false);
    const objects = this.objects(attributes.objects);
    const list = await this.repos.watchLists.create({ user_id: ownerId, name, description, slack_channel: channel || null }, objects);
    this.history?.enqueue(list.watch_list_id);
    return list;
  }

  /** A list the caller may read: the owner's or, for admins, anyone's; others get "not found". */
  async readable(watchListId: number, identity: Identity): Promise<WatchListRow> {
    const list = await this.repos.watchLists.findById(watchListId);
    if (!list || (list.user_id !== identity.user.user_id && !identity.user.admin)) throw notFound(`No watch list with id ${watchListId}`);
    return list;
  }

  /** A user's lists, to that user or an admin. */
  async listOf(identity: Identity, ownerId: number, options: { sort: string | undefined; limit: number; offset: number }) {
    policies.assertSelfOrAdmin(identity, ownerId, 'the watch lists');
    return this.repos.watchLists.listByUser(ownerId, { ...options, sort: options.sort || '-created_at' });
  }

  /** A readable list with the count of loci it has matched, and its objects unless `withObjects` is false. */
  async detail(watchListId: number, identity: Identity, withObjects = true): Promise<WatchListDetail> {
    const list = await this.readable(watchListId, identity);
    return {
      list,
      matchedLoci: await this.repos.watchLists.matchedLociCount(watchListId),
      objects: withObjects ? await this.repos.watchLists.objects(watchListId) : undefined,
    };
  }

  /** Deletes a list and takes its ids off the loci it matched, under the pipeline's write lock. */
  async delete(watchListId: number, identity: Identity): Promise<void> {
    const list = await this.readable(watchListId, identity);
    policies.assertSelf(identity, list.user_id, 'the watch lists');
    await this.repos.transaction(async (tx) => {
      await tx.lockPipelineWrites();
      await tx.watchLists.unmarkLoci(watchListId);
      await tx.watchLists.delete(watchListId);
    });
  }

  private text(attributes: Record<string, unknown>, name: string, max: number, required: boolean): string | undefined {
    const value = (stringField(attributes, name) ?? '').trim();
    if (required && value === '') throw badRequest(`${name}: ${MESSAGES.required}`, `/data/attributes/${name}`);
    if (value.length > max) throw badRequest(`${name}: ${MESSAGES.maxLength(max)}`, `/data/attributes/${name}`);
    return value;
  }

  private objects(value: unknown): NewWatchObject[] {
    if (!Array.isArray(value) || value.length === 0) throw badRequest(`objects: ${MESSAGES.required}`, '/data/attributes/objects');
    if (value.length > WATCH_OBJECTS_MAX)
      throw badRequest(`objects: Field may not have more than ${WATCH_OBJECTS_MAX} objects.`, '/data/attributes/objects');
    return value.map((raw, i) => {
      const at = (field: string) => `/data/attributes/objects/${i}/${field}`;
      if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
        throw badRequest(`objects[${i}]: Field must be an object.`, `/data/attributes/objects/${i}`);
      const item = raw as Record<string, unknown>;
      const object: NewWatchObject = { ra: 0, dec: 0, radius: 0, comment: null };
      for (const [key, field, min, max] of OBJECT_RANGES) {
        const v = item[field];
        if (v === undefined || v === null || v === '') throw badRequest(`objects[${i}].${field}: ${MESSAGES.required}`, at(field));
        if (typeof v !== 'number' || !Number.isFinite(v)) throw badRequest(`objects[${i}].${field}: Field must be a number.`, at(field));
        if (v < min || v > max) throw badRequest(`objects[${i}].${field}: Field must be between ${min} and ${max}.`, at(field));
        (object[key] as number) = v;
      }
      const comment = item.comment;
      if (comment !== undefined && comment !== null) {
        if (typeof comment !== 'string') throw badRequest(`objects[${i}].comment: Field must be a string.`, at('comment'));
        if (comment.length > COMMENT_MAX) throw badRequest(`objects[${i}].comment: ${MESSAGES.maxLength(COMMENT_MAX)}`, at('comment'));
        object.comment = comment.trim() === '' ? null : comment;
      }
      return object;
    });
  }
}
