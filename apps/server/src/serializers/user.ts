import type { ResourceObject } from '@antares/contract';
import type { AnnotationRow, AnnouncementRow, UserRow } from '@antares/db';

/** Who is reading a document: a signed-in user (their id and whether an admin), or null for anonymous. */
export type Viewer = Pick<UserRow, 'user_id' | 'admin'> | null | undefined;

/**
 * A user as `viewer` may see them, never the password hash. The account itself and admins see it all;
 * anyone else (a public filter's reader) only the name and username: an e-mail address is personal data.
 */
export function userResource(user: UserRow, viewer: Viewer): ResourceObject {
  const mayReadAll = viewer !== null && viewer !== undefined && (viewer.user_id === user.user_id || viewer.admin);
  const attributes = mayReadAll
    ? {
        username: user.username,
        name: user.name,
        email: user.email,
        admin: user.admin,
        staff: user.staff,
        created_at: user.created_at.toISOString(),
      }
    : { username: user.username, name: user.name };
  return { type: 'user', id: String(user.user_id), attributes };
}

/** What the auth calls answer: the identity (user id) and the user, to the user. */
export function identityBody(user: UserRow) {
  return { identity: String(user.user_id), user: { id: String(user.user_id), ...userResource(user, user).attributes } };
}

export function annotationResource(base: string, a: AnnotationRow): ResourceObject {
  return {
    type: 'locus_annotation',
    id: String(a.annotation_id),
    attributes: {
      comment: a.comment,
      favorited: a.favorited,
      created_at: a.created_at.toISOString(),
      updated_at: a.updated_at.toISOString(),
    },
    relationships: {
      owner: { data: { type: 'user', id: String(a.owner_id) } },
      locus: { data: { type: 'locus', id: a.locus_id }, links: { related: `${base}/v1/loci/${a.locus_id}` } },
    },
  };
}

export function announcementResource(a: AnnouncementRow): ResourceObject {
  return {
    type: 'announcement',
    id: String(a.announcement_id),
    attributes: { message: a.message, variant: a.variant, active: a.active, created_at: a.created_at.toISOString() },
  };
}
