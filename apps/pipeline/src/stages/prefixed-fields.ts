// A source's fields under a survey prefix (`lsst_diaSource_psfFlux`), with the ant_* fields ANTARES
// adds, as alert properties carry them. A Rubin source has about a hundred fields and a packet can
// bring hundreds of new sources: adding the fields one by one to an object made it a slow dictionary
// object, and building and serialising them cost more than the rest of a history row's way into the
// database (ADR 0037). A decoded Avro record is an instance of its schema's class, whose fields are
// always the same: for each class, prefix and set of added fields one function is made that builds the
// whole object in one literal, which V8 keeps fast.
//
// The keys are in the order PostgreSQL's jsonb keeps an object's keys (shorter first, then by their
// bytes), so that JSON.stringify writes them in that order. When properties were jsonb, the server
// then found each object sorted already (ADR 0042); stored as json text since (ADR 0048), they keep
// the order the API has always answered them in.

type Builder = (source: Record<string, unknown>, extra: Record<string, unknown>) => Record<string, unknown>;

const builders = new WeakMap<object, Map<string, Builder>>();

/**
 * Every field of `source` under its prefixed name (undefined as null: Rubin filters test fields for
 * None themselves) and every field of `extra` as it is, in jsonb's key order.
 */
export function prefixedFields(
  prefix: string,
  source: Record<string, unknown>,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  const proto = Object.getPrototypeOf(source) as object | null;
  if (proto === null || proto === Object.prototype) return prefixedOneByOne(prefix, source, extra);
  let byShape = builders.get(proto);
  if (!byShape) builders.set(proto, (byShape = new Map()));
  const extraKeys = Object.keys(extra);
  // The added fields vary a little from row to row (a magnitude only where the flux allows one).
  const shape = `${prefix}\0${extraKeys.join('\0')}`;
  let build = byShape.get(shape);
  if (!build) byShape.set(shape, (build = compileBuilder(prefix, Object.keys(source), extraKeys)));
  return build(source, extra);
}

/** jsonb's order of object keys: shorter (in UTF-8 bytes) first, then byte by byte. */
export function jsonbKeyOrder(a: string, b: string): number {
  const byLength = Buffer.byteLength(a) - Buffer.byteLength(b);
  return byLength !== 0 ? byLength : Buffer.compare(Buffer.from(a), Buffer.from(b));
}

/** A plain object (tests, other writers): its own enumerable fields, one by one. */
function prefixedOneByOne(prefix: string, source: Record<string, unknown>, extra: Record<string, unknown>): Record<string, unknown> {
  const fields = new Map<string, unknown>();
  for (const key of Object.keys(source)) fields.set(prefix + key, source[key] ?? null);
  for (const key of Object.keys(extra)) fields.set(key, extra[key]);
  const out: Record<string, unknown> = {};
  for (const key of [...fields.keys()].sort(jsonbKeyOrder)) out[key] = fields.get(key);
  return out;
}

function compileBuilder(prefix: string, sourceKeys: string[], extraKeys: string[]): Builder {
  // Names are written as JSON string literals, which are JavaScript string literals: nothing in a
  // field name can change the code. An added field of a source's prefixed name replaces it.
  const values = new Map<string, string>();
  for (const key of sourceKeys) values.set(prefix + key, `s[${JSON.stringify(key)}] ?? null`);
  for (const key of extraKeys) values.set(key, `e[${JSON.stringify(key)}]`);
  const entries = [...values.keys()].sort(jsonbKeyOrder).map((name) => `${JSON.stringify(name)}: ${values.get(name)}`);
  return new Function('s', 'e', `return { ${entries.join(', ')} };`) as Builder;
}
