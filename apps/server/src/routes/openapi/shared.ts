/**
 * Building blocks of the OpenAPI document generated from the contract (generate.ts): request bodies, error
 * responses and the security of each operation (who may call it).
 */
export type Json = Record<string, unknown>;
export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';
export type Paths = Record<string, Partial<Record<Method, Json>>>;

export const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

// --- Bodies and responses ----------------------------------------------------------------------------

/**
 * A request body: a JSON:API document `{"data": {"type", "attributes", "relationships"}}` (what the web
 * app sends), or the attributes as a plain JSON object (scripts); both are read alike.
 */
export function jsonApiBody(
  type: string,
  attributes: Json,
  options: { required?: string[]; relationships?: Json; description?: string } = {},
): Json {
  const attributesSchema = { type: 'object', properties: attributes, ...(options.required?.length ? { required: options.required } : {}) };
  const document = {
    type: 'object',
    required: ['data'],
    properties: {
      data: {
        type: 'object',
        properties: {
          type: { const: type },
          id: { type: 'string' },
          attributes: attributesSchema,
          ...(options.relationships ? { relationships: { type: 'object', properties: options.relationships } } : {}),
        },
      },
    },
  };
  const schema = { anyOf: [document, attributesSchema] };
  return {
    required: true,
    ...(options.description ? { description: options.description } : {}),
    content: { 'application/vnd.api+json': { schema: document }, 'application/json': { schema } },
  };
}

/** A plain JSON request body (the auth calls, grav-wave notices). */
export const plainBody = (schema: Json, description?: string): Json => ({
  required: true,
  ...(description ? { description } : {}),
  content: { 'application/json': { schema } },
});

const NOT_LOGGED_IN = 'Not logged in ("Must be authenticated to call {operation}"), or the token is expired, revoked or invalid';

/** Error responses (JSON:API error documents) with their reasons; `fail({404: 'No locus with this id'})`. */
export function fail(reasons: Record<number, string>): Json {
  return Object.fromEntries(
    Object.entries(reasons).map(([status, reason]) => [
      status,
      {
        description: reason,
        content: { 'application/json': { schema: ref('Errors') } },
      },
    ]),
  );
}

// --- Access -------------------------------------------------------------------------------------------

/**
 * Who may call an operation:
 * - public: anyone, no token read;
 * - optional: anyone, but a login (if sent) shows more (private filters of the caller); a bad token is a 401;
 * - login: any logged-in account (the route may narrow it to the owner, said in its description);
 * - admin: administrators only.
 */
export type Access = 'public' | 'optional' | 'login' | 'admin';

const UNSAFE = new Set<Method>(['post', 'put', 'patch', 'delete']);

/** The security requirements of an access level: cookies (with X-CSRF-TOKEN on unsafe methods) or bearer. */
export function securityOf(access: Access, method: Method): Json[] {
  if (access === 'public') return [];
  const cookie = UNSAFE.has(method) ? { cookieAuth: [], csrfToken: [] } : { cookieAuth: [] };
  const logins = [cookie, { bearerAuth: [] }];
  return access === 'optional' ? [{}, ...logins] : logins;
}

const ACCESS_NOTE: Record<Access, string> = {
  public: 'Public: no login needed.',
  optional: 'Login optional: anyone may call it; a logged-in caller also sees what is theirs (admins: everything).',
  login: 'Needs a login.',
  admin: 'Administrators only.',
};

export interface OperationSpec {
  tags: string[];
  summary: string;
  description?: string;
  operationId: string;
  parameters?: Json[];
  requestBody?: Json;
  responses: Json;
  /** Instead of the access level's usual requirements (the session calls, which take other tokens). */
  security?: Json[];
}

/**
 * One operation with its access level: `security`, `x-antares-access`, a note in the description and
 * the 401/403 answers the access check itself gives (joined with the route's own reasons for them).
 */
export function op(method: Method, access: Access, spec: OperationSpec): Json {
  const csrf = UNSAFE.has(method) && access !== 'public';
  const accessErrors: Record<number, string> = {};
  // With security of its own (the session calls), the operation lists its own 401 and 403 answers.
  if (spec.security) return finish(method, access, spec, accessErrors);
  if (access === 'optional') accessErrors[401] = 'A token was sent but it is expired, revoked or invalid (send none to call anonymously)';
  if (access === 'login' || access === 'admin') accessErrors[401] = NOT_LOGGED_IN;
  const forbidden = [
    access === 'admin' ? 'the caller is not an administrator' : '',
    csrf ? 'a cookie session without the right X-CSRF-TOKEN header' : '',
  ].filter(Boolean);
  if (forbidden.length) accessErrors[403] = `Forbidden: ${forbidden.join('; or ')}`;
  return finish(method, access, spec, accessErrors);
}

function finish(method: Method, access: Access, spec: OperationSpec, accessErrors: Record<number, string>): Json {
  const { description, responses, security, ...rest } = spec;
  // A status both the access check and the route give (403: not an admin, and not the owner) lists both reasons.
  const merged: Json = { ...fail(accessErrors), ...responses };
  for (const [status, reason] of Object.entries(accessErrors)) {
    const own = responses[status] as { description: string } | undefined;
    if (own) merged[status] = { ...own, description: `${reason}; or ${own.description}` };
  }
  return {
    ...rest,
    description: [description, ACCESS_NOTE[access]].filter(Boolean).join('\n\n'),
    security: security ?? securityOf(access, method),
    'x-antares-access': access,
    responses: merged,
  };
}
