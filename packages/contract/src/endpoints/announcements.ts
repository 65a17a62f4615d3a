/** Announcements (the site banners): anyone reads them, admins create and show or hide them. */
import Type from 'typebox';

import { ANNOUNCEMENT_VARIANTS, LIMITS } from '../validation.ts';
import { listDocument, numericPathParam, pageQuery, resource, resourceBody, singleDocument, sortQuery } from './common.ts';
import { endpoint } from './define.ts';

const tags = ['Announcements'];

export const Announcement = resource('announcement', {
  message: Type.String(),
  variant: Type.Enum(ANNOUNCEMENT_VARIANTS),
  active: Type.Boolean(),
  created_at: Type.String({ format: 'date-time' }),
});

export const listAnnouncements = endpoint({
  method: 'GET',
  path: '/v1/announcements',
  operationId: 'list_announcements',
  access: 'public',
  tags,
  summary: 'Announcements (the site banners)',
  query: Type.Object({
    ...pageQuery(100),
    ...sortQuery('-active', 'One of id, message, variant, active, created_at.'),
    filter: Type.Optional(
      Type.String({
        description:
          'JSON list of {"field", "op", "value"} (op: eq, ne, lt, le, gt, ge, in) over id, message, variant, active, created_at; e.g. [{"field":"active","op":"eq","value":true}].',
      }),
    ),
  }),
  response: { status: 200, description: 'A page of announcement resources; meta.count, links.next', schema: listDocument(Announcement) },
  errors: { 400: 'Bad page, sort or filter' },
});

export const createAnnouncement = endpoint({
  method: 'POST',
  path: '/v1/announcements',
  operationId: 'create_announcement',
  access: 'admin',
  tags,
  summary: 'Create an announcement',
  body: resourceBody(
    'announcement',
    Type.Object({
      message: Type.String({ maxLength: LIMITS.announcementMessageMax }),
      variant: Type.Optional(Type.Enum(ANNOUNCEMENT_VARIANTS, { default: 'info' })),
      active: Type.Optional(Type.Boolean({ default: false })),
    }),
  ),
  response: { status: 201, description: 'The new announcement resource', schema: singleDocument(Announcement) },
  errors: { 400: 'Missing or too long message, or an unknown variant' },
});

export const updateAnnouncement = endpoint({
  method: 'PATCH',
  path: '/v1/announcements/:id',
  operationId: 'update_announcement',
  access: 'admin',
  tags,
  summary: 'Show or hide an announcement',
  params: Type.Object({ id: numericPathParam('announcement') }),
  body: resourceBody('announcement', Type.Object({ active: Type.Boolean() })),
  response: { status: 200, description: 'The updated announcement resource', schema: singleDocument(Announcement) },
  errors: { 400: 'active: Field is required.', 404: 'No such announcement' },
});
