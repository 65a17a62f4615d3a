import fc from 'fast-check';

/**
 * The values an attacker tries, as fast-check arbitraries: text with NUL characters and lone UTF-16
 * surrogates, built-in JavaScript property names, numbers too large for any column, broken
 * percent-encodings, wrong JSON types. The request builder (route-requests.ts) puts them wherever a
 * route reads input: path parameters, query parameters, headers and bodies.
 */

/** Names every plain JavaScript object inherits: a lookup table indexed by one must not find anything. */
export const PROTOTYPE_NAMES = [
  '__proto__',
  'constructor',
  'toString',
  'valueOf',
  'hasOwnProperty',
  'prototype',
  'isPrototypeOf',
  '__defineGetter__',
];

/** Texts that broke, or could break, a handler or the database behind it. */
const HOSTILE_TEXTS = [
  '\u0000',
  'a\u0000b',
  '\ud800',
  'x\udfff',
  '\ud83d',
  '\udc00\ud800',
  ...PROTOTYPE_NAMES,
  ...PROTOTYPE_NAMES.map((name) => `-${name}`),
  'properties.__proto__',
  'properties.constructor',
  'properties.toString.x',
  '9223372036854775808',
  '-9223372036854775809',
  '2147483648',
  '1e308',
  '-1e308',
  '1e-400',
  'NaN',
  'Infinity',
  '-0',
  '0x10',
  '1_000',
  '',
  ' ',
  '-',
  ',',
  '*',
  '?',
  '%',
  '..',
  '../../etc/passwd',
  '\\',
  "'; DROP TABLE locus; --",
  '" OR 1=1 --',
  '{"a":',
  '[]',
  '{}',
  'null',
  'true',
  '\u202e',
  '\ufeff',
  '\u{1d518}\u{1d52b}',
  'é',
  '\r\n',
  '\t',
  'not-a-date',
  '0001-01-01T00:00:00Z',
  '99999-01-01',
  '-271821-04-20T00:00:00Z',
  '+275760-09-13T00:00:00Z',
  '0000-01-01',
  '2024-02-30',
  'ZTF18aaxjdyr',
  'ANT2020aaaaa',
];

/** Text for any slot: hostile texts, random Unicode (surrogates included), numbers as text, long text. */
export const hostileText: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...HOSTILE_TEXTS) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 12 }) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.string({ maxLength: 4 }), fc.integer({ min: 0xd800, max: 0xdfff }))
      .map(([s, unit]) => s + String.fromCharCode(unit)),
  },
  { weight: 2, arbitrary: numberText() },
  { weight: 1, arbitrary: fc.constantFrom(2000, 70_000).map((n) => 'x'.repeat(n)) },
);

/** Numbers written as text: whole, fractional, enormous, negative. */
export function numberText(): fc.Arbitrary<string> {
  return fc.oneof(
    fc.integer().map(String),
    fc.double().map(String),
    fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }).map(String),
    fc.constantFrom('0', '1', '-1', '25', '1000', '1001', '4294967296', '9007199254740993'),
  );
}

/** Numbers for JSON bodies: the extremes of every column type, and ordinary ones. */
export const hostileNumber: fc.Arbitrary<number> = fc.oneof(
  fc.constantFrom(
    1e308,
    -1e308,
    Number.MAX_VALUE,
    Number.MIN_VALUE,
    2 ** 31,
    -(2 ** 31) - 1,
    2 ** 53 + 2,
    9223372036854775808,
    0.5,
    -0,
    0,
    1,
    -1,
    360.1,
    91,
  ),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.integer(),
);

/** Any JSON value, its strings and member names hostile, `keys` (a route's own field names) among them. */
export function hostileJson(keys: string[] = [], maxDepth = 3): fc.Arbitrary<unknown> {
  const key = fc.oneof(fc.constantFrom(...keys, ...PROTOTYPE_NAMES, 'data', 'attributes', 'id', 'type'), hostileText);
  const { value } = fc.letrec<{ value: unknown }>((tie) => ({
    value: fc.oneof(
      { depthSize: 'small', maxDepth },
      hostileText,
      hostileNumber,
      fc.boolean(),
      fc.constant(null),
      fc.array(tie('value'), { maxLength: 4 }),
      fc.dictionary(key, tie('value'), { maxKeys: 4 }),
    ),
  }));
  return value;
}

