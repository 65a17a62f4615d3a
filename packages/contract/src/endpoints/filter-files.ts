/** A filter's data files (REQUIRES_FILES): uploaded by its owner or an admin, given to the filter when it loads. */
import Type from 'typebox';

import { fileAnswer } from './alerts.ts';
import { allDocument, numericPathParam, pathParam, resource, singleDocument } from './common.ts';
import { endpoint } from './define.ts';

const tags = ['Filters'];
const VISIBLE =
  'Visible as the filter is: a public filter\'s files to anyone (like its code), a private filter\'s to its owner and administrators; to anyone else it is "not found".';
const NO_FILTER = 'No such filter (or a private filter of another user)';

/** What a file name may be: one path segment of a folder, as the filter opens it. */
export const FILTER_FILE_NAME_MAX = 200;

/** Any content type is taken as the file's bytes. */
export const FILTER_FILE_TYPES = ['*/*'];

export const FilterFile = resource(
  'filter_file',
  {
    name: Type.String({ description: 'The name the code lists in REQUIRES_FILES' }),
    size: Type.Integer({ description: 'Bytes' }),
    sha256: Type.String({ description: 'The sha256 digest of the bytes, in hex' }),
    uploaded_at: Type.String({ format: 'date-time' }),
  },
  {
    links: true,
    meta: {
      enabled_version_keeps: Type.Optional(
        Type.Object(
          { version_id: Type.String(), sha256: Type.String() },
          { description: 'After a replacement: the enabled version that still runs the file it was reviewed with' },
        ),
      ),
    },
  },
);

const filterId = { filterId: numericPathParam('filter') };
const name = {
  name: pathParam(
    `File name as REQUIRES_FILES lists it (URL-encoded): at most ${FILTER_FILE_NAME_MAX} characters, no "/", "\\", ".." or control characters.`,
  ),
};

export const listFilterFiles = endpoint({
  method: 'GET',
  path: '/v1/filters/:filterId/files',
  operationId: 'list_filter_files',
  access: 'optional',
  tags,
  summary: "A filter's data files: name, size, sha256, uploaded_at",
  description: `The files the filter has now; a version runs with those it was submitted and reviewed with (GET .../versions/{versionId}/files). ${VISIBLE}`,
  params: Type.Object(filterId),
  response: { status: 200, description: 'Every filter_file resource, by name; meta.count', schema: allDocument(FilterFile) },
  errors: { 404: NO_FILTER },
});

export const putFilterFile = endpoint({
  method: 'PUT',
  path: '/v1/filters/:filterId/files/:name',
  operationId: 'put_filter_file',
  access: 'login',
  tags,
  summary: 'Upload (or replace) one data file of a filter',
  description:
    "Its owner or an admin. The body is the file's raw bytes, under any content type. The name must be one that a version of the filter lists in REQUIRES_FILES. The bytes are stored once written in full (a cut-off upload leaves nothing). Versions waiting for review take the new file; a reviewed or enabled version keeps the file it was reviewed with (submit a new version to run the new one: `meta.enabled_version_keeps` says so).",
  params: Type.Object({ ...filterId, ...name }),
  body: { kind: 'file', mediaTypes: FILTER_FILE_TYPES, schema: Type.String({ contentMediaType: 'application/octet-stream' }) },
  response: { status: 200, description: 'The filter_file resource', schema: singleDocument(FilterFile) },
  errors: {
    400: 'An empty body, a name with a path separator, ".." or a control character, or cut off before its end',
    403: 'Not the owner of the filter',
    404: NO_FILTER,
    409: "The name is not in any version's REQUIRES_FILES (or the code was stored unchecked)",
    413: "Over ANTARES_FILTER_FILE_MAX_MB (16 MB) for one file, or over ANTARES_FILTER_FILES_USER_MAX_MB (256 MB) for all files of the user's filters",
  },
});

export const getFilterFile = endpoint({
  method: 'GET',
  path: '/v1/filters/:filterId/files/:name',
  operationId: 'get_filter_file',
  access: 'optional',
  tags,
  summary: 'Download one data file of a filter (its raw bytes)',
  description: VISIBLE,
  params: Type.Object({ ...filterId, ...name }),
  response: { ...fileAnswer('application/octet-stream', 'The raw bytes; ETag is the sha256'), headers: { ETag: 'The sha256 digest' } },
  errors: { 404: 'No such filter, or no file of that name' },
});

export const deleteFilterFile = endpoint({
  method: 'DELETE',
  path: '/v1/filters/:filterId/files/:name',
  operationId: 'delete_filter_file',
  access: 'login',
  tags,
  summary: 'Delete one data file of a filter',
  description: 'Its owner or an admin. Reviewed and enabled versions keep the file they were reviewed with.',
  params: Type.Object({ ...filterId, ...name }),
  response: { status: 204, description: 'Deleted' },
  errors: { 403: 'Not the owner of the filter', 404: 'No such filter, or no file of that name' },
});

export const listFilterVersionFiles = endpoint({
  method: 'GET',
  path: '/v1/filters/:filterId/versions/:versionId/files',
  operationId: 'list_filter_version_files',
  access: 'optional',
  tags,
  summary: 'The data files a version was submitted and reviewed with (what it runs with)',
  description: `Also lists, in meta.missing, the REQUIRES_FILES names it has no file for (it cannot be enabled then). ${VISIBLE}`,
  params: Type.Object({ ...filterId, versionId: numericPathParam('filter version') }),
  response: {
    status: 200,
    description: 'Every filter_file resource of the version, by name; meta.count, meta.missing',
    schema: Type.Object({
      data: Type.Array(FilterFile),
      meta: Type.Object({ count: Type.Integer(), required: Type.Array(Type.String()), missing: Type.Array(Type.String()) }),
    }),
  },
  errors: { 404: 'No such filter or version' },
});
