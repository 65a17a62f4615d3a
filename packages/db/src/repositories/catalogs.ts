import { type Kysely, type Selectable, sql } from 'kysely';

import type { CatalogTable, Database, JsonObject } from '../schema.ts';

export type CatalogRow = Selectable<CatalogTable>;

export interface NewCatalogObject {
  object_key: string;
  object_name: string | null;
  ra: number;
  dec: number;
  /** degrees */
  radius: number;
  properties: JsonObject;
  /** The HTM level-10 trixels the match circle touches. */
  cover: number[];
}

/** A catalog object that may match a position (an HTM level-10 neighbour): checked exactly by the caller. */
export interface CatalogCandidate {
  object_id: number;
  catalog_name: string;
  object_key: string;
  object_name: string | null;
  ra: number;
  dec: number;
  radius: number;
  htm10: number;
}

export interface CatalogMatchRow {
  locus_id: string;
  object_id: number;
  catalog_name: string;
  catalog_kind: 'point' | 'extended';
  object_key: string;
  object_name: string | null;
  ra: number;
  dec: number;
  radius: number;
  separation: number;
  properties: JsonObject;
}

const CHUNK = 5000;

export class CatalogRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /**
   * Replaces a catalog (or creates it) with these objects in one transaction: readers see the old one
   * or the new one, never half of it. The matches of the old objects go with them.
   */
  async replace(
    catalog: { name: string; kind: 'point' | 'extended'; source: string },
    objects: NewCatalogObject[],
    onProgress?: (done: number, total: number) => void,
  ): Promise<CatalogRow> {
    return this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('catalog').where('name', '=', catalog.name).execute();
      const created = await trx
        .insertInto('catalog')
        .values({ ...catalog, row_count: objects.length })
        .returningAll()
        .executeTakeFirstOrThrow();
      for (let i = 0; i < objects.length; i += CHUNK) {
        const chunk = objects.slice(i, i + CHUNK);
        const ids = await sql<{ id: number }>`SELECT nextval(pg_get_serial_sequence('catalog_object', 'object_id'))::bigint AS id
          FROM generate_series(1, ${chunk.length})`.execute(trx);
        const rows = chunk.map((o, k) => ({
          object_id: Number(ids.rows[k].id),
          object_key: o.object_key,
          object_name: o.object_name,
          ra: o.ra,
          dec: o.dec,
          radius: o.radius,
          properties: o.properties,
        }));
        await sql`INSERT INTO catalog_object (object_id, catalog_id, object_key, object_name, ra, dec, radius, properties) OVERRIDING SYSTEM VALUE
          SELECT object_id, ${created.catalog_id}, object_key, object_name, ra, dec, radius, properties
          FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
            AS x(object_id bigint, object_key text, object_name text, ra float8, dec float8, radius float8, properties jsonb)`.execute(trx);
        const coverIds: number[] = [];
        const coverObjects: number[] = [];
        chunk.forEach((o, k) => {
          for (const htm of o.cover) {
            coverIds.push(htm);
            coverObjects.push(rows[k].object_id);
          }
        });
        await sql`INSERT INTO catalog_cover (htm10, object_id) SELECT * FROM unnest(${coverIds}::bigint[], ${coverObjects}::bigint[])`.execute(
          trx,
        );
        onProgress?.(Math.min(i + CHUNK, objects.length), objects.length);
      }
      return { ...created, catalog_id: Number(created.catalog_id) };
    });
  }

  async list(): Promise<CatalogRow[]> {
    return this.db.selectFrom('catalog').selectAll().orderBy('name').execute();
  }

  /** Removes a catalog, its objects and their matches; false when there was none. */
  async remove(name: string): Promise<boolean> {
    const result = await this.db.deleteFrom('catalog').where('name', '=', name).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /** Objects whose match circle may hold a position in one of these level-10 trixels. */
  async candidates(htm10: number[]): Promise<CatalogCandidate[]> {
    if (htm10.length === 0) return [];
    const result =
      await sql<CatalogCandidate>`SELECT o.object_id, c.name AS catalog_name, o.object_key, o.object_name, o.ra, o.dec, o.radius, cc.htm10
      FROM catalog_cover cc JOIN catalog_object o ON o.object_id = cc.object_id JOIN catalog c ON c.catalog_id = o.catalog_id
      WHERE cc.htm10 = ANY(${[...new Set(htm10)]}::bigint[])`.execute(this.db);
    return result.rows;
  }

  /** Sets the matches of these loci (replacing theirs) and their `catalogs` names. */
  async replaceLocusMatches(
    locusIds: string[],
    matches: Array<{ locus_id: string; object_id: number; separation: number }>,
  ): Promise<void> {
    if (locusIds.length === 0) return;
    await sql`DELETE FROM locus_catalog_match WHERE locus_id = ANY(${locusIds}::text[])`.execute(this.db);
    if (matches.length > 0) {
      await sql`INSERT INTO locus_catalog_match (locus_id, object_id, separation)
        SELECT * FROM unnest(${matches.map((m) => m.locus_id)}::text[], ${matches.map((m) => m.object_id)}::bigint[], ${matches.map((m) => m.separation)}::float8[])
        ON CONFLICT DO NOTHING`.execute(this.db);
    }
    await sql`UPDATE locus AS l SET catalogs = ARRAY(
        SELECT DISTINCT c.name FROM locus_catalog_match m JOIN catalog_object o ON o.object_id = m.object_id JOIN catalog c ON c.catalog_id = o.catalog_id
        WHERE m.locus_id = l.locus_id ORDER BY c.name)
      WHERE l.locus_id = ANY(${locusIds}::text[])
        -- Only loci that match now or did before: ingestion calls this for every touched locus.
        AND (cardinality(l.catalogs) > 0 OR l.locus_id = ANY(${[...new Set(matches.map((m) => m.locus_id))]}::text[]))`.execute(this.db);
  }

  private matchQuery() {
    return this.db
      .selectFrom('locus_catalog_match as m')
      .innerJoin('catalog_object as o', 'o.object_id', 'm.object_id')
      .innerJoin('catalog as c', 'c.catalog_id', 'o.catalog_id')
      .select([
        'm.locus_id',
        'm.object_id',
        'c.name as catalog_name',
        'c.kind as catalog_kind',
        'o.object_key',
        'o.object_name',
        'o.ra',
        'o.dec',
        'o.radius',
        'm.separation',
        'o.properties',
      ]);
  }

  /** A locus' matches, nearest first (separation, then catalog name). */
  async matchesOfLocus(
    locusId: string,
    options: { descending: boolean; limit: number; offset: number },
  ): Promise<{ rows: CatalogMatchRow[]; count: number }> {
    const direction = options.descending ? 'desc' : 'asc';
    const rows = await this.matchQuery()
      .where('m.locus_id', '=', locusId)
      .orderBy('m.separation', direction)
      .orderBy('c.name')
      .orderBy('m.object_id')
      .limit(options.limit)
      .offset(options.offset)
      .execute();
    const total = await this.db
      .selectFrom('locus_catalog_match')
      .where('locus_id', '=', locusId)
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    return { rows, count: Number(total.n) };
  }

  /** The matches of many loci (Level 2's `locus.catalog_objects`). */
  async matchesOfLoci(locusIds: string[]): Promise<CatalogMatchRow[]> {
    if (locusIds.length === 0) return [];
    return this.matchQuery().where('m.locus_id', 'in', locusIds).orderBy('m.separation').execute();
  }

  /** The first `n` objects of every catalog. */
  async samples(n: number): Promise<
    Array<{
      catalog_name: string;
      object_id: number;
      object_key: string;
      object_name: string | null;
      ra: number;
      dec: number;
      properties: JsonObject;
    }>
  > {
    const result = await sql<{
      catalog_name: string;
      object_id: number;
      object_key: string;
      object_name: string | null;
      ra: number;
      dec: number;
      properties: JsonObject;
    }>`
      SELECT c.name AS catalog_name, o.object_id, o.object_key, o.object_name, o.ra, o.dec, o.properties
      FROM catalog c CROSS JOIN LATERAL (
        SELECT * FROM catalog_object WHERE catalog_id = c.catalog_id ORDER BY object_id LIMIT ${n}) o
      ORDER BY c.name, o.object_id`.execute(this.db);
    return result.rows;
  }

  /** Loci positions in locus-id order after `afterId`: re-matching every locus after an import. */
  async lociPage(afterId: string, limit: number): Promise<Array<{ locus_id: string; ra: number; dec: number }>> {
    return this.db
      .selectFrom('locus')
      .select(['locus_id', 'ra', 'dec'])
      .where('locus_id', '>', afterId)
      .orderBy('locus_id')
      .limit(limit)
      .execute();
  }

  /** Loci that have matches in a catalog (to re-match after it is removed or replaced). */
  async lociMatchedIn(catalogName: string): Promise<string[]> {
    const result = await sql<{
      locus_id: string;
    }>`SELECT DISTINCT locus_id FROM locus WHERE catalogs @> ARRAY[${catalogName}]::text[]`.execute(this.db);
    return result.rows.map((r) => r.locus_id);
  }

  async objectsById(
    objectIds: number[],
  ): Promise<
    Array<{ catalog_name: string; object_key: string; object_name: string | null; ra: number; dec: number; properties: JsonObject }>
  > {
    if (objectIds.length === 0) return [];
    return this.db
      .selectFrom('catalog_object as o')
      .innerJoin('catalog as c', 'c.catalog_id', 'o.catalog_id')
      .select(['c.name as catalog_name', 'o.object_key', 'o.object_name', 'o.ra', 'o.dec', 'o.properties'])
      .where('o.object_id', 'in', objectIds)
      .orderBy('c.name')
      .orderBy('o.object_id')
      .execute();
  }

  /**
   * Some objects of a catalog north of declination -25 (the simulated sky), optionally of these
   * `type`s, in catalog order: the demo places simulated objects on them.
   */
  async someObjects(catalogName: string, limit: number, types?: string[]): Promise<Array<{ ra: number; dec: number; radius: number }>> {
    let query = this.db
      .selectFrom('catalog_object as o')
      .innerJoin('catalog as c', 'c.catalog_id', 'o.catalog_id')
      .select(['o.ra', 'o.dec', 'o.radius'])
      .where('c.name', '=', catalogName)
      .where('o.dec', '>', -25)
      .where('o.dec', '<', 85);
    if (types) query = query.where(sql<string>`o.properties->>'type'`, 'in', types);
    return query.orderBy('o.object_id').limit(limit).execute();
  }
}
