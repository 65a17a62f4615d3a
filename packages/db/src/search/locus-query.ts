import { htmCircleCover, parseAngleWithUnit, parseCoordinates } from '@antares/astro';
import { type RawBuilder, sql } from 'kysely';

import { BACKTEST_FIELD, backtestCondition } from './backtest-term.ts';
import { allowed, columnValue, integerBound } from './field-rules.ts';
import { fieldOf, type LocusField, SearchQueryError } from './locus-fields.ts';
import { SearchBudget } from './search-limits.ts';

/**
 * Compiles the Elasticsearch query subset that ANTARES clients send (wire format section 4) into a SQL
 * condition over the locus table. Anything outside the subset is a SearchQueryError naming the clause,
 * which the API answers with 400.
 */
export interface CompiledLocusSearch {
  where: RawBuilder<boolean>;
  /** `function_score.random_score`: the caller orders at random instead of by the requested sort. */
  randomOrder: boolean;
  /**
   * `random_score.seed`, as text: the same seed gives the same order, so the pages of one random listing
   * never repeat a locus. Without one the caller picks a seed and carries it in `links.next`.
   */
  randomSeed?: string;
}

type Json = unknown;
type Clause = Record<string, Json>;
const TRUE = sql<boolean>`true`;
const FALSE = sql<boolean>`false`;

export function compileLocusSearch(body: Json): CompiledLocusSearch {
  const state: CompileState = { randomOrder: false, budget: new SearchBudget() };
  if (body === undefined || body === null) return { where: TRUE, randomOrder: false };
  const root = asObject(body, 'the search document');
  for (const key of Object.keys(root)) {
    if (key !== 'query') throw new SearchQueryError(`Unsupported top-level key "${key}": only "query" is allowed`);
  }
  if (root.query === undefined) return { where: TRUE, randomOrder: false };
  const where = compileQuery(root.query, state, 1);
  return { where, randomOrder: state.randomOrder, ...(state.randomSeed === undefined ? {} : { randomSeed: state.randomSeed }) };
}

interface CompileState {
  randomOrder: boolean;
  randomSeed?: string;
  /** The document's nesting and clause limits (search-limits.ts), checked before each recursion. */
  budget: SearchBudget;
}

/** Elasticsearch takes a number or a string as `random_score.seed`. */
function randomSeedOf(randomScore: Json): string | undefined {
  if (!isObject(randomScore) || randomScore.seed === undefined) return undefined;
  const seed = randomScore.seed;
  if ((typeof seed === 'number' && Number.isFinite(seed)) || (typeof seed === 'string' && seed.length <= 100)) return String(seed);
  throw new SearchQueryError('random_score.seed must be a number or a string of at most 100 characters');
}

function compileQuery(query: Json, state: CompileState, depth: number): RawBuilder<boolean> {
  state.budget.enter(depth);
  const clause = asObject(query, 'a query clause');
  const keys = Object.keys(clause);
  if (keys.length !== 1) {
    throw new SearchQueryError(`A query clause must have exactly one key, got ${keys.length === 0 ? 'none' : keys.join(', ')}`);
  }
  const type = keys[0];
  const value = clause[type];
  switch (type) {
    case 'bool':
      return compileBool(asObject(value, 'bool'), state, depth);
    case 'match_all':
      return TRUE;
    case 'match_none':
      return FALSE;
    case 'term':
      return compileFieldClause('term', value, (field, v) => termCondition(field, unwrap(v, 'value')));
    case 'match':
      return compileFieldClause('match', value, (field, v) => termCondition(field, unwrap(v, 'query')));
    case 'terms':
      // Each value is a condition of its own (and up to four SQL parameters): it counts as a clause.
      state.budget.count(termsValues(value));
      return compileFieldClause('terms', value, (field, v) => {
        if (!Array.isArray(v)) throw new SearchQueryError('terms expects a list of values');
        if (v.length === 0) return FALSE;
        return or(v.map((item) => termCondition(field, item)));
      });
    case 'range':
      return compileFieldClause('range', value, rangeCondition);
    case 'wildcard':
      return compileFieldClause('wildcard', value, (field, v) => {
        const caseInsensitive = isObject(v) && v.case_insensitive === true;
        return wildcardCondition(field, asString(unwrap(v, 'value'), 'wildcard value'), caseInsensitive);
      });
    case 'exists': {
      const body = asObject(value, 'exists');
      return existsCondition(fieldOf(asString(body.field, 'exists.field')));
    }
    case 'query_string':
      return compileQueryString(asObject(value, 'query_string'), state.budget);
    case 'sky_distance':
      state.budget.cone();
      return compileSkyDistance(asObject(value, 'sky_distance'));
    case 'function_score': {
      const body = asObject(value, 'function_score');
      if (body.random_score === undefined) {
        throw new SearchQueryError('function_score is supported only with random_score');
      }
      state.randomOrder = true;
      state.randomSeed = randomSeedOf(body.random_score) ?? state.randomSeed;
      return body.query === undefined ? TRUE : compileQuery(body.query, state, depth + 1);
    }
    default:
      throw new SearchQueryError(`Unsupported query clause "${type}"`);
  }
}

