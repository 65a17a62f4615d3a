import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import { sql } from 'kysely';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createTestDatabase, type TestDatabase } from './testing.ts';

// schema.ts is kept by hand beside the SQL migrations: this holds the two to the same tables and columns.

/** Table name -> its column names, read from schema.ts's `Database` interface and the row interfaces it names. */
function schemaTables(): Map<string, string[]> {
  const file = fileURLToPath(new URL('./schema.ts', import.meta.url));
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest);
  const interfaces = new Map<string, ts.InterfaceDeclaration>();
  source.forEachChild((node) => {
    if (ts.isInterfaceDeclaration(node)) interfaces.set(node.name.text, node);
  });
  const names = (node: ts.InterfaceDeclaration) =>
    node.members.filter(ts.isPropertySignature).map((member) => (member.name as ts.Identifier).text);
  const database = interfaces.get('Database');
  if (!database) throw new Error('schema.ts has no Database interface');
  const tables = new Map<string, string[]>();
  for (const member of database.members.filter(ts.isPropertySignature)) {
    const row = member.type && ts.isTypeReferenceNode(member.type) ? interfaces.get(member.type.typeName.getText(source)) : undefined;
    if (!row) throw new Error(`schema.ts: the row type of ${member.name.getText(source)} is not an interface of the file`);
    tables.set(member.name.getText(source), names(row).sort());
  }
  return tables;
}

describe('schema.ts', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database.close();
  });

  it('names every column of every table the migrations make, and no other', async () => {
    const declared = schemaTables();
    const { rows } = await sql<{ table_name: string; column_name: string }>`
      SELECT c.table_name, c.column_name FROM information_schema.columns c
      JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
      JOIN pg_class k ON k.relname = c.table_name AND k.relnamespace = 'public'::regnamespace
      WHERE c.table_schema = 'public' AND t.table_type = 'BASE TABLE' AND NOT k.relispartition`.execute(database.db);
    const migrated = new Map<string, string[]>();
    for (const row of rows) migrated.set(row.table_name, [...(migrated.get(row.table_name) ?? []), row.column_name]);
    for (const columns of migrated.values()) columns.sort();
    expect(Object.fromEntries([...declared].sort())).toEqual(Object.fromEntries([...migrated].sort()));
  });
});
