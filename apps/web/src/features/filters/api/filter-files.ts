import type { listFilterFiles, listFilterVersionFiles, putFilterFile, ResponseOf } from '@antares/contract/endpoints';
import { useQuery } from '@tanstack/react-query';

import { ApiError, apiFetch, apiGet, apiUrl, CSRF_ACCESS_COOKIE, readCookie, refreshSession } from '@/lib/api-client';

import { FILTERS_KEY } from './filters';

type FileResource = ResponseOf<typeof listFilterFiles>['data'][number];

/** One data file of a filter (REQUIRES_FILES), as the server lists it. */
export type FilterFile = FileResource['attributes'];

/** A version's files, with the names its code requires and those it has no file for. */
export type VersionFiles = { files: FilterFile[] } & ResponseOf<typeof listFilterVersionFiles>['meta'];

export const filterFilesKey = (filterId: string) => [...FILTERS_KEY, filterId, 'files'] as const;
const filesPath = (filterId: string, name?: string) =>
  `/filters/${encodeURIComponent(filterId)}/files${name === undefined ? '' : `/${encodeURIComponent(name)}`}`;

/** Where a file downloads from (a plain link: the session cookie goes with it). */
export const filterFileUrl = (filterId: string, name: string) => apiUrl(filesPath(filterId, name));

export function useFilterFiles(filterId: string) {
  return useQuery({
    queryKey: filterFilesKey(filterId),
    queryFn: async ({ signal }) =>
      (await apiGet<ResponseOf<typeof listFilterFiles>>(filesPath(filterId), undefined, signal)).data.map((f) => f.attributes),
  });
}

export function useVersionFiles(filterId: string, versionId: string | undefined) {
  return useQuery({
    queryKey: [...filterFilesKey(filterId), 'version', versionId],
    enabled: versionId !== undefined,
    queryFn: async ({ signal }): Promise<VersionFiles> => {
      const document = await apiGet<ResponseOf<typeof listFilterVersionFiles>>(
        `/filters/${encodeURIComponent(filterId)}/versions/${encodeURIComponent(versionId ?? '')}/files`,
        undefined,
        signal,
      );
      return { files: document.data.map((f) => f.attributes), ...document.meta };
    },
  });
}

export type UploadAnswer = ResponseOf<typeof putFilterFile>['data'];

/**
 * PUT /filters/{id}/files/{name} with the file's bytes, through XMLHttpRequest: fetch cannot tell how
 * much of a request body has gone out, and a 16 MB file on a slow link needs a progress bar.
 * `onProgress` gets the fraction sent (0..1). An expired session is refreshed once and the upload retried.
 */
export async function uploadFilterFile(
  filterId: string,
  file: File,
  onProgress: (fraction: number) => void,
  retried = false,
): Promise<UploadAnswer> {
  try {
    return await new Promise<UploadAnswer>((resolve, reject) => {
      const request = new XMLHttpRequest();
      request.open('PUT', filterFileUrl(filterId, file.name));
      request.withCredentials = true;
      request.setRequestHeader('Content-Type', 'application/octet-stream');
      request.setRequestHeader('Accept', 'application/vnd.api+json, application/json');
      const csrf = readCookie(CSRF_ACCESS_COOKIE);
      if (csrf) request.setRequestHeader('X-CSRF-TOKEN', csrf);
      request.upload.onprogress = (event) => {
        if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total);
      };
      request.onerror = () =>
        reject(new ApiError(0, [{ status: '0', title: 'Network error', detail: 'The server could not be reached.' }]));
      request.onload = () => {
        let body: { data?: UploadAnswer; errors?: Array<{ detail?: string; title?: string }> } = {};
        try {
          body = JSON.parse(request.responseText) as typeof body;
        } catch {
          // not JSON: the status says it
        }
        if (request.status >= 200 && request.status < 300 && body.data) resolve(body.data);
        else
          reject(
            new ApiError(
              request.status,
              body.errors?.length ? body.errors : [{ status: String(request.status), detail: request.statusText }],
            ),
          );
      };
      request.send(file);
    });
  } catch (error) {
    if (!retried && error instanceof ApiError && error.status === 401 && (await refreshSession()))
      return uploadFilterFile(filterId, file, onProgress, true);
    throw error;
  }
}

export async function deleteFilterFile(filterId: string, name: string): Promise<void> {
  await apiFetch(filesPath(filterId, name), { method: 'DELETE' });
}
