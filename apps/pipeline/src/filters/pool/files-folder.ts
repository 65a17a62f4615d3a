import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

/**
 * A filter's data files as a folder of their own (REQUIRES_FILES, ADR 0053): the sandbox binds it
 * read-only as the worker's working directory, so `open('name')` and `np.load('name.npy')` find them
 * as the published filters expect. One folder per loaded filter, and a worker hosts one filter, so the
 * working directory is exactly that filter's files. Readable by anyone (0755/0444): the worker runs as
 * an unprivileged uid, and the folder holds nothing but what the filter is given anyway.
 */
export async function filesFolder(files: Record<string, Uint8Array | string>): Promise<string | undefined> {
  const names = Object.keys(files);
  if (names.length === 0) return undefined;
  for (const name of names) {
    // The server refuses such names; a folder must still never be written outside itself.
    if (name === '' || name === '.' || name.includes('..') || /[/\\\0]/.test(name))
      throw new Error(`not a file name: ${JSON.stringify(name)}`);
  }
  const dir = await mkdtemp(path.join(os.tmpdir(), 'antares-filter-files-'));
  try {
    for (const name of names) {
      const file = path.join(dir, name);
      await writeFile(file, files[name]!, { flag: 'wx' });
      await chmod(file, 0o444);
    }
    await chmod(dir, 0o755);
    return dir;
  } catch (error) {
    await removeFilesFolder(dir);
    throw error;
  }
}

export async function removeFilesFolder(dir: string | undefined): Promise<void> {
  if (dir) await rm(dir, { recursive: true, force: true });
}
