import { createHash, randomUUID } from 'node:crypto';
import { createReadStream, type ReadStream } from 'node:fs';
import { mkdir, open, readdir, readFile, rename, rm, stat } from 'node:fs/promises';
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
 * a consistent backup: every digest the dump names was written before its row committed, and names
 * never change meaning.
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

  /** The bytes stored under `sha256` (ENOENT when there are none). */
  read(sha256: string): Promise<Buffer> {
    return readFile(this.pathOf(sha256));
  }

  /** The bytes as a stream, for a download. */
  stream(sha256: string): ReadStream {
    return createReadStream(this.pathOf(sha256));
  }

  async has(sha256: string): Promise<boolean> {
    return stat(this.pathOf(sha256)).then(
      () => true,
      () => false,
    );
  }

  /** Removes the bytes of a digest no row names any more. */
  async remove(sha256: string): Promise<void> {
    await rm(this.pathOf(sha256), { force: true });
  }

  /**
   * Removes what interrupted writes left (`tmp/*.part`) more than `olderThanMs` ago: called at start-up.
   * Only old ones: another server sharing the folder may be writing one now.
   */
  async sweep(olderThanMs = 3_600_000): Promise<number> {
    const tmpDir = path.join(this.dir, 'tmp');
    const names = await readdir(tmpDir).catch(() => [] as string[]);
    let removed = 0;
    for (const name of names.filter((n) => n.endsWith('.part'))) {
      const file = path.join(tmpDir, name);
      const info = await stat(file).catch(() => undefined);
      if (info && Date.now() - info.mtimeMs >= olderThanMs) {
        await rm(file, { force: true });
        removed++;
      }
    }
    return removed;
  }
}
