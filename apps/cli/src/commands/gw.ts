import { readFileSync } from 'node:fs';

import type { Repositories } from '@antares/db';
import { type GwNotice, GwNoticeError, ingestNotice, type NoticeType, parseIgwnNotice, readSkyMap } from '@antares/pipeline';

export interface GwIngestOptions {
  /** For a bare FITS sky map: its superevent, event time and notice type (a JSON notice names its own). */
  id?: string;
  eventTime?: string;
  type?: NoticeType;
  windowDays?: number;
}

/** `antares gw ingest`: IGWN alert JSON files, or FITS sky maps with --id and --event-time. */
export async function runGwIngest(repos: Repositories, files: string[], options: GwIngestOptions): Promise<void> {
  for (const file of files) {
    const notice = file.endsWith('.json') ? parseIgwnNotice(readFileSync(file, 'utf8')) : fitsNotice(file, options);
    const result = await ingestNotice(repos, notice, options.windowDays);
    console.log(
      result.stored
        ? `${notice.gracedb_id} ${notice.notice_type} (${notice.notice_datetime}): stored; ${result.associated} alerts associated` +
            (notice.skymap ? `; 50% ${notice.skymap.areaOf(0.5).toFixed(1)} deg², 90% ${notice.skymap.areaOf(0.9).toFixed(1)} deg²` : '')
        : `${notice.gracedb_id} ${notice.notice_type} (${notice.notice_datetime}): already stored`,
    );
  }
}

function fitsNotice(file: string, options: GwIngestOptions): GwNotice {
  if (!options.id || !options.eventTime) throw new GwNoticeError(`${file}: a FITS sky map needs --id and --event-time`);
  const bytes = readFileSync(file);
  const skymap = readSkyMap(bytes);
  const eventTime = new Date(options.eventTime);
  if (Number.isNaN(eventTime.getTime())) throw new GwNoticeError(`--event-time "${options.eventTime}" is not a time`);
  const type = options.type ?? 'INITIAL';
  const full = {
    superevent_id: options.id,
    alert_type: type,
    time_created: new Date().toISOString(),
    event: { time: eventTime.toISOString() },
    source_file: file,
  };
  return parseIgwnNoticeLike(full, bytes, skymap);
}

function parseIgwnNoticeLike(full: Record<string, unknown>, bytes: Buffer, skymap: ReturnType<typeof readSkyMap>): GwNotice {
  const notice = parseIgwnNotice({ ...full, event: { ...(full.event as object), skymap: bytes.toString('base64') } });
  return { ...notice, skymap };
}
