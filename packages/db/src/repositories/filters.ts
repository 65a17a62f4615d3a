import { type Kysely, type Selectable, sql } from 'kysely';

import type { Database, FilterTable, FilterVersionTable, JsonObject } from '../schema.ts';
import { compileListSort } from '../search/list-filter.ts';

/** A filter with the id of its newest version. */
export type FilterRow = Selectable<FilterTable> & { latest_version_id: number | null };

export type FilterVersionRow = Selectable<FilterVersionTable>;

/** Who is looking: private filters are visible to their owner and to admins only. */
export type FilterViewer = { userId: number; admin: boolean } | null;

const FILTER_SORT = {
  id: 'filter_id',
  name: 'name',
  created_at: 'created_at',
  updated_at: 'updated_at',
  public: 'public',
  priority: 'priority',
};
const VERSION_SORT = { id: 'filter_version_id', created_at: 'created_at', status: 'status', updated_at: 'updated_at' };

export class FilterRepository {
  constructor(private readonly db: Kysely<Database>) {}

  private base() {
    return this.db
      .selectFrom('filter')
      .selectAll('filter')
      .select((eb) =>
        eb
          .selectFrom('filter_version')
          .select((v) => v.fn.max('filter_version_id').as('m'))
          .whereRef('filter_version.filter_id', '=', 'filter.filter_id')
          .as('latest_version_id'),
      );
  }

  async findById(filterId: number): Promise<FilterRow | undefined> {
    return this.base().where('filter_id', '=', filterId).executeTakeFirst() as Promise<FilterRow | undefined>;
  }

  async create(values: { user_id: number; name: string; description: string }): Promise<FilterRow | undefined> {
    const result = await sql<{ filter_id: number }>`INSERT INTO filter (user_id, name, description)
      VALUES (${values.user_id}, ${values.name}, ${values.description})
      ON CONFLICT ((lower(name))) DO NOTHING RETURNING filter_id`.execute(this.db);
    return result.rows[0] ? this.findById(result.rows[0].filter_id) : undefined;
  }

  async list(options: {
    viewer: FilterViewer;
    ownerId?: number;
    sort: string;
    limit: number;
    offset: number;
  }): Promise<{ rows: FilterRow[]; count: number }> {
    const { viewer } = options;
    const visible = viewer?.admin
      ? sql<boolean>`true`
      : viewer
        ? sql<boolean>`(public OR user_id = ${viewer.userId})`
        : sql<boolean>`public`;
    const owner = options.ownerId === undefined ? sql<boolean>`true` : sql<boolean>`user_id = ${options.ownerId}`;
    const rows = (await this.base()
      .where(visible)
      .where(owner)
      .orderBy(compileListSort(options.sort, FILTER_SORT))
      .orderBy('filter_id', 'desc')
      .limit(options.limit)
      .offset(options.offset)
      .execute()) as FilterRow[];
    const count = await this.db
      .selectFrom('filter')
      .select((eb) => eb.fn.countAll().as('n'))
      .where(visible)
      .where(owner)
      .executeTakeFirstOrThrow();
    return { rows, count: Number(count.n) };
  }

  async update(
    filterId: number,
    changes: { public?: boolean; runner_enabled?: boolean; priority?: number },
  ): Promise<FilterRow | undefined> {
    await this.db
      .updateTable('filter')
      .set({ ...changes, updated_at: new Date() })
      .where('filter_id', '=', filterId)
      .execute();
    return this.findById(filterId);
  }

  async findByName(name: string): Promise<FilterRow | undefined> {
    return this.base()
      .where(sql`lower(name)`, '=', name.toLowerCase())
      .executeTakeFirst() as Promise<FilterRow | undefined>;
  }

  /** Filters with an enabled version: what the filter runner lists and the pipeline runs. */
  async listRunnable(options: { sort: string; limit: number; offset: number }): Promise<{ rows: FilterRow[]; count: number }> {
    const rows = (await this.base()
      .where('enabled_version_id', 'is not', null)
      // The runner's id is the filter name (spec: "Name (the id, sortable)").
      .orderBy(
        compileListSort(options.sort.replace(/^(-?)enabled$/, '$1runner_enabled'), {
          ...FILTER_SORT,
          id: 'name',
          runner_enabled: 'runner_enabled',
        }),
      )
      .orderBy('filter_id', 'desc')
      .limit(options.limit)
      .offset(options.offset)
      .execute()) as FilterRow[];
    const count = await this.db
      .selectFrom('filter')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('enabled_version_id', 'is not', null)
      .executeTakeFirstOrThrow();
    return { rows, count: Number(count.n) };
  }

