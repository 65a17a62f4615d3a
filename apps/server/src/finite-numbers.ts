/**
 * Ajv reads "Infinity", "-Infinity" and "1e400" in a query as numbers and lets them pass `type: integer`
 * and `maximum` alike (Number("1e400") is Infinity): the handlers then met a number no page, range or SQL
 * parameter can hold, and answered 500 on every list endpoint. Given to Fastify as an Ajv plugin, this
 * makes every compiled validator refuse a non-finite number after the schema passed, as a failure of the
 * property's own `type`, so errors.ts words the 400 with that property's `x-error` like any other refusal.
 */
import type { Ajv, ErrorObject, ValidateFunction } from 'ajv';

export function finiteNumbers(ajv: Ajv): Ajv {
  const compile = ajv.compile.bind(ajv);
  ajv.compile = ((schema: unknown) => {
    const validate = compile(schema as object) as ValidateFunction;
    const checked = ((data: unknown, ...rest: unknown[]) => {
      const ok = (validate as (...args: unknown[]) => boolean)(data, ...rest);
      checked.errors = validate.errors;
      if (!ok) return false;
      const path = nonFinitePath(data, 0);
      if (path === undefined) return true;
      const schemaPath = `#/${path.map((key) => `properties/${escape(key)}`).join('/')}/type`;
      const error: ErrorObject = {
        instancePath: path.map((key) => `/${escape(key)}`).join(''),
        schemaPath,
        keyword: 'type',
        params: { type: 'number' },
        message: 'must be a finite number',
      };
      checked.errors = [error];
      return false;
    }) as ValidateFunction;
    return Object.assign(checked, { schema: validate.schema, schemaEnv: validate.schemaEnv });
  }) as typeof ajv.compile;
  return ajv;
}

/** The keys down to the first non-finite number in a validated value (bounded: validated values are small). */
function nonFinitePath(value: unknown, depth: number): string[] | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? undefined : [];
  if (value === null || typeof value !== 'object' || depth > 32) return undefined;
  for (const [key, item] of Object.entries(value)) {
    const below = nonFinitePath(item, depth + 1);
    if (below) return [key, ...below];
  }
  return undefined;
}

const escape = (key: string) => key.replace(/~/g, '~0').replace(/\//g, '~1');
