import type { listLocusAnnotations, ResponseOf } from '@antares/contract/endpoints';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

import { ApiError, apiFetch, apiGet, type JsonApiDocument } from './api-client';
import { queryClient } from './query-client';
import { USER_DATA_KEY } from './session';
import { useSession } from './use-session';

/**
 * The signed-in user's locus annotations (comment and favorite, one per locus): the spec's per-user
 * map from locus id to {id, comment, favorited}. Shared by the locus detail, the locus list and the
 * favorites page.
 */
export interface LocusAnnotation {
  id: string;
  locusId: string;
  comment: string;
  favorited: boolean;
}

export type AnnotationMap = Record<string, LocusAnnotation>;

/** Annotations are fetched in pages of 1000 by offset until meta.count is reached. */
export const ANNOTATION_PAGE_SIZE = 1000;

type AnnotationResource = ResponseOf<typeof listLocusAnnotations>['data'][number];

function toAnnotation(resource: AnnotationResource): LocusAnnotation | null {
  const locus = resource.relationships?.locus?.data as { id?: string } | undefined;
  if (!locus?.id) return null;
  return {
    id: resource.id,
    locusId: locus.id,
    comment: resource.attributes.comment ?? '',
    favorited: Boolean(resource.attributes.favorited),
  };
}

export async function getAnnotations(userId: string, signal?: AbortSignal): Promise<AnnotationMap> {
  const map: AnnotationMap = {};
  for (let offset = 0; ; offset += ANNOTATION_PAGE_SIZE) {
    const document = await apiGet<JsonApiDocument<AnnotationResource[]>>(
      `/users/${encodeURIComponent(userId)}/locus_annotations`,
      { 'page[limit]': ANNOTATION_PAGE_SIZE, 'page[offset]': offset },
      signal,
    );
    for (const resource of document.data ?? []) {
      const annotation = toAnnotation(resource);
      if (annotation) map[annotation.locusId] = annotation;
    }
    const count = document.meta?.count ?? 0;
    if ((document.data ?? []).length === 0 || offset + ANNOTATION_PAGE_SIZE >= count) break;
  }
  return map;
}

export const annotationsQuery = (userId: string) =>
  queryOptions({
    queryKey: [USER_DATA_KEY, userId, 'annotations'],
    queryFn: async ({ signal }) => {
      try {
        return await getAnnotations(userId, signal);
      } catch (error) {
        if (error instanceof DOMException && error.name === 'AbortError') throw error;
        // The spec: logged, and the app continues without them.
        console.error('Unable to load locus annotations', error);
        return {} as AnnotationMap;
      }
    },
    staleTime: 5 * 60_000,
  });

/** Loads the annotations right after login (the spec: login loads the user, then their annotations). */
export function prefetchAnnotations(userId: string): Promise<void> {
  return queryClient.prefetchQuery(annotationsQuery(userId));
}

/** The map for the signed-in user (empty while logged out or loading). */
export function useAnnotations() {
  const { isAuthenticated, user } = useSession();
  const userId = isAuthenticated && user ? user.id : '';
  return useQuery({ ...annotationsQuery(userId), enabled: userId !== '' });
}

export type AnnotationChanges = Partial<Pick<LocusAnnotation, 'comment' | 'favorited'>>;

async function createAnnotation(locusId: string, changes: AnnotationChanges): Promise<AnnotationResource> {
  const response = await apiFetch('/locus_annotations', {
    method: 'POST',
    body: {
      data: {
        type: 'locus_annotation',
        attributes: { comment: '', favorited: false, ...changes },
        relationships: { locus: { data: { type: 'locus', id: locusId } } },
      },
    },
  });
  return ((await response.json()) as JsonApiDocument<AnnotationResource>).data;
}

async function updateAnnotation(annotationId: string, changes: AnnotationChanges): Promise<AnnotationResource> {
  const response = await apiFetch(`/locus_annotations/${encodeURIComponent(annotationId)}`, {
    method: 'PATCH',
    body: { data: { type: 'locus_annotation', id: annotationId, attributes: changes } },
  });
  return ((await response.json()) as JsonApiDocument<AnnotationResource>).data;
}

/**
 * Saves an annotation: an existing one is updated; otherwise one is created with favorited false and an
 * empty comment plus the changes. A 409 (created elsewhere meanwhile) reloads the map and updates.
 */
export async function saveAnnotation(userId: string, existing: LocusAnnotation | undefined, locusId: string, changes: AnnotationChanges) {
  let resource: AnnotationResource;
  if (existing) resource = await updateAnnotation(existing.id, changes);
  else {
    try {
      resource = await createAnnotation(locusId, changes);
    } catch (error) {
      if (!(error instanceof ApiError && error.status === 409)) throw error;
      const fresh = (await getAnnotations(userId))[locusId];
      if (!fresh) throw error;
      resource = await updateAnnotation(fresh.id, changes);
    }
  }
  return (
    toAnnotation(resource) ?? {
      id: resource.id,
      locusId,
      comment: changes.comment ?? existing?.comment ?? '',
      favorited: changes.favorited ?? existing?.favorited ?? false,
    }
  );
}

/** One locus's annotation and a save function that keeps the local map in sync, then refetches it. */
export function useLocusAnnotation(locusId: string) {
  const { isAuthenticated, user } = useSession();
  const userId = isAuthenticated && user ? user.id : '';
  const client = useQueryClient();
  const annotations = useAnnotations();
  const annotation = annotations.data?.[locusId];
  const mutation = useMutation({
    mutationFn: (changes: AnnotationChanges) => saveAnnotation(userId, annotation, locusId, changes),
    onSuccess: (saved) => {
      client.setQueryData<AnnotationMap>(annotationsQuery(userId).queryKey, (map) => ({ ...(map ?? {}), [locusId]: saved }));
    },
    onSettled: () => client.invalidateQueries({ queryKey: [USER_DATA_KEY, userId] }),
  });
  return {
    signedIn: userId !== '',
    annotation,
    favorited: Boolean(annotation?.favorited),
    comment: annotation?.comment ?? '',
    save: mutation.mutateAsync,
    saving: mutation.isPending,
  };
}