  /** What Level 2 runs: enabled versions of filters the runner has on, highest priority first. */
  /** The enabled versions Level 2 runs, in priority order; `declared_outputs` orders chained filters (ADR 0055). */
  async listForPipeline(): Promise<
    Array<{
      filter_id: number;
      name: string;
      version_id: number;
      code: string;
      filter_class: string | null;
      declared_outputs: JsonObject | null;
      public: boolean;
    }>
  > {
    return this.db
      .selectFrom('filter')
      .innerJoin('filter_version', 'filter_version.filter_version_id', 'filter.enabled_version_id')
      .where('filter.runner_enabled', '=', true)
      .select([
        'filter.filter_id',
        'filter.name',
        'filter_version.filter_version_id as version_id',
        'filter_version.code',
        'filter_version.filter_class',
        'filter_version.declared_outputs',
        'filter.public',
      ])
      .orderBy('filter.priority', 'asc')
      .orderBy('filter.filter_id', 'asc')
      .execute();
  }

  async listVersions(
    filterId: number,
    options: { sort: string; limit: number; offset: number },
  ): Promise<{ rows: FilterVersionRow[]; count: number }> {
    const rows = await this.db
      .selectFrom('filter_version')
      .selectAll()
      .where('filter_id', '=', filterId)
      .orderBy(compileListSort(options.sort, VERSION_SORT))
      .orderBy('filter_version_id', 'desc')
      .limit(options.limit)
      .offset(options.offset)
      .execute();
    const count = await this.db
      .selectFrom('filter_version')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('filter_id', '=', filterId)
      .executeTakeFirstOrThrow();
    return { rows, count: Number(count.n) };
  }

  async findVersion(filterId: number, versionId: number): Promise<FilterVersionRow | undefined> {
    return this.db
      .selectFrom('filter_version')
      .selectAll()
      .where('filter_id', '=', filterId)
      .where('filter_version_id', '=', versionId)
      .executeTakeFirst();
  }

  async createVersion(values: {
    filter_id: number;
    code: string;
    comment: string;
    declared_outputs: JsonObject | null;
    filter_class?: string | null;
  }): Promise<FilterVersionRow> {
    return this.db
      .insertInto('filter_version')
      .values({
        filter_id: values.filter_id,
        code: values.code,
        comment: values.comment,
        filter_class: values.filter_class ?? null,
        declared_outputs: values.declared_outputs === null ? null : JSON.stringify(values.declared_outputs),
        validated_at: values.declared_outputs === null ? null : new Date(),
      })
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  /**
   * Moves a version to a status. Enabling makes it the filter's one enabled version (a previously
   * enabled version becomes DISABLED) and registers its declared tags; disabling clears it.
   */
  async transition(filterId: number, versionId: number, status: string, feedback: string | null): Promise<FilterVersionRow | undefined> {
    return this.db.transaction().execute(async (trx) => {
      const now = new Date();
      if (status === 'ENABLED') {
        await trx
          .updateTable('filter_version')
          .set({ status: 'DISABLED', disabled_at: now, transitioned_at: now, updated_at: now })
          .where('filter_id', '=', filterId)
          .where('status', '=', 'ENABLED')
          .where('filter_version_id', '<>', versionId)
          .execute();
      }
      const row = await trx
        .updateTable('filter_version')
        .set({
          status,
          feedback,
          transitioned_at: now,
          updated_at: now,
          ...(status === 'ENABLED' ? { enabled_at: now } : {}),
          ...(status === 'DISABLED' ? { disabled_at: now } : {}),
        })
        .where('filter_id', '=', filterId)
        .where('filter_version_id', '=', versionId)
        .returningAll()
        .executeTakeFirst();
      if (!row) return undefined;
      if (status === 'ENABLED') {
        await trx
          .updateTable('filter')
          .set({ enabled_version_id: versionId, disabled_at: null, updated_at: now })
          .where('filter_id', '=', filterId)
          .execute();
        const tags = ((row.declared_outputs as { tags?: unknown } | null)?.tags ?? []) as string[];
        const descriptions = (row.declared_outputs as { tag_descriptions?: Record<string, string> } | null)?.tag_descriptions ?? {};
        for (const tag of tags) {
          await trx
            .insertInto('tag')
            .values({ tag_id: tag, filter_version_id: versionId, description: descriptions[tag] ?? '' })
            .onConflict((oc) => oc.column('tag_id').doUpdateSet({ filter_version_id: versionId, description: descriptions[tag] ?? '' }))
            .execute();
        }
      } else {
        await trx
          .updateTable('filter')
          .set({ enabled_version_id: null, disabled_at: now, updated_at: now })
          .where('filter_id', '=', filterId)
          .where('enabled_version_id', '=', versionId)
          .execute();
      }
      return row;
    });
  }
}
