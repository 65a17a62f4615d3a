import { LIMITS, MESSAGES } from '@antares/contract';
import type { AnnotationRow, Repositories } from '@antares/db';

import type { Identity } from '../auth/authenticator.ts';
import { badRequest, conflict, notFound } from '../errors.ts';
import { policies } from '../policies/index.ts';
import { attributesOf, booleanField, numericId, relationshipId, stringField } from './body.ts';

/** Comments and favorites: one annotation per (locus, owner), changed only by its owner. */
export class AnnotationService {
  constructor(private readonly repos: Repositories) {}

  /** A user's annotations: the user themself or an admin. */
  listOf(identity: Identity, ownerId: number, page: { limit: number; offset: number }) {
    policies.assertSelfOrAdmin(identity, ownerId, 'the annotations');
    return this.repos.annotations.listByOwner(ownerId, page.limit, page.offset);
  }

  changesOf(attributes: Record<string, unknown>): { comment?: string; favorited?: boolean } {
    const comment = stringField(attributes, 'comment');
    if (comment !== undefined && comment.length > LIMITS.commentMax) throw badRequest(`comment: ${MESSAGES.maxLength(LIMITS.commentMax)}`);
    const favorited = booleanField(attributes, 'favorited');
    return Object.fromEntries(Object.entries({ comment, favorited }).filter(([, v]) => v !== undefined));
  }

  async create(
    identity: Identity,
    ownerId: number,
    locusId: string | undefined,
    attributes: Record<string, unknown>,
  ): Promise<AnnotationRow> {
    policies.assertSelf(identity, ownerId, 'the annotations');
    if (!locusId) throw badRequest('The annotation needs a locus (relationships.locus.data.id)');
    if (!(await this.repos.loci.findById(locusId))) throw notFound(`No locus with id "${locusId}"`);
    const { row, created } = await this.repos.annotations.upsert(ownerId, locusId, {});
    if (!created) throw conflict(`You already have an annotation of ${locusId} (id ${row.annotation_id}); update it instead`);
    const changes = this.changesOf(attributes);
    return Object.keys(changes).length > 0 ? ((await this.repos.annotations.update(row.annotation_id, changes)) ?? row) : row;
  }

  /** `POST /v1/locus_annotations`: for the caller, or for the owner the body names (who must be the caller). */
  async createForOwnerOf(identity: Identity, body: unknown): Promise<AnnotationRow> {
    const ownerText = relationshipId(body, 'owner');
    const ownerId = ownerText === undefined ? identity.user.user_id : numericId(ownerText);
    if (ownerId === null) throw notFound(`No user with id "${ownerText}"`);
    return this.create(identity, ownerId, relationshipId(body, 'locus'), attributesOf(body));
  }

  async update(identity: Identity, annotationId: number, attributes: Record<string, unknown>): Promise<AnnotationRow> {
    const existing = await this.repos.annotations.findById(annotationId);
    if (!existing) throw notFound(`No locus annotation with id ${annotationId}`);
    policies.assertSelf(identity, existing.owner_id, 'the annotations');
    return (await this.repos.annotations.update(annotationId, this.changesOf(attributes))) ?? existing;
  }

  /** `POST/DELETE /users/{id}/relationships/favorite_loci` with a list of {type: 'locus', id}. */
  async setFavorites(identity: Identity, ownerId: number, body: unknown, favorited: boolean): Promise<void> {
    policies.assertSelf(identity, ownerId, 'the favorites');
    const data = (body as { data?: unknown })?.data;
    if (!Array.isArray(data) || data.some((d) => typeof d !== 'object' || d === null || typeof (d as { id?: unknown }).id !== 'string')) {
      throw badRequest('The body must be {"data": [{"type": "locus", "id": "..."}, ...]}');
    }
    const ids = data.map((d) => (d as { id: string }).id);
    if (favorited) {
      for (const id of ids) if (!(await this.repos.loci.findById(id))) throw notFound(`No locus with id "${id}"`);
    }
    await this.repos.annotations.setFavorites(ownerId, ids, favorited);
  }
}
