import type { Kysely, Selectable } from 'kysely';

import type { Database, TagTable } from '../schema.ts';
import { compileListSort } from '../search/list-filter.ts';

export type TagRow = Selectable<TagTable>;

/** Tags of enabled versions of public filters: the only ones listed publicly. */
export class TagRepository {
  constructor(private readonly db: Kysely<Database>) {}

  private visible() {
    return this.db
      .selectFrom('tag')
      .innerJoin('filter', 'filter.enabled_version_id', 'tag.filter_version_id')
      .where('filter.public', '=', true)
      .select(['tag.tag_id', 'tag.filter_version_id', 'tag.description']);
  }

  async list(options: { sort: string; limit: number; offset: number }): Promise<{ rows: TagRow[]; count: number }> {
    const rows = await this.visible()
      .orderBy(compileListSort(options.sort, { id: 'tag.tag_id', description: 'tag.description' }))
      .limit(options.limit)
      .offset(options.offset)
      .execute();
    const all = await this.visible().execute();
    return { rows, count: all.length };
  }

  async find(name: string): Promise<TagRow | undefined> {
    return this.visible().where('tag.tag_id', '=', name).executeTakeFirst();
  }
}
