import { gunzipSync } from 'node:zlib';

import { CutoutPackUnavailable, type Repositories, type ThumbnailType } from '@antares/db';
import { isGzip } from '@antares/pipeline';

import { notFound, unprocessable } from '../errors.ts';

export const CUTOUT_TYPES: readonly ThumbnailType[] = ['science', 'template', 'difference'];

export interface FitsCutout {
  bytes: Buffer;
  /** A file name for the download: the alert id made file-safe, the type, `.fits`. */
  fileName: string;
}

/**
 * An alert's cutout as the survey sent it, as a FITS file. ZTF gzips its cutouts: they are served
 * unzipped (the FITS file itself), so the web app reads the pixels without a decompressor and the
 * download opens in any FITS viewer. The bytes are otherwise untouched.
 */
export class CutoutService {
  constructor(private readonly repos: Repositories) {}

  async fits(alertId: string, file: string): Promise<FitsCutout> {
    const type = file.endsWith('.fits') ? file.slice(0, -'.fits'.length) : '';
    if (!(CUTOUT_TYPES as readonly string[]).includes(type)) {
      throw notFound(`No cutout named "${file}": use science.fits, template.fits or difference.fits`);
    }
    const alert = await this.repos.alerts.findById(alertId);
    if (!alert) throw notFound(`No alert with id "${alertId}"`);
    const stored = await this.repos.thumbnails
      .findCutout(alertId, type as ThumbnailType)
      .catch(unavailableAsNotFound(`The ${type} cutout of ${alertId}`));
    if (!stored) throw notFound(`Alert "${alertId}" has no ${type} cutout`);
    let bytes: Buffer;
    try {
      bytes = isGzip(stored) ? gunzipSync(stored) : Buffer.from(stored);
    } catch (error) {
      throw unprocessable('Unprocessable Cutout', `The ${type} cutout of ${alertId} cannot be decompressed: ${(error as Error).message}`);
    }
    if (bytes.subarray(0, 9).toString('latin1') !== 'SIMPLE  =') {
      // 2016 ZTF commissioning packets carry JPEG cutouts: there is no FITS file to give.
      throw unprocessable('Unprocessable Cutout', `The ${type} cutout of ${alertId} is not a FITS file`);
    }
    return { bytes, fileName: `${alertId.replace(/[^A-Za-z0-9_.-]/g, '_')}_${type}.fits` };
  }
}

/**
 * A cutout whose pack cannot be read (ADR 0051: ANTARES_CUTOUT_DIR unset on this server, or the pack
 * removed) answers 404 saying so; any other error goes on.
 */
export function unavailableAsNotFound(what: string): (error: unknown) => never {
  return (error) => {
    if (error instanceof CutoutPackUnavailable) throw notFound(`${what} is not available: ${error.message}`);
    throw error;
  };
}