/** Fields of the locus document a search names, real and hostile. */
const LOCUS_FIELDS = [
  'locus_id',
  'id',
  'ra',
  'dec',
  'htm16',
  'tags',
  'catalogs',
  'grav_wave_events',
  'watch_list_ids',
  'watch_object_ids',
  'properties.ztf_object_id',
  'properties.num_mag_values',
  'properties.newest_alert_observation_time',
  'properties.oldest_alert_observation_time',
  'properties.survey.lsst.dia_object_id',
  'properties.brightest_alert_magnitude',
];
const searchField = fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...LOCUS_FIELDS) }, { weight: 1, arbitrary: hostileText });
const scalar = fc.oneof(hostileText, hostileNumber, fc.boolean(), fc.constant(null));

const searchSubset: fc.Arbitrary<unknown> = fc
  .letrec<{ clause: unknown }>((tie) => ({
    clause: fc.oneof(
      { depthSize: 'small', maxDepth: 3 },
      fc.record({ term: fc.dictionary(searchField, fc.oneof(scalar, fc.record({ value: scalar })), { minKeys: 1, maxKeys: 1 }) }),
      fc.record({ match: fc.dictionary(searchField, scalar, { minKeys: 1, maxKeys: 1 }) }),
      fc.record({ terms: fc.dictionary(searchField, fc.array(scalar, { maxLength: 3 }), { minKeys: 1, maxKeys: 1 }) }),
      fc.record({
        range: fc.dictionary(
          searchField,
          fc.dictionary(fc.constantFrom('gt', 'gte', 'lt', 'lte', 'format', ...PROTOTYPE_NAMES), scalar, { maxKeys: 2 }),
          { minKeys: 1, maxKeys: 1 },
        ),
      }),
      fc.record({
        wildcard: fc.dictionary(searchField, fc.oneof(scalar, fc.record({ value: scalar, case_insensitive: fc.boolean() })), {
          minKeys: 1,
          maxKeys: 1,
        }),
      }),
      fc.record({ exists: fc.record({ field: fc.oneof(searchField, scalar) }) }),
      fc.record({
        query_string: fc.record(
          { query: fc.oneof(hostileText, scalar), fields: fc.array(searchField, { maxLength: 2 }) },
          { requiredKeys: ['query'] },
        ),
      }),
      fc.record({
        sky_distance: fc.record({
          distance: fc.oneof(fc.constantFrom('1 degree', '10 arcsec', '181 degrees', '0 degree', '1e308 degree'), hostileText),
          htm16: fc.record({ center: fc.oneof(fc.constantFrom('10 20', '359.9 -89.9', '1e308 0'), hostileText) }),
        }),
      }),
      fc.record({
        bool: fc.record(
          {
            filter: fc.array(tie('clause'), { maxLength: 2 }),
            must: tie('clause'),
            should: fc.array(tie('clause'), { maxLength: 3 }),
            must_not: fc.array(tie('clause'), { maxLength: 2 }),
            minimum_should_match: fc.oneof(hostileNumber, hostileText),
          },
          { requiredKeys: [] },
        ),
      }),
      fc.record({ function_score: fc.record({ random_score: fc.constant({}), query: tie('clause') }, { requiredKeys: [] }) }),
      fc.constantFrom({ match_all: {} }, { match_none: {} }),
      hostileJson(['query', 'bool', 'term', 'range'], 2),
    ),
  }))
  .clause.map((query) => ({ query }));

/** Search documents nested past the depth limit, up to 600 deep: too deep for a URL (a 431), not for a body. */
export const deepSearch: fc.Arbitrary<unknown> = fc
  .tuple(fc.integer({ min: 18, max: 600 }), fc.constantFrom('must', 'filter', 'should', 'must_not'))
  .map(([depth, key]) => {
    let query: unknown = { match_all: {} };
    for (let i = 1; i < depth; i++) query = { bool: { [key]: [query] } };
    return { query };
  });

/**
 * Search documents past the compiler's limits (issue #49, ADR 0060): nestings around and far past the
 * depth limit, and more clauses (terms values, should lists, cones) than allowed; each must be a 400
 * naming the limit (or an answer, below it), never a 500 or a statement PostgreSQL refuses.
 */
