import type { Readable } from 'node:stream';

import { FILTER_FILE_NAME_MAX } from '@antares/contract/endpoints';
import { type FilterFileRow, FilterFileTooLarge, type FilterRow, type FilterVersionRow, type Repositories } from '@antares/db';

import type { Identity } from '../auth/authenticator.ts';
import { badRequest, conflict, notFound, payloadTooLarge, unavailable } from '../errors.ts';

/** The limits of filter data files (ANTARES_FILTER_FILE_MAX_MB, ANTARES_FILTER_FILES_USER_MAX_MB), in bytes. */
export interface FilterFileLimits {
  maxFileBytes: number;
  maxUserBytes: number;
}

const MB = 1 << 20;
const sizeOf = (bytes: number) => (bytes >= MB ? `${Math.round((bytes / MB) * 10) / 10} MB` : `${Math.round(bytes / 1024)} kB`);

/**
 * Why a file name cannot be stored, or null. A name becomes a file in the filter's working directory
 * (the sandbox binds them there, ADR 0053): one path segment, nothing that climbs out or hides.
 */
export function fileNameProblem(name: string): string | null {
  if (name === '') return 'the file name is empty';
  if (name.length > FILTER_FILE_NAME_MAX) return `the file name is longer than ${FILTER_FILE_NAME_MAX} characters`;
  if (/[/\\]/.test(name)) return 'a file name may not contain a path separator ("/" or "\\")';
  if (name.includes('..')) return 'a file name may not contain ".."';
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
  if (/[\u0000-\u001f\u007f-\u009f]/.test(name)) return 'a file name may not contain control characters';
  if (name === '.') return 'a file name may not be "."';
  return null;
}

/** The REQUIRES_FILES a version declares (its sandbox check's outputs); [] when stored unchecked. */
export function requiredFilesOf(version: Pick<FilterVersionRow, 'declared_outputs'>): string[] {
  const names = (version.declared_outputs as { requires_files?: unknown } | null)?.requires_files;
  return Array.isArray(names) ? names.filter((n): n is string => typeof n === 'string') : [];
}

/**
 * Enabling needs every file the version requires, as it was reviewed with them: refused naming the
 * missing ones otherwise (a version waiting for review still takes uploads; a reviewed one keeps its files).
 */
export async function assertFilesForEnabling(repos: Repositories, version: FilterVersionRow): Promise<void> {
  const required = requiredFilesOf(version);
  if (required.length === 0) return;
  const have = new Set((await repos.filterFiles.versionFiles(version.filter_version_id)).map((f) => f.name));
  const missing = required.filter((name) => !have.has(name));
  if (missing.length === 0) return;
  throw conflict(
    `Version ${version.filter_version_id} cannot be enabled: it has no file for ${missing.map((n) => `"${n}"`).join(', ')} ` +
      `(REQUIRES_FILES). Upload ${missing.length === 1 ? 'it' : 'them'} (PUT /v1/filters/${version.filter_id}/files/{name}) and submit ` +
      'a new version: a reviewed version keeps the files it was reviewed with',
  );
}

/**
 * The filter whose data files unsaved code is run with (a dry run's or code backtest's `filter_id`):
 * one the caller owns (any for an admin); undefined when none is named.
 */
export async function filterForCode(
  repos: Repositories,
  identity: Identity,
  attributes: Record<string, unknown>,
): Promise<FilterRow | undefined> {
  const given = attributes.filter_id;
  if (given === undefined || given === null) return undefined;
  const id = typeof given === 'number' ? given : typeof given === 'string' && /^\d{1,15}$/.test(given) ? Number(given) : NaN;
  if (!Number.isSafeInteger(id)) throw badRequest('filter_id must be the id of one of your filters');
  const filter = await repos.filters.findById(id);
  if (!filter || (filter.user_id !== identity.user.user_id && !identity.user.admin)) {
    throw badRequest(`filter_id: no filter ${id} of yours (its data files are given only to its owner's code)`);
  }
  return filter;
}

/** A filter's data files: upload, list, download, delete (ADR 0053). The caller has checked the filter is visible. */
export class FilterFileService {
  constructor(
    private readonly repos: Repositories,
    private readonly limits: FilterFileLimits,
  ) {}

  list(filter: FilterRow): Promise<FilterFileRow[]> {
    return this.repos.filterFiles.list(filter.filter_id);
  }