function compileBool(bool: Clause, state: CompileState, depth: number): RawBuilder<boolean> {
  const known = new Set(['filter', 'must', 'should', 'must_not', 'minimum_should_match', 'boost']);
  for (const key of Object.keys(bool)) {
    if (!known.has(key)) throw new SearchQueryError(`Unsupported bool key "${key}"`);
  }
  const list = (v: Json) => (v === undefined ? [] : Array.isArray(v) ? v : [v]);
  const required = [...list(bool.filter), ...list(bool.must)].map((q) => compileQuery(q, state, depth + 1));
  const should = list(bool.should).map((q) => compileQuery(q, state, depth + 1));
  const mustNot = list(bool.must_not).map((q) => compileQuery(q, state, depth + 1));
  const conditions = [...required];
  if (should.length > 0) {
    // As in Elasticsearch: should clauses are optional when a must/filter is present.
    const minimum =
      bool.minimum_should_match === undefined
        ? required.length > 0
          ? 0
          : 1
        : asNonNegativeInteger(bool.minimum_should_match, 'minimum_should_match');
    // More than there are should clauses matches nothing (as in Elasticsearch); no huge number reaches SQL.
    if (minimum > should.length) conditions.push(FALSE);
    else if (minimum === 1) conditions.push(or(should));
    else if (minimum > 1) {
      const matched = sql.join(
        should.map((c) => sql`(CASE WHEN ${c} THEN 1 ELSE 0 END)`),
        sql` + `,
      );
      conditions.push(sql<boolean>`(${matched}) >= ${minimum}`);
    }
  }
  if (mustNot.length > 0) conditions.push(sql<boolean>`NOT (${or(mustNot)})`);
  return and(conditions);
}

function compileFieldClause(
  type: string,
  value: Json,
  build: (field: LocusField, fieldValue: Json) => RawBuilder<boolean>,
): RawBuilder<boolean> {
  const body = asObject(value, type);
  const fields = Object.keys(body).filter((key) => key !== 'boost');
  if (fields.length !== 1) throw new SearchQueryError(`${type} expects exactly one field, got ${fields.length}`);
  if (fields[0] === BACKTEST_FIELD) return backtestClause(type, body[fields[0]]);
  return build(fieldOf(fields[0]), body[fields[0]]);
}

/** A backtest's tagged loci (backtest-term.ts): by term, match or terms only. */
function backtestClause(type: string, value: Json): RawBuilder<boolean> {
  if (type === 'terms') {
    if (!Array.isArray(value)) throw new SearchQueryError('terms expects a list of values');
    return value.length === 0 ? FALSE : or(value.map((v) => backtestCondition(v)));
  }
  if (type === 'term' || type === 'match') return backtestCondition(unwrap(value, type === 'term' ? 'value' : 'query'));
  throw new SearchQueryError(`${type} is not supported on "${BACKTEST_FIELD}" (use term or terms)`);
}