const oversizedSearch: fc.Arbitrary<unknown> = fc.oneof(
  deepSearch,
  fc.integer({ min: 1000, max: 1500 }).map((n) => ({ query: { terms: { locus_id: Array.from({ length: n }, (_, i) => i) } } })),
  // Each term of a query_string counts once per field (two by default).
  fc.integer({ min: 500, max: 700 }).map((n) => ({ query: { query_string: { query: 'a '.repeat(n) } } })),
  fc.integer({ min: 10, max: 40 }).map((n) => ({
    query: { bool: { should: Array(n).fill({ sky_distance: { distance: '1 degree', htm16: { center: '10 20' } } }) } },
  })),
);

/** A search document of the Elasticsearch subset (wire format section 4), with hostile fields and values, some oversized. */
export const searchDocument: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 6, arbitrary: searchSubset },
  { weight: 1, arbitrary: oversizedSearch },
);

/** The `filter` parameter of list routes: `[{field, op, value}]` with hostile parts. */
export const listFilter: fc.Arbitrary<unknown> = fc.array(
  fc.record(
    {
      field: fc.oneof(fc.constantFrom('id', 'message', 'variant', 'active', 'created_at'), hostileText, hostileNumber),
      op: fc.oneof(fc.constantFrom('eq', 'ne', 'lt', 'le', 'gt', 'ge', 'in'), hostileText),
      value: fc.oneof(scalar, fc.array(scalar, { maxLength: 3 }), hostileJson([], 1)),
    },
    { requiredKeys: [] },
  ),
  { maxLength: 3 },
);

/** `sort` values: comma-separated fields, some descending, real and hostile. */
export function sortText(fields: string[]): fc.Arbitrary<string> {
  const one = fc
    .tuple(fc.boolean(), fc.oneof(fc.constantFrom(...fields, ...LOCUS_FIELDS, 'created_at', 'name', 'id'), hostileText))
    .map(([descending, field]) => `${descending ? '-' : ''}${field}`);
  return fc.array(one, { minLength: 1, maxLength: 3 }).map((parts) => parts.join(','));
}

/** Header values the HTTP client can send (no control characters), some of them long. */
export const headerText: fc.Arbitrary<string> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.string({
      unit: fc
        .integer({ min: 0x20, max: 0xff })
        .filter((c) => c !== 0x7f)
        .map((c) => String.fromCharCode(c)),
      maxLength: 40,
    }),
  },
  {
    weight: 4,
    arbitrary: fc.constantFrom(
      ...PROTOTYPE_NAMES,
      'Bearer ',
      'Bearer x.y.z',
      'Basic Zm9vOmJhcg==',
      'application/json',
      '*/*',
      '0',
      '-1',
      '99999999999999999999',
    ),
  },
  { weight: 1, arbitrary: fc.constantFrom(4000, 20_000).map((n) => 'h'.repeat(n)) },
);

/**
 * A text as it appears in a URL: every character outside the unreserved set percent-encoded as UTF-8, and a
 * lone surrogate as the three bytes WTF-8 gives it (which no UTF-8 decoder accepts), as an attacker sends it.
 */
export function percentEncode(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    const next = text.charCodeAt(i + 1);
    let codePoint = unit;
    if (unit >= 0xd800 && unit <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
      codePoint = 0x10000 + ((unit - 0xd800) << 10) + (next - 0xdc00);
      i++;
    }
    const char = String.fromCodePoint(codePoint);
    out += /^[A-Za-z0-9\-._~]$/.test(char)
      ? char
      : [...utf8Bytes(codePoint)].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join('');
  }
  return out;
}

function utf8Bytes(codePoint: number): number[] {
  if (codePoint < 0x80) return [codePoint];
  if (codePoint < 0x800) return [0xc0 | (codePoint >> 6), 0x80 | (codePoint & 0x3f)];
  if (codePoint < 0x10000) return [0xe0 | (codePoint >> 12), 0x80 | ((codePoint >> 6) & 0x3f), 0x80 | (codePoint & 0x3f)];
  return [0xf0 | (codePoint >> 18), 0x80 | ((codePoint >> 12) & 0x3f), 0x80 | ((codePoint >> 6) & 0x3f), 0x80 | (codePoint & 0x3f)];
}

/** Fragments already in URL form that no encoder produces: broken escapes, encoded NUL and separators. */
export const rawUrlFragment: fc.Arbitrary<string> = fc.constantFrom(
  '%ff',
  '%',
  '%z',
  '%zz',
  '%c3%28',
  '%ED%A0%80',
  '%00',
  '%2e%2e',
  '%2F',
  '%25',
  '%E0%80%80',
  '%C0%AF',
  ';',
  '..',
  '%20',
  '+',
);
