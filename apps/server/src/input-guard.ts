import type { FastifyInstance, FastifyRequest } from 'fastify';

import { badRequest } from './errors.ts';

/**
 * One check at the edge for text no field accepts: a NUL character (PostgreSQL cannot store it in text
 * or jsonb, so it would fail deep inside a query) and a lone UTF-16 surrogate (not Unicode text: it cannot
 * be encoded as UTF-8 without being silently replaced). Path parameters, the query string, cookies and
 * JSON bodies are all checked before any handler runs, and refused with a 400 naming where the text is.
 * Headers need no check: Node's HTTP parser refuses NUL in them and reads them as Latin-1, which has
 * no surrogates.
 */
export function registerInputGuard(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    // An unknown route answers 404 whatever its input.
    if (request.routeOptions.url === undefined) return;
    const problem = malformedTextIn(request);
    if (problem) throw badRequest(problem.detail, problem.pointer);
  });
}

interface TextProblem {
  detail: string;
  pointer?: string;
}

function malformedTextIn(request: FastifyRequest): TextProblem | undefined {
  const path = request.url.split('?')[0];
  for (const [name, value] of Object.entries((request.params ?? {}) as Record<string, unknown>)) {
    const fault = typeof value === 'string' ? textFault(value) : undefined;
    if (fault) return { detail: `The URL path ${path} ${fault} (in ${name === '*' ? 'the path' : `the path parameter ${name}`})` };
  }
  for (const [name, value] of Object.entries((request.query ?? {}) as Record<string, unknown>)) {
    const fault =
      textFault(name) ??
      [value]
        .flat()
        .map((v) => (typeof v === 'string' ? textFault(v) : undefined))
        .find(Boolean);
    if (fault) return { detail: `The query parameter ${JSON.stringify(name)} ${fault}` };
  }
  for (const [name, value] of Object.entries(request.cookies ?? {})) {
    const fault = textFault(name) ?? (typeof value === 'string' ? textFault(value) : undefined);
    if (fault) return { detail: `The cookie ${JSON.stringify(name)} ${fault}` };
  }
  // Raw bodies (alert files) arrive as buffers or streams and are decoded by their own readers.
  const body: unknown = request.body;
  if (typeof body === 'string' || (typeof body === 'object' && body !== null && !Buffer.isBuffer(body) && !isStream(body))) {
    const found = malformedTextInJson(body);
    if (found)
      return {
        detail: `The request body ${found.pointer === '' ? '' : `at ${found.pointer} `}${found.fault}`,
        pointer: found.pointer || undefined,
      };
  }
  return undefined;
}

/** Why `text` is refused, or undefined when it is well-formed. */
export function textFault(text: string): string | undefined {
  if (text.includes('\u0000')) return 'contains a NUL character (\\u0000), which no field accepts';
  if (!(text as WellFormedCheck).isWellFormed()) return 'contains a lone UTF-16 surrogate, which is not valid Unicode text';
  return undefined;
}

/**
 * The first malformed string (member names included) in a parsed JSON value, with its JSON pointer: for
 * bodies, and for JSON given in a query parameter (where `\u0000` is six harmless characters until parsed).
 */
export function malformedTextInJson(value: unknown): { pointer: string; fault: string } | undefined {
  // An explicit stack: a deeply nested body must not overflow the call stack.
  const stack: Array<[unknown, string]> = [[value, '']];
  while (stack.length > 0) {
    const [item, at] = stack.pop()!;
    if (typeof item === 'string') {
      const fault = textFault(item);
      if (fault) return { pointer: at, fault };
    } else if (Array.isArray(item)) {
      for (let i = item.length - 1; i >= 0; i--) stack.push([item[i], `${at}/${i}`]);
    } else if (typeof item === 'object' && item !== null) {
      for (const [key, member] of Object.entries(item)) {
        const escaped = `${at}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;
        const fault = textFault(key);
        if (fault) return { pointer: at, fault: `has a member name that ${fault}` };
        stack.push([member, escaped]);
      }
    }
  }
  return undefined;
}

/** ES2024's String.prototype.isWellFormed (Node 20 has it; the project's TypeScript lib is ES2022). */
type WellFormedCheck = string & { isWellFormed(): boolean };

function isStream(value: object): boolean {
  return typeof (value as { pipe?: unknown }).pipe === 'function';
}
