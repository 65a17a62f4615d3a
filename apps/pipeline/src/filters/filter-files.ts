import type { FilterFileRow, Repositories } from '@antares/db';

/**
 * The data files (REQUIRES_FILES) a filter is loaded with, by name (ADR 0053): a version's are those it
 * was submitted and reviewed with, so Level 2, a backtest of the version and a dry run of it all load
 * the same bytes, whatever was uploaded since. A file whose bytes cannot be read (a data folder restored
 * without its filter-files folder) is left out: the load then fails naming it ("REQUIRES_FILES not
 * provided"), and Level 2 disables that one filter with the reason instead of stopping every filter.
 */
export async function filesOfVersion(repos: Repositories, versionId: number): Promise<Record<string, Uint8Array>> {
  return readable(repos, await repos.filterFiles.versionFiles(versionId));
}

/** A filter's files as they are now (a dry run or backtest of unsaved code for that filter). */
export async function filesOfFilter(repos: Repositories, filterId: number): Promise<Record<string, Uint8Array>> {
  return readable(repos, await repos.filterFiles.list(filterId));
}

async function readable(repos: Repositories, rows: FilterFileRow[]): Promise<Record<string, Uint8Array>> {
  const files: Record<string, Uint8Array> = {};
  for (const row of rows) {
    const read = await repos.filterFiles.read([row]).catch(() => ({}) as Record<string, Uint8Array>);
    if (read[row.name]) files[row.name] = read[row.name]!;
  }
  return files;
}