function termCondition(field: LocusField, value: Json): RawBuilder<boolean> {
  if (value === null || typeof value === 'object') {
    throw new SearchQueryError(`term value for "${field.name}" must be a string, number or boolean`);
  }
  switch (field.kind) {
    case 'array':
      return sql<boolean>`${sql.ref(field.column)} @> ARRAY[${String(value)}]::text[]`;
    case 'text':
      return sql<boolean>`${sql.ref(field.column)} = ${String(value)}`;
    case 'number': {
      // A non-number never equals a number; a number the column cannot hold is refused, as Elasticsearch does.
      const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
      if (typeof number !== 'number' || Number.isNaN(number)) return FALSE;
      if (field.type !== 'float8' && !Number.isInteger(number)) return FALSE;
      return sql<boolean>`${sql.ref(field.column)} = ${columnValue(value, field.type, field.name)}`;
    }
    case 'property': {
      // A value or a list holding it (survey.ztf.id is a list): jsonb containment needs both forms.
      // Ids are stored as numbers when they fit a double exactly and as decimal text above 2^53, and
      // clients send either: an integer matches in both spellings.
      const spellings: Json[] = [value];
      if (typeof value === 'number' && Number.isSafeInteger(value)) spellings.push(String(value));
      if (typeof value === 'string' && /^-?\d{1,16}$/.test(value) && Number.isSafeInteger(Number(value))) spellings.push(Number(value));
      const conditions = spellings.flatMap((v) => [
        sql<boolean>`properties @> ${JSON.stringify(nest(field.path, v))}::jsonb`,
        sql<boolean>`properties @> ${JSON.stringify(nest(field.path, [v]))}::jsonb`,
      ]);
      return sql<boolean>`(${sql.join(conditions, sql` OR `)})`;
    }
  }
}

function rangeCondition(field: LocusField, value: Json): RawBuilder<boolean> {
  const bounds = asObject(value, `range on "${field.name}"`);
  const operators = { gt: '>', gte: '>=', lt: '<', lte: '<=' } as const;
  const parts: RawBuilder<boolean>[] = [];
  for (const [key, bound] of Object.entries(bounds)) {
    if (key === 'format' || key === 'boost') continue;
    const op = allowed<string>(operators, key);
    if (!op) throw new SearchQueryError(`Unsupported range operator "${key}" (use gt, gte, lt, lte)`);
    const number = typeof bound === 'string' && bound.trim() !== '' ? Number(bound) : bound;
    if (typeof number !== 'number' || !Number.isFinite(number)) {
      throw new SearchQueryError(`range bound ${key} on "${field.name}" must be a number`);
    }
    if (field.kind === 'number') {
      const value = field.type === 'float8' ? number : integerBound(number, key as keyof typeof operators, field.type, field.name);
      parts.push(sql<boolean>`${sql.ref(field.column)} ${sql.raw(op)} ${value}`);
    } else if (field.kind === 'property') {
      // jsonb comparison never fails on a non-number value, unlike a cast; the type check excludes them.
      const target = sql`(properties #> ${field.path})`;
      parts.push(sql<boolean>`(jsonb_typeof(${target}) = 'number' AND ${target} ${sql.raw(op)} to_jsonb(${number}::float8))`);
    } else {
      throw new SearchQueryError(`range is not supported on "${field.name}"`);
    }
  }
  if (parts.length === 0) throw new SearchQueryError(`range on "${field.name}" needs at least one bound`);
  return and(parts);
}

function wildcardCondition(field: LocusField, pattern: string, caseInsensitive: boolean): RawBuilder<boolean> {
  const like = pattern
    .replace(/[\\%_]/g, (c) => `\\${c}`)
    .replace(/\*/g, '%')
    .replace(/\?/g, '_');
  const op = sql.raw(caseInsensitive ? 'ILIKE' : 'LIKE');
  switch (field.kind) {
    case 'text':
      return sql<boolean>`${sql.ref(field.column)} ${op} ${like}`;
    case 'array':
      return sql<boolean>`EXISTS (SELECT 1 FROM unnest(${sql.ref(field.column)}) AS item WHERE item ${op} ${like})`;
    case 'property':
      return sql<boolean>`(properties #>> ${field.path}) ${op} ${like}`;
    case 'number':
      throw new SearchQueryError(`wildcard is not supported on numeric field "${field.name}"`);
  }
}

function existsCondition(field: LocusField): RawBuilder<boolean> {
  switch (field.kind) {
    case 'array':
      return sql<boolean>`cardinality(${sql.ref(field.column)}) > 0`;
    case 'property':
      return sql<boolean>`(properties #> ${field.path}) IS NOT NULL AND (properties #> ${field.path}) <> 'null'::jsonb`;
    default:
      return sql<boolean>`${sql.ref(field.column)} IS NOT NULL`;
  }
}

