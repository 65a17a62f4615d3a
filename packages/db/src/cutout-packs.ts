import { randomUUID } from 'node:crypto';
import { type FileHandle, mkdir, open } from 'node:fs/promises';
import path from 'node:path';

/** Where one cutout lies in a pack: the pack's path under the cutout folder, and the byte range. */
export interface PackedCutout {
  pack: string;
  offset: number;
  length: number;
}

/** A cutout a row points to cannot be read: no cutout folder configured, or its pack missing or cut short. */
export class CutoutPackUnavailable extends Error {}

/**
 * Cutouts kept outside the database (ADR 0051), when `ANTARES_CUTOUT_DIR` names a folder: each batch
 * of cutouts is written as one file, a pack (`<day>/<uuid>.cutouts`, the cutouts' bytes one after the
 * other, as received), flushed to disk before the rows pointing into it commit. The database keeps
 * only each cutout's pack, offset and length. A Rubin cutout is 34-58 KB, and cutouts were 93 % of the
 * database's bytes; their writing costs about the same CPU here or there (ADR 0051), but the database
 * stays small. One file per batch, not per cutout: flushing every file of a night's 30 million cutouts
 * to disk one by one costs a disk flush each (measured 6.6 s for one benchmark run's 5,907 against
 * 0.4 s for four packs).
 */
export class CutoutPacks {
  readonly dir: string;

  constructor(dir: string) {
    this.dir = path.resolve(dir);
  }

  /** Writes the cutouts into a new pack and flushes it to disk; where each one lies, in the order given. */
  async write(cutouts: readonly Uint8Array[]): Promise<PackedCutout[]> {
    const day = new Date().toISOString().slice(0, 10);
    const pack = `${day}/${randomUUID()}.cutouts`;
    const dayDir = path.join(this.dir, day);
    const created = await mkdir(dayDir, { recursive: true });
    const handle = await open(path.join(this.dir, pack), 'wx');
    try {
      await writeAll(handle, cutouts);
      await handle.sync();
    } finally {
      await handle.close();
    }
    // The new file's name is part of its folder: flushed too, or a crash could lose the whole pack.
    await syncFolder(dayDir);
    if (created !== undefined) await syncFolder(path.dirname(created));
    let offset = 0;
    return cutouts.map((cutout) => {
      const placed = { pack, offset, length: cutout.byteLength };
      offset += cutout.byteLength;
      return placed;
    });
  }

  /** The bytes of one cutout; CutoutPackUnavailable when its pack is missing or shorter than the row says. */
  async read({ pack, offset, length }: PackedCutout): Promise<Uint8Array> {
    const file = path.resolve(this.dir, pack);
    // Pack names come from the database; still, never read outside the cutout folder.
    if (!file.startsWith(this.dir + path.sep)) throw new CutoutPackUnavailable(`the cutout pack "${pack}" is outside the cutout folder`);
    let handle: FileHandle;
    try {
      handle = await open(file, 'r');
    } catch (error) {
      throw new CutoutPackUnavailable(`its cutout pack "${pack}" cannot be opened (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
    }
    try {
      const bytes = Buffer.allocUnsafe(length);
      const { bytesRead } = await handle.read(bytes, 0, length, offset);
      if (bytesRead !== length) throw new CutoutPackUnavailable(`its cutout pack "${pack}" is shorter than recorded`);
      return bytes;
    } finally {
      await handle.close();
    }
  }
}

/**
 * Writes every buffer, in order. A single writev takes at most IOV_MAX buffers (1,024 on Linux) and may
 * write less than asked: the rest is written again from where it stopped.
 */
async function writeAll(handle: FileHandle, buffers: readonly Uint8Array[]): Promise<void> {
  const BUFFERS_PER_CALL = 512;
  for (let first = 0; first < buffers.length; first += BUFFERS_PER_CALL) {
    const pending = buffers.slice(first, first + BUFFERS_PER_CALL);
    while (pending.length > 0) {
      let { bytesWritten } = await handle.writev(pending);
      while (pending.length > 0 && bytesWritten >= pending[0]!.byteLength) bytesWritten -= pending.shift()!.byteLength;
      if (bytesWritten > 0) pending[0] = pending[0]!.subarray(bytesWritten);
    }
  }
}

/** Flushes a folder's entries (a new file's name) to disk. */
export async function syncFolder(folder: string): Promise<void> {
  const handle = await open(folder, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
