import { type RawBuilder, sql } from 'kysely';

import { allowed, type ColumnType, columnValue } from './field-rules.ts';
import { SearchQueryError } from './locus-fields.ts';

/**
 * The JSON:API `filter` parameter of list endpoints: a list of {field, op, value} (wire format
 * section 1; op one of eq, ne, lt, le, gt, ge, in) over a resource's whitelisted fields.
 */
export interface ListFilter {
  field: string;
  op: string;
  value: unknown;
}

const OPERATORS: Record<string, string> = { eq: '=', ne: '<>', lt: '<', le: '<=', gt: '>', ge: '>=' };

/** A column a list may be filtered on, with its SQL type (every value is checked against it). */
export interface FilterColumn {
  column: string;
  type: ColumnType;
}

export function compileListFilter(filters: unknown, columns: Record<string, FilterColumn>): RawBuilder<boolean> {
  if (filters === undefined) return sql<boolean>`true`;
  if (!Array.isArray(filters)) throw new SearchQueryError('filter must be a JSON list of {"field", "op", "value"} objects');
  const conditions = filters.map((item: unknown) => {
    if (typeof item !== 'object' || item === null) throw new SearchQueryError('Each filter must be an object with field, op and value');
    const { field, op, value } = item as ListFilter;
    const column = allowed(columns, field);
    if (!column) throw new SearchQueryError(`Cannot filter on ${describeName(field)} (use one of ${Object.keys(columns).join(', ')})`);
    const valueOf = (v: unknown) => columnValue(v, column.type, String(field));
    if (op === 'in') {
      if (!Array.isArray(value)) throw new SearchQueryError(`filter "in" on "${field}" needs a list of values`);
      if (value.length === 0) return sql<boolean>`false`;
      return sql<boolean>`${sql.ref(column.column)} IN (${sql.join(value.map(valueOf))})`;
    }
    const operator = allowed(OPERATORS, op);
    if (!operator) throw new SearchQueryError(`Unknown filter op ${describeName(op)} (use eq, ne, lt, le, gt, ge, in)`);
    return sql<boolean>`${sql.ref(column.column)} ${sql.raw(operator)} ${valueOf(value)}`;
  });
  return conditions.length === 0 ? sql<boolean>`true` : sql<boolean>`(${sql.join(conditions, sql` AND `)})`;
}

/** `sort=-created_at` over allow-listed fields. */
export function compileListSort(text: string, columns: Record<string, string | FilterColumn>): RawBuilder<unknown> {
  const parts = text
    .split(',')
    .filter(Boolean)
    .map((item) => {
      const descending = item.startsWith('-');
      const name = descending ? item.slice(1) : item;
      const entry = allowed(columns, name);
      const column = typeof entry === 'object' ? entry.column : entry;
      if (!column) throw new SearchQueryError(`Unknown sort field "${name}" (use one of ${Object.keys(columns).join(', ')})`);
      return sql`${sql.ref(column)} ${sql.raw(descending ? 'DESC' : 'ASC')}`;
    });
  if (parts.length === 0) throw new SearchQueryError(`sort names no field (use one of ${Object.keys(columns).join(', ')})`);
  return sql.join(parts);
}

function describeName(name: unknown): string {
  const text = JSON.stringify(name) ?? String(name);
  return text.length > 60 ? `${text.slice(0, 57)}..."` : text;
}