  async get(filter: FilterRow, name: string): Promise<FilterFileRow> {
    const row = fileNameProblem(name) ? undefined : await this.repos.filterFiles.find(filter.filter_id, name);
    if (!row) throw notFound(`Filter ${filter.filter_id} has no file named "${name}"`);
    return row;
  }

  /** The bytes of a file, as a stream. */
  download(row: FilterFileRow): Readable {
    const store = this.repos.filterFiles.store;
    if (!store) throw unavailable('Filter data files are not available on this server');
    return store.stream(row.sha256);
  }

  /**
   * Stores `body` as the filter's file `name`: the name checked, then the bytes streamed to the store
   * under both limits (413 naming the one passed), then the row; the enabled version, if it used
   * other bytes under that name, keeps them (`enabledKeeps`).
   */
  async put(
    filter: FilterRow,
    name: string,
    body: Readable,
    declaredLength?: number,
  ): Promise<{ row: FilterFileRow; enabledKeeps?: { version_id: string; sha256: string } }> {
    const problem = fileNameProblem(name);
    if (problem) throw badRequest(`Cannot store "${printable(name)}": ${problem}`);
    const store = this.repos.filterFiles.store;
    if (!store) throw unavailable('Filter data files are not available on this server');
    const listed = await this.repos.filterFiles.requiredNames(filter.filter_id);
    if (!listed.includes(name)) {
      throw conflict(
        `No version of filter ${filter.filter_id} lists "${name}" in REQUIRES_FILES` +
          (listed.length ? ` (it lists ${listed.map((n) => `"${n}"`).join(', ')})` : ' (none lists any file)') +
          ': submit a version whose code lists it first',
      );
    }
    const existing = await this.repos.filterFiles.find(filter.filter_id, name);
    const room = this.limits.maxUserBytes - ((await this.repos.filterFiles.userTotal(filter.user_id)) - (existing?.size ?? 0));
    const max = Math.max(0, Math.min(this.limits.maxFileBytes, room));
    const tooLarge = () =>
      max === this.limits.maxFileBytes
        ? payloadTooLarge(`The file is larger than ${sizeOf(max)}, the most one filter file may hold (ANTARES_FILTER_FILE_MAX_MB)`)
        : payloadTooLarge(
            `The files of this user's filters would hold more than ${sizeOf(this.limits.maxUserBytes)}, the most one user may keep ` +
              `(ANTARES_FILTER_FILES_USER_MAX_MB; ${sizeOf(Math.max(0, room))} left): delete files no longer needed`,
          );
    if (declaredLength !== undefined && declaredLength > max) throw tooLarge();
    let stored;
    try {
      stored = await store.write(body, max);
    } catch (error) {
      if (error instanceof FilterFileTooLarge) throw tooLarge();
      throw badRequest(`The upload was cut off before its end (${(error as Error).message})`);
    }
    if (stored.size === 0) throw badRequest(`The file "${name}" is empty: send its bytes as the request body`);
    const { row, replaced } = await this.repos.filterFiles.put(filter.filter_id, { name, ...stored });
    if (replaced) await this.collect(replaced);
    const enabled = filter.enabled_version_id
      ? (await this.repos.filterFiles.versionFiles(filter.enabled_version_id)).find((f) => f.name === name)
      : undefined;
    const enabledKeeps =
      enabled && enabled.sha256 !== stored.sha256 ? { version_id: String(filter.enabled_version_id), sha256: enabled.sha256 } : undefined;
    return { row, enabledKeeps };
  }

  async remove(filter: FilterRow, name: string): Promise<void> {
    await this.get(filter, name);
    const gone = await this.repos.filterFiles.remove(filter.filter_id, name);
    if (gone) await this.collect(gone);
  }

  /** A version's files, with the names it requires and those it has no file for. */
  async ofVersion(version: FilterVersionRow): Promise<{ rows: FilterFileRow[]; required: string[]; missing: string[] }> {
    const rows = await this.repos.filterFiles.versionFiles(version.filter_version_id);
    const required = requiredFilesOf(version);
    const have = new Set(rows.map((r) => r.name));
    return { rows, required, missing: required.filter((n) => !have.has(n)) };
  }

  /** Removes bytes no filter and no version names any more. */
  private async collect(sha256: string): Promise<void> {
    if (!(await this.repos.filterFiles.referenced(sha256))) await this.repos.filterFiles.store?.remove(sha256);
  }
}

/** A name as it can be shown in a message (control characters escaped, cut to a readable length). */
function printable(name: string): string {
  const shown = JSON.stringify(name.length > 80 ? `${name.slice(0, 80)}...` : name).slice(1, -1);
  return shown;
}
