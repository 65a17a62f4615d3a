import { createHash, randomUUID } from 'node:crypto';
import { createReadStream, existsSync, type ReadStream } from 'node:fs';
import { mkdir, open, readdir, readFile, rename, rm, stat, utimes } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';

import { syncFolder } from './cutout-packs.ts';

/** A body went past the most bytes a write was allowed (`limit`); nothing of it was kept. */
export class FilterFileTooLarge extends Error {
  constructor(readonly limit: number) {
    super(`more than ${limit} bytes`);
  }
}

/** A stored file's digest and size. */
export interface StoredFile {
  sha256: string;
  size: number;
}

const SHA256 = /^[0-9a-f]{64}$/;

/**
 * Filter data files (REQUIRES_FILES) outside the database (ADR 0053), content-addressed: a file's bytes
 * are `<first two hex digits>/<sha256>` under the folder, so the same bytes are stored once however many
 * filters and versions use them, and a file never changes once written. A write streams the body to
 * `tmp/<uuid>.part`, hashing as it goes, flushes it to disk, then renames it to its digest's name (one
 * atomic step on one file system): a crash or a cut-off request leaves at most a `.part` file, which no
 * row points to and a later start removes (`sweep`). Copying the folder after a database dump makes
 * a consistent backup: every digest the dump names was written before its row committed, names never
 * change meaning, and bytes no row names any more wait a day in `trash/` before they go.
 */
export class FilterFileStore {
  readonly dir: string;

  constructor(dir: string) {
    this.dir = path.resolve(dir);
  }

  private pathOf(sha256: string): string {
    // Digests come from our own hashing or the database; still, never a path outside the folder.
    if (!SHA256.test(sha256)) throw new Error(`not a sha256 digest: ${sha256.slice(0, 80)}`);
    return path.join(this.dir, sha256.slice(0, 2), sha256);
  }

  /**
   * Streams `body` into the store under its digest, failing with FilterFileTooLarge past `maxBytes`
   * (checked on every chunk, so memory and disk stay bounded). An empty body is stored as nothing:
   * `size` 0 and no file.
   */
  async write(body: Readable, maxBytes: number): Promise<StoredFile> {
    const tmpDir = path.join(this.dir, 'tmp');
    await mkdir(tmpDir, { recursive: true });
    const partial = path.join(tmpDir, `${randomUUID()}.part`);
    const handle = await open(partial, 'wx', 0o644);
    const hash = createHash('sha256');
    let size = 0;
    let kept = false;
    try {
      try {
        for await (const chunk of body as AsyncIterable<Buffer>) {
          size += chunk.length;
          if (size > maxBytes) throw new FilterFileTooLarge(maxBytes);
          hash.update(chunk);
          await handle.write(chunk);
        }
        await handle.sync();
      } finally {
        await handle.close();
      }
      if (size === 0) return { sha256: '', size: 0 };
      const sha256 = hash.digest('hex');
      const final = this.pathOf(sha256);
      const created = await mkdir(path.dirname(final), { recursive: true });
      await rename(partial, final);
      kept = true;
      // The new name is part of its folder: flushed too, or a crash could lose a file whose row committed.
      await syncFolder(path.dirname(final));
      if (created !== undefined) await syncFolder(this.dir);
      return { sha256, size };
    } finally {
      if (!kept) await rm(partial, { force: true });
    }
  }

  private trashOf(sha256: string): string {
    return path.join(this.dir, 'trash', path.basename(this.pathOf(sha256)));
  }

  /** Where the bytes are: in place, else still in the trash (a database restored from a dump older than the deletion). */
  private located(sha256: string): string {
    const file = this.pathOf(sha256);
    return existsSync(file) || !existsSync(this.trashOf(sha256)) ? file : this.trashOf(sha256);
  }

  /** The bytes stored under `sha256` (ENOENT when there are none). */
  read(sha256: string): Promise<Buffer> {
    return readFile(this.located(sha256));
  }

  /** The bytes as a stream, for a download. */
  stream(sha256: string): ReadStream {
    return createReadStream(this.located(sha256));
  }

  async has(sha256: string): Promise<boolean> {
    return stat(this.pathOf(sha256)).then(
      () => true,
      () => false,
    );
  }

  /**
   * Puts away the bytes of a digest no row names any more: into `trash/`, removed by a `sweep` a day
   * later. A backup copies the folder after dumping the database; a file deleted in between is still in
   * the copy's trash, where reads find it, so the copy holds every file the dump names.
   */
  async remove(sha256: string): Promise<void> {
    await mkdir(path.join(this.dir, 'trash'), { recursive: true });
    await rename(this.pathOf(sha256), this.trashOf(sha256)).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw error;
    });
    // A rename keeps the file's time: set it to now, so that the day counts from the deletion.
    const now = new Date();
    await utimes(this.trashOf(sha256), now, now).catch(() => undefined);
  }

  /**
   * Removes what interrupted writes left (`tmp/*.part`) more than `olderThanMs` ago, and what was put
   * in the trash more than `trashAfterMs` ago: called at start-up. Only old ones: another server
   * sharing the folder may be writing one now.
   */
  async sweep(olderThanMs = 3_600_000, trashAfterMs = 86_400_000): Promise<number> {
    let removed = 0;
    for (const [folder, age, suffix] of [
      ['tmp', olderThanMs, '.part'],
      ['trash', trashAfterMs, ''],
    ] as const) {
      const dir = path.join(this.dir, folder);
      for (const name of (await readdir(dir).catch(() => [] as string[])).filter((n) => n.endsWith(suffix))) {
        const file = path.join(dir, name);
        const info = await stat(file).catch(() => undefined);
        if (info && Date.now() - info.mtimeMs >= age) {
          await rm(file, { force: true });
          removed++;
        }
      }
    }
    return removed;
  }
}
