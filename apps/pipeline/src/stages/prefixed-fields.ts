// A source's fields under a survey prefix (`lsst_diaSource_psfFlux`), as alert properties carry them.
// A Rubin source has about a hundred fields and a packet can bring hundreds of new sources: adding the
// fields one by one to an object made it a slow dictionary object, and building and serialising them
// cost more than the rest of a history row's way into the database (ADR 0037). A decoded Avro record
// is an instance of its schema's class, whose fields are always the same: for each class and prefix
// one function is made that builds the whole object in one literal, which V8 keeps fast.

type Builder = (source: Record<string, unknown>) => Record<string, unknown>;

const builders = new WeakMap<object, Map<string, Builder>>();

/** Every field under its prefixed name, undefined as null (Rubin filters test fields for None themselves). */
export function prefixedFields(prefix: string, source: Record<string, unknown>): Record<string, unknown> {
  const proto = Object.getPrototypeOf(source) as object | null;
  if (proto === null || proto === Object.prototype) return prefixedOneByOne(prefix, source);
  let byPrefix = builders.get(proto);
  if (!byPrefix) builders.set(proto, (byPrefix = new Map()));
  let build = byPrefix.get(prefix);
  if (!build) byPrefix.set(prefix, (build = compileBuilder(prefix, Object.keys(source))));
  return build(source);
}

/** A plain object (tests, other writers): its own enumerable fields, one by one. */
function prefixedOneByOne(prefix: string, source: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(source)) out[prefix + key] = source[key] ?? null;
  return out;
}

function compileBuilder(prefix: string, keys: string[]): Builder {
  // Names are written as JSON string literals, which are JavaScript string literals: nothing in a
  // field name can change the code.
  const entries = keys.map((key) => `${JSON.stringify(prefix + key)}: s[${JSON.stringify(key)}] ?? null`);
  return new Function('s', `return { ${entries.join(', ')} };`) as Builder;
}
