import type { BodyOf, listUsers, ResponseOf, updateUser } from '@antares/contract/endpoints';
import { keepPreviousData, useQuery } from '@tanstack/react-query';

import { apiFetch, apiGet } from '@/lib/api-client';
import type { ListParams } from '@/lib/use-server-list';

type UserList = ResponseOf<typeof listUsers>;
/** An account as administrators see it (every attribute). */
export type ManagedUser = Required<UserList['data'][number]['attributes']> & { id: string };

export type { ListParams };

export async function getUsers(
  { page, perPage, sort }: ListParams,
  signal?: AbortSignal,
): Promise<{ users: ManagedUser[]; count: number }> {
  const document = await apiGet<UserList>('/users', { 'page[limit]': perPage, 'page[offset]': (page - 1) * perPage, sort }, signal);
  const users = (document.data ?? []).map((item) => ({ ...(item.attributes as Omit<ManagedUser, 'id'>), id: String(item.id) }));
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
    body: { data: { type: 'user', id: userId, attributes: { [flag]: value } satisfies BodyOf<typeof updateUser> } },
  });
  const document = (await response.json()) as ResponseOf<typeof updateUser>;
  return { ...(document.data.attributes as Omit<ManagedUser, 'id'>), id: String(document.data.id) };
}
