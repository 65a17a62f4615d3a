import { keepPreviousData, useQuery } from '@tanstack/react-query';

import { apiFetch, apiGet, type JsonApiDocument, type JsonApiResource } from '@/lib/api-client';
import type { ListParams } from '@/lib/use-server-list';

export interface ManagedUser {
  id: string;
  username: string;
  name: string;
  email: string;
  admin: boolean;
  staff: boolean;
  created_at?: string;
}

export type { ListParams };

export async function getUsers(
  { page, perPage, sort }: ListParams,
  signal?: AbortSignal,
): Promise<{ users: ManagedUser[]; count: number }> {
  const document = await apiGet<JsonApiDocument<JsonApiResource<Omit<ManagedUser, 'id'>>[]>>(
    '/users',
    { 'page[limit]': perPage, 'page[offset]': (page - 1) * perPage, sort },
    signal,
  );
  const users = (document.data ?? []).map((item) => ({ ...item.attributes, id: String(item.id) }));
  return { users, count: document.meta?.count ?? users.length };
}

export const USERS_KEY = 'admin-users';

export function useUsers(params: ListParams) {
  return useQuery({
    queryKey: [USERS_KEY, params],
    queryFn: ({ signal }) => getUsers(params, signal),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
}

export type UserFlag = 'admin' | 'staff';

/** PATCH /users/{id} with one flag (admin only). */
export async function setUserFlag(userId: string, flag: UserFlag, value: boolean): Promise<ManagedUser> {
  const response = await apiFetch(`/users/${encodeURIComponent(userId)}`, {
    method: 'PATCH',
    body: { data: { type: 'user', id: userId, attributes: { [flag]: value } } },
  });
  const document = (await response.json()) as JsonApiDocument<JsonApiResource<Omit<ManagedUser, 'id'>>>;
  return { ...document.data.attributes, id: String(document.data.id) };
}
