import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { open, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { type Readable, Transform, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';

import { alertFileProblem, isGzip } from '@antares/pipeline';

import { ApiError, badRequest, notFound, payloadTooLarge, unavailable } from '../errors.ts';

export type UploadStatus = 'queued' | 'ingested' | 'failed';

export interface AlertUpload {
  id: string;
  status: UploadStatus;
  /** The ingestion's counts once ingested (see InboxWatcher). */
  summary?: Record<string, unknown>;
  /** Why ingestion failed. */
  error?: string;
}

const UPLOAD_ID = /^\d{14}-[0-9a-f]{12}$/;
/** The Avro header (magic, metadata with the writer schema, sync marker) lies within this much of a file. */
const HEADER_BYTES = 1 << 20;

/** Caps of an upload: the request body, and the file once decompressed (a small gzip can hold gigabytes). */
export interface UploadLimits {
  maxBodyBytes: number;
  maxUncompressedBytes: number;
}

const sizeOf = (bytes: number) => (bytes >= 1 << 20 ? `${Math.round((bytes / (1 << 20)) * 10) / 10} MB` : `${Math.round(bytes / 1024)} kB`);

class TooLarge extends Error {}

/** Passes bytes through, failing past `max`; counts them in `seen`. */
function capped(max: number, seen: { bytes: number }): Transform {
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      seen.bytes += chunk.length;
      done(seen.bytes > max ? new TooLarge() : null, chunk);
    },
  });
}

/**
 * Alert files sent over HTTP go into the server's inbox folder, where the running pipeline ingests them
 * (Level 1, association, Level 2) exactly like files dropped there; the upload's status is where its file
 * is now: still in the inbox, in done/ (with the ingestion summary), or in failed/ (with the reason).
 */
export class AlertUploadService {
  constructor(
    private readonly inboxDir: string | undefined,
    private readonly limits: UploadLimits,
    /** Whether the pipeline has a schema registry for Confluent-framed records (else only shipped Rubin schemas). */
    private readonly schemaRegistry = false,
  ) {}

  /**
   * Takes the request body as a stream, so that memory stays bounded whatever arrives: it goes to a
   * file (at most `maxBodyBytes`), which is then decompressed as a stream (at most
   * `maxUncompressedBytes`, 413 past either) keeping only the start, where the Avro header is checked.
   */
  async accept(body: Readable, declaredLength?: number): Promise<AlertUpload> {
    const inbox = this.requireInbox();
    if (declaredLength !== undefined && declaredLength > this.limits.maxBodyBytes) throw this.bodyTooLarge();
    // Time first, so that the inbox (which takes files in name order) ingests uploads in arrival order.
    const stamp = new Date().toISOString().replace(/\D/g, '').slice(0, 14);
    const id = `${stamp}-${randomBytes(6).toString('hex')}`;
    // Written under another name, then renamed: the inbox never reads a half-written file.
    mkdirSync(inbox, { recursive: true });
    const partial = path.join(inbox, `upload-${id}.part`);
    try {
      const received = { bytes: 0 };
      try {
        await pipeline(body, capped(this.limits.maxBodyBytes, received), createWriteStream(partial));
      } catch (error) {
        if (error instanceof TooLarge) throw this.bodyTooLarge();
        throw badRequest(`The upload was cut off before its end (${(error as Error).message})`);
      }
      if (received.bytes === 0) throw badRequest('The upload is empty: send an Avro alert file as the request body');
      const gzipped = await this.startsGzipped(partial);
      const problem = alertFileProblem(await this.decompressedStart(partial, gzipped), this.schemaRegistry);
      if (problem) throw badRequest(`The upload cannot be ingested: ${problem}`);
      await rename(partial, path.join(inbox, `upload-${id}.avro${gzipped ? '.gz' : ''}`));
      return { id, status: 'queued' };
    } finally {
      await rm(partial, { force: true });
    }
  }

  private async startsGzipped(file: string): Promise<boolean> {
    const handle = await open(file, 'r');
    try {
      const { buffer, bytesRead } = await handle.read(Buffer.alloc(2), 0, 2, 0);
      return isGzip(buffer.subarray(0, bytesRead));
    } finally {
      await handle.close();
    }
  }

  /** The file's first HEADER_BYTES once decompressed, reading it all through the cap. */
  private async decompressedStart(file: string, gzipped: boolean): Promise<Buffer> {
    const kept: Buffer[] = [];
    let keptBytes = 0;
    const keep = new Writable({
      write(chunk: Buffer, _encoding, done) {
        if (keptBytes < HEADER_BYTES) {
          kept.push(chunk.subarray(0, HEADER_BYTES - keptBytes));
          keptBytes += Math.min(chunk.length, HEADER_BYTES - keptBytes);
        }
        done();
      },
    });
    const cap = capped(this.limits.maxUncompressedBytes, { bytes: 0 });
    try {
      await (gzipped ? pipeline(createReadStream(file), createGunzip(), cap, keep) : pipeline(createReadStream(file), cap, keep));
    } catch (error) {
      if (error instanceof TooLarge) {
        throw payloadTooLarge(
          `The upload is larger than ${sizeOf(this.limits.maxUncompressedBytes)} once decompressed, ` +
            'the most one file may hold: split it into several, or put it in the inbox folder',
        );
      }
      if ((error as { code?: string }).code?.startsWith('Z_')) {
        throw badRequest(`The upload cannot be ingested: not a valid gzip file (${(error as Error).message})`);
      }
      throw error;
    }
    return Buffer.concat(kept);
  }

  private bodyTooLarge(): ApiError {
    return payloadTooLarge(
      `The upload is larger than ${sizeOf(this.limits.maxBodyBytes)}, the most one request may carry: ` +
        'split it into several, or put it in the inbox folder',
    );
  }

  /** The upload's status, or undefined for an unknown id. */
  /** Where upload `id` stands; an id that names no upload is a 404. */
  get(id: string): AlertUpload {
    const upload = this.find(id);
    if (!upload) throw notFound(`No alert upload with id "${id}"`);
    return upload;
  }

  find(id: string): AlertUpload | undefined {
    const inbox = this.requireInbox();
    if (!UPLOAD_ID.test(id)) return undefined;
    for (const name of [`upload-${id}.avro`, `upload-${id}.avro.gz`]) {
      if (existsSync(path.join(inbox, name))) return { id, status: 'queued' };
      const done = path.join(inbox, 'done', name);
      if (existsSync(done)) {
        const summaryFile = `${done}.summary.json`;
        return { id, status: 'ingested', summary: existsSync(summaryFile) ? JSON.parse(readFileSync(summaryFile, 'utf8')) : undefined };
      }
      const failed = path.join(inbox, 'failed', name);
      if (existsSync(failed)) {
        const errorFile = `${failed}.error.txt`;
        const error = existsSync(errorFile)
          ? readFileSync(errorFile, 'utf8')
              .split('\n')[0]
              .replace(/^Error: /, '')
          : 'unknown error';
        return { id, status: 'failed', error };
      }
    }
    return undefined;
  }

  private requireInbox(): string {
    if (!this.inboxDir) throw unavailable('Alert uploads need the inbox, which is switched off (ANTARES_INBOX_DIR=off)');
    return this.inboxDir;
  }
}
