/** The document's shared schemas (JSON:API documents and errors, the session answers) and security schemes. */
import type { Json } from './shared.ts';

const USER_ATTRIBUTES = {
  username: { type: 'string' },
  name: { type: 'string' },
  // The rest only for the user and admins: to anyone else (a public filter's owner) a user is a name.
  email: { type: 'string', description: 'Only for the user and administrators' },
  admin: { type: 'boolean', description: 'Only for the user and administrators' },
  staff: { type: 'boolean', description: 'Only for the user and administrators' },
  created_at: { type: 'string', format: 'date-time', description: 'Only for the user and administrators' },
};

export const schemas: Json = {
  Document: {
    description: 'A JSON:API document: one resource or a list in `data`; lists carry meta.count and links.self/next.',
    type: 'object',
    properties: {
      data: { oneOf: [{ $ref: '#/components/schemas/Resource' }, { type: 'array', items: { $ref: '#/components/schemas/Resource' } }] },
      included: { type: 'array', items: { $ref: '#/components/schemas/Resource' } },
      links: { type: 'object', properties: { self: { type: 'string' }, next: { type: 'string' } } },
      meta: { type: 'object', properties: { count: { type: 'integer' } } },
    },
  },
  Resource: {
    type: 'object',
    required: ['type', 'id'],
    properties: {
      type: { type: 'string' },
      id: { type: 'string' },
      attributes: { type: 'object' },
      relationships: { type: 'object' },
      links: { type: 'object' },
      meta: { type: 'object' },
    },
  },
  Errors: {
    description: 'A JSON:API error document.',
    type: 'object',
    required: ['errors'],
    properties: {
      errors: {
        type: 'array',
        items: {
          type: 'object',
          properties: {
            status: { type: 'string' },
            code: {
              type: 'string',
              description: 'Stable per kind of error (bad_request, forbidden, conflict, ...), for clients to branch on',
            },
            title: { type: 'string' },
            detail: { type: 'string' },
            source: {
              type: 'object',
              properties: { pointer: { type: 'string', description: 'JSON pointer of the body member at fault' } },
            },
          },
        },
      },
    },
  },
  Identity: {
    description: 'What the session calls answer: the user id and the user; with `?type=token`, the tokens too.',
    type: 'object',
    required: ['identity', 'user'],
    properties: {
      identity: { type: 'string', description: 'The user id' },
      user: { type: 'object', properties: { id: { type: 'string' }, ...USER_ATTRIBUTES } },
      access_token: { type: 'string', description: 'Only with `?type=token`: for `Authorization: Bearer` (15 minutes)' },
      refresh_token: { type: 'string', description: 'Only with `?type=token` on login: for POST /v1/auth/refresh and /v1/auth/logout' },
    },
  },
  Credentials: {
    type: 'object',
    required: ['username', 'password'],
    properties: { username: { type: 'string' }, password: { type: 'string', format: 'password' } },
  },
};

/** Wire format section 7: flask-jwt-extended's cookies and double-submit CSRF header, or bearer tokens. */
export const securitySchemes: Json = {
  cookieAuth: {
    type: 'apiKey',
    in: 'cookie',
    name: 'access_token_cookie',
    description:
      'The HttpOnly access-token cookie set by POST /v1/auth/login (the web app). Unsafe methods (POST, PATCH, DELETE) must also send X-CSRF-TOKEN (csrfToken).',
  },
  refreshCookie: {
    type: 'apiKey',
    in: 'cookie',
    name: 'refresh_token_cookie',
    description: 'The HttpOnly refresh-token cookie set by POST /v1/auth/login, for POST /v1/auth/refresh and /v1/auth/logout.',
  },
  csrfToken: {
    type: 'apiKey',
    in: 'header',
    name: 'X-CSRF-TOKEN',
    description:
      'Double submit: the value of the readable `csrf_access_token` cookie (of `csrf_refresh_token` for POST /v1/auth/refresh; either for logout), required with cookie sessions on every unsafe method. Missing or wrong: 403.',
  },
  bearerAuth: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
    description:
      'For scripts: the access_token that POST /v1/auth/login?type=token returns (the refresh_token for refresh and logout; the mailed reset token for reset). No CSRF header is needed.',
  },
};

export const tags: Json[] = [
  { name: 'Loci', description: 'Search and read loci' },
  { name: 'Alerts', description: 'Alerts and their thumbnails' },
  { name: 'Properties', description: 'The catalogue of alert and locus properties' },
  { name: 'Sessions', description: 'Login, refresh, logout and password reset (plain JSON)' },
  { name: 'Users', description: 'Accounts, annotations and favorites' },
  { name: 'Announcements', description: 'Site banners' },
  { name: 'Filters', description: 'User filters, their versions and review, dry runs, tags and the filter runner' },
  { name: 'Watch lists', description: 'Positions watched for new alerts' },
  { name: 'Streams', description: 'Output streams of tagged loci (long-poll and server-sent events)' },
  { name: 'Catalogs', description: 'Catalog matches and searches' },
  { name: 'Gravitational waves', description: 'IGWN notices, events, sky maps and associated loci' },
  { name: 'Alert uploads', description: 'Alert files sent over HTTP for ingestion' },
  { name: 'Site', description: 'Web app configuration and this document' },
];
