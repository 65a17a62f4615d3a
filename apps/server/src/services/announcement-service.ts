import { ANNOUNCEMENT_VARIANTS, LIMITS, MESSAGES } from '@antares/contract';
import type { AnnouncementRow, Repositories } from '@antares/db';

import { badRequest, notFound } from '../errors.ts';
import { booleanField, stringField } from './body.ts';
import { parseJsonText } from './query-params.ts';

/** Announcements (the banners): the spec's limits on what admins create and toggle. */
export class AnnouncementService {
  constructor(private readonly repos: Repositories) {}

  /** `filter` is the JSON text of a filter list (the repository checks its fields and values). */
  list({ filter, ...options }: { filter: string | undefined; sort: string | undefined; limit: number; offset: number }) {
    return this.repos.announcements.list({ ...options, filter: parseJsonText('filter', filter), sort: options.sort || '-active' });
  }

  async create(attributes: Record<string, unknown>): Promise<AnnouncementRow> {
    const message = (stringField(attributes, 'message') ?? '').trim();
    if (message === '') throw badRequest(`message: ${MESSAGES.required}`, '/data/attributes/message');
    if (message.length > LIMITS.announcementMessageMax) {
      throw badRequest(`message: ${MESSAGES.maxLength(LIMITS.announcementMessageMax)}`, '/data/attributes/message');
    }
    const variant = stringField(attributes, 'variant') ?? 'info';
    if (!(ANNOUNCEMENT_VARIANTS as readonly string[]).includes(variant)) {
      throw badRequest(`variant must be one of ${ANNOUNCEMENT_VARIANTS.join(', ')}`, '/data/attributes/variant');
    }
    return this.repos.announcements.create({ message, variant, active: booleanField(attributes, 'active') ?? false });
  }

  async setActive(id: number | null, idText: string, attributes: Record<string, unknown>): Promise<AnnouncementRow> {
    const active = booleanField(attributes, 'active');
    if (active === undefined) throw badRequest(`active: ${MESSAGES.required}`, '/data/attributes/active');
    const row = id === null ? undefined : await this.repos.announcements.update(id, { active });
    if (!row) throw notFound(`No announcement with id "${idText}"`);
    return row;
  }
}
