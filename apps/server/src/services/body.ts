import { badRequest } from '../errors.ts';

/**
 * The attributes of a request body: a JSON:API document `{data: {type, attributes, relationships}}`
 * (what the web app's JSON:API client sends) or a plain JSON object (scripts, the auth calls). A missing
 * body (none, or an empty one under a JSON content type) has no attributes: the route's own checks then
 * refuse it naming the fields it needs ("username and password: Field is required."), where a generic
 * "must be a JSON object" would not say what to send.
 */
export function attributesOf(body: unknown): Record<string, unknown> {
  if (body === undefined) return {};
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw badRequest('The request body must be a JSON object');
  const data = (body as { data?: unknown }).data;
  if (typeof data === 'object' && data !== null && !Array.isArray(data)) {
    const attributes = (data as { attributes?: unknown }).attributes;
    return typeof attributes === 'object' && attributes !== null ? { ...(attributes as Record<string, unknown>) } : {};
  }
  return body as Record<string, unknown>;
}

/** `relationships.<name>.data.id` of a JSON:API body, or the plain field `<name>_id` / `<name>`. */
export function relationshipId(body: unknown, name: string): string | undefined {
  const data = (body as { data?: { relationships?: Record<string, { data?: { id?: unknown } }> } })?.data;
  const id = data?.relationships?.[name]?.data?.id;
  if (id !== undefined && id !== null) return String(id);
  const plain = body as Record<string, unknown> | null;
  const value =
    plain?.[`${name}_id`] ?? (typeof plain?.[name] === 'string' || typeof plain?.[name] === 'number' ? plain?.[name] : undefined);
  return value === undefined ? undefined : String(value);
}

export function stringField(attributes: Record<string, unknown>, name: string, options: { required?: boolean } = {}): string | undefined {
  const value = attributes[name];
  if (value === undefined || value === null) {
    if (options.required) throw badRequest(`${name}: Field is required.`);
    return undefined;
  }
  if (typeof value !== 'string') throw badRequest(`${name} must be a string`);
  return value;
}

export function booleanField(attributes: Record<string, unknown>, name: string): boolean | undefined {
  const value = attributes[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'boolean') throw badRequest(`${name} must be true or false`);
  return value;
}

/** A numeric path parameter such as a user id; anything else is 404 (no such resource). */
export function numericId(text: string): number | null {
  return /^\d{1,15}$/.test(text) ? Number(text) : null;
}
