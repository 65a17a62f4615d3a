import { sql, type RawBuilder } from 'kysely';
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

export function compileListFilter(filters: unknown, columns: Record<string, string>): RawBuilder<boolean> {
  if (filters === undefined) return sql<boolean>`true`;
  if (!Array.isArray(filters)) throw new SearchQueryError('filter must be a JSON list of {"field", "op", "value"} objects');
  const conditions = filters.map((item: unknown) => {
    if (typeof item !== 'object' || item === null) throw new SearchQueryError('Each filter must be an object with field, op and value');
    const { field, op, value } = item as ListFilter;
    const column = typeof field === 'string' ? columns[field] : undefined;
    if (!column) throw new SearchQueryError(`Cannot filter on "${String(field)}" (use one of ${Object.keys(columns).join(', ')})`);
    if (op === 'in') {
      if (!Array.isArray(value)) throw new SearchQueryError(`filter "in" on "${field}" needs a list of values`);
      if (value.length === 0) return sql<boolean>`false`;
      return sql<boolean>`${sql.ref(column)} IN (${sql.join(value.map(scalar))})`;
    }
    const operator = OPERATORS[op];
    if (!operator) throw new SearchQueryError(`Unknown filter op "${String(op)}" (use eq, ne, lt, le, gt, ge, in)`);
    return sql<boolean>`${sql.ref(column)} ${sql.raw(operator)} ${scalar(value)}`;
  });
  return conditions.length === 0 ? sql<boolean>`true` : sql<boolean>`(${sql.join(conditions, sql` AND `)})`;
}

function scalar(value: unknown): string | number | boolean {
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  throw new SearchQueryError('Filter values must be strings, numbers or booleans');
}

/** `sort=-created_at` over whitelisted fields. */
export function compileListSort(text: string, columns: Record<string, string>): RawBuilder<unknown> {
  const parts = text.split(',').filter(Boolean).map((item) => {
    const descending = item.startsWith('-');
    const name = descending ? item.slice(1) : item;
    const column = columns[name];
    if (!column) throw new SearchQueryError(`Unknown sort field "${name}" (use one of ${Object.keys(columns).join(', ')})`);
    return sql`${sql.ref(column)} ${sql.raw(descending ? 'DESC' : 'ASC')}`;
  });
  return sql.join(parts);
}
