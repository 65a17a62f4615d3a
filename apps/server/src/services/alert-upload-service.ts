import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { alertFileProblem, isGzip } from '@antares/pipeline';
import { ApiError, badRequest } from '../errors.ts';

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

/**
 * Alert files sent over HTTP go into the server's inbox folder, where the running pipeline ingests them
 * (Level 1, association, Level 2) exactly like files dropped there; the upload's status is where its file
 * is now: still in the inbox, in done/ (with the ingestion summary), or in failed/ (with the reason).
 */
export class AlertUploadService {
  constructor(private readonly inboxDir: string | undefined) {}

  accept(body: Buffer): AlertUpload {
    const inbox = this.requireInbox();
    if (body.length === 0) throw badRequest('The upload is empty: send an Avro alert file as the request body');
    const problem = alertFileProblem(body);
    if (problem) throw badRequest(`The upload cannot be ingested: ${problem}`);
    // Time first, so that the inbox (which takes files in name order) ingests uploads in arrival order.
    const stamp = new Date().toISOString().replace(/\D/g, '').slice(0, 14);
    const id = `${stamp}-${randomBytes(6).toString('hex')}`;
    const name = this.fileName(id, body);
    // Written under another name, then renamed: the inbox never reads a half-written file.
    mkdirSync(inbox, { recursive: true });
    const partial = path.join(inbox, `${name}.part`);
    writeFileSync(partial, body);
    renameSync(partial, path.join(inbox, name));
    return { id, status: 'queued' };
  }

  /** The upload's status, or undefined for an unknown id. */
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
        const error = existsSync(errorFile) ? readFileSync(errorFile, 'utf8').split('\n')[0].replace(/^Error: /, '') : 'unknown error';
        return { id, status: 'failed', error };
      }
    }
    return undefined;
  }

  private fileName(id: string, body: Buffer): string {
    return isGzip(body) ? `upload-${id}.avro.gz` : `upload-${id}.avro`;
  }

  private requireInbox(): string {
    if (!this.inboxDir) throw new ApiError(503, 'Service Unavailable', 'Alert uploads need the inbox, which is switched off (ANTARES_INBOX_DIR=off)');
    return this.inboxDir;
  }
}
