import type { Repositories } from '@antares/db';

import { badRequest, notFound } from '../errors.ts';
import { attributesOf, booleanField } from './body.ts';

/** Tags (from enabled public filters) and the filter runner, where admins pause enabled filters. */
export class TagService {
  constructor(private readonly repos: Repositories) {}

  list(options: { sort: string | undefined; limit: number; offset: number }) {
    return this.repos.tags.list({ ...options, sort: options.sort || '-id' });
  }

  async find(name: string) {
    const tag = await this.repos.tags.find(name);
    if (!tag) throw notFound(`No tag named "${name}"`);
    return tag;
  }

  runners(options: { sort: string | undefined; limit: number; offset: number }) {
    return this.repos.filters.listRunnable({ ...options, sort: options.sort || '-id' });
  }

  /** Pauses or resumes an enabled filter (`enabled` in the body's attributes). */
  async setRunnerEnabled(name: string, body: unknown) {
    const enabled = booleanField(attributesOf(body), 'enabled');
    if (enabled === undefined) throw badRequest('enabled: Field is required.');
    const filter = await this.repos.filters.findByName(name);
    if (!filter || filter.enabled_version_id === null) throw notFound(`No enabled filter named "${name}"`);
    return (await this.repos.filters.update(filter.filter_id, { runner_enabled: enabled }))!;
  }
}
