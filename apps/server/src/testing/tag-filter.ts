// Test support: an enabled filter that declares a tag, so that the tag's stream exists (streams, edge tests).
import type { Repositories } from '@antares/db';

/** Enables a filter of `ownerName` (made if new) declaring `tag`; public when `isPublic`. */
export async function enableTagFilter(repos: Repositories, tag: string, isPublic: boolean, ownerName: string): Promise<void> {
  const owner =
    (await repos.users.findByUsername(ownerName)) ??
    (await repos.users.create({ username: ownerName, email: `${ownerName}@example.org`, name: ownerName, password_hash: 'x' }))!;
  const filter = (await repos.filters.create({ user_id: owner.user_id, name: `Filter ${tag}`, description: tag }))!;
  if (isPublic) await repos.filters.update(filter.filter_id, { public: true });
  const version = await repos.filters.createVersion({
    filter_id: filter.filter_id,
    code: '#',
    comment: 'v1',
    declared_outputs: { tags: [tag] },
  });
  await repos.filters.transition(filter.filter_id, version.filter_version_id, 'ENABLED', null);
}
