import type { Kysely, Selectable } from 'kysely';

import type { AnnouncementTable, Database } from '../schema.ts';
import { compileListFilter, compileListSort, type FilterColumn } from '../search/list-filter.ts';

export type AnnouncementRow = Selectable<AnnouncementTable>;

const COLUMNS: Record<string, FilterColumn> = {
  id: { column: 'announcement_id', type: 'bigint' },
  message: { column: 'message', type: 'text' },
  variant: { column: 'variant', type: 'text' },
  active: { column: 'active', type: 'boolean' },
  created_at: { column: 'created_at', type: 'timestamptz' },
};

export class AnnouncementRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async list(options: {
    filter: unknown;
    sort: string;
    limit: number;
    offset: number;
  }): Promise<{ rows: AnnouncementRow[]; count: number }> {
    const where = compileListFilter(options.filter, COLUMNS);
    const rows = await this.db
      .selectFrom('announcement')
      .selectAll()
      .where(where)
      .orderBy(compileListSort(options.sort, COLUMNS))
      .orderBy('announcement_id', 'desc')
      .limit(options.limit)
      .offset(options.offset)
      .execute();
    const count = await this.db
      .selectFrom('announcement')
      .select((eb) => eb.fn.countAll().as('n'))
      .where(where)
      .executeTakeFirstOrThrow();
    return { rows, count: Number(count.n) };
  }

  async create(values: { message: string; variant: string; active: boolean }): Promise<AnnouncementRow> {
    return this.db.insertInto('announcement').values(values).returningAll().executeTakeFirstOrThrow();
  }

  async update(id: number, changes: { active?: boolean; message?: string; variant?: string }): Promise<AnnouncementRow | undefined> {
    if (Object.keys(changes).length === 0) {
      return this.db.selectFrom('announcement').selectAll().where('announcement_id', '=', id).executeTakeFirst();
    }
    return this.db.updateTable('announcement').set(changes).where('announcement_id', '=', id).returningAll().executeTakeFirst();
  }
}