/** The web app's ID lookup: `{"query_string": {"query": "*ZTF21*", "fields": [...]}}`. Terms are ANDed. */
function compileQueryString(body: Clause, budget: SearchBudget): RawBuilder<boolean> {
  const query = asString(body.query, 'query_string.query').trim();
  const defaultFields = body.fields ?? (body.default_field === undefined ? undefined : [body.default_field]);
  if (defaultFields !== undefined && !Array.isArray(defaultFields)) {
    throw new SearchQueryError('query_string.fields must be a list of field names');
  }
  const fields = (defaultFields ?? ['locus_id', 'properties.ztf_object_id']).map((f) => fieldOf(asString(f, 'field')));
  const tokens = query.split(/\s+/).filter((t) => t !== '' && t !== 'AND');
  if (tokens.length === 0) return TRUE;
  budget.count(tokens.length * fields.length);
  return and(
    tokens.map((token) => {
      const colon = token.indexOf(':');
      if (colon > 0) {
        return wildcardCondition(fieldOf(token.slice(0, colon)), stripQuotes(token.slice(colon + 1)), true);
      }
      return or(fields.map((field) => wildcardCondition(field, stripQuotes(token), true)));
    }),
  );
}

function compileSkyDistance(body: Clause): RawBuilder<boolean> {
  let radius: number;
  try {
    radius = parseAngleWithUnit(asString(body.distance, 'sky_distance.distance'));
  } catch (error) {
    throw new SearchQueryError(`sky_distance.distance: ${(error as Error).message}`);
  }
  if (!(radius > 0) || radius > 180) throw new SearchQueryError('sky_distance.distance must be above 0 and at most 180 degrees');
  const htm = asObject(body.htm16, 'sky_distance.htm16');
  let center: { ra: number; dec: number };
  try {
    center = parseCoordinates(asString(htm.center, 'sky_distance.htm16.center'));
  } catch (error) {
    throw new SearchQueryError(`sky_distance.htm16.center: ${(error as Error).message}`);
  }
  const ranges = htmCircleCover(center.ra, center.dec, radius);
  const lows = ranges.map((r) => r[0]);
  const highs = ranges.map((r) => r[1]);
  // The ranges select candidates through the htm16 btree; the exact distance check then trims them.
  const inRanges = or(ranges.map((_, i) => sql<boolean>`htm16 BETWEEN ${lows[i]} AND ${highs[i]}`));
  return sql<boolean>`(${inRanges} AND angular_distance_deg(ra, dec, ${center.ra}::float8, ${center.dec}::float8) <= ${radius}::float8)`;
}

function and(conditions: RawBuilder<boolean>[]): RawBuilder<boolean> {
  if (conditions.length === 0) return TRUE;
  if (conditions.length === 1) return conditions[0];
  return sql<boolean>`(${sql.join(conditions, sql` AND `)})`;
}

function or(conditions: RawBuilder<boolean>[]): RawBuilder<boolean> {
  if (conditions.length === 0) return FALSE;
  if (conditions.length === 1) return conditions[0];
  return sql<boolean>`(${sql.join(conditions, sql` OR `)})`;
}

/** The values of a `terms` clause beyond its first (the clause itself counts once already). */
function termsValues(value: Json): number {
  if (!isObject(value)) return 0;
  const lists = Object.values(value).filter(Array.isArray);
  return lists.reduce((n, list) => n + Math.max(0, list.length - 1), 0);
}

function nest(path: string[], value: Json): Json {
  return path.reduceRight<Json>((inner, key) => ({ [key]: inner }), value);
}

function unwrap(value: Json, key: string): Json {
  return isObject(value) && key in value ? value[key] : value;
}

function stripQuotes(text: string): string {
  return text.replace(/^"(.*)"$/, '$1');
}

function isObject(value: Json): value is Clause {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function asObject(value: Json, what: string): Clause {
  if (!isObject(value)) throw new SearchQueryError(`Expected an object for ${what}`);
  return value;
}

function asString(value: Json, what: string): string {
  if (typeof value !== 'string') throw new SearchQueryError(`Expected a string for ${what}`);
  return value;
}

function asNonNegativeInteger(value: Json, what: string): number {
  const number = typeof value === 'string' ? Number(value) : value;
  if (typeof number !== 'number' || !Number.isInteger(number) || number < 0) {
    throw new SearchQueryError(`${what} must be a non-negative integer`);
  }
  return number;
}
