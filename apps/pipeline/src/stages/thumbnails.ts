import type { NewThumbnail } from '@antares/db';

import { isGzip } from '../bytes.ts';
import type { AlertPacket } from '../sources/alert-avro.ts';

/**
 * A packet's three cutouts, under the file names the real system uses for ZTF (`candid<candid>_pid<pid>_targ_sci.fits.png`,
 * `..._targ_diff.fits.png`, `candid<candid>_ref.fits.png`) and alike for Rubin (`diaSource<id>_sci.fits.png`,
 * `..._diff.fits.png`, `..._ref.fits.png`); the API renders each to PNG once, on first request.
 * A cutout that is not a FITS image (the 2016 commissioning packets carry JPEGs) is counted and skipped:
 * the alert is still stored.
 */
export function packetThumbnails(packet: AlertPacket, alertId: string, locusId: string): { thumbnails: NewThumbnail[]; errors: number } {
  let wanted;
  if (packet.survey === 'lsst') {
    const stem = `diaSource${packet.diaSourceId}`;
    wanted = [
      { type: 'science' as const, bytes: packet.cutouts.science, filename: `${stem}_sci.fits.png` },
      { type: 'template' as const, bytes: packet.cutouts.template, filename: `${stem}_ref.fits.png` },
      { type: 'difference' as const, bytes: packet.cutouts.difference, filename: `${stem}_diff.fits.png` },
    ];
  } else {
    const candid = packet.candid;
    const pid = String(packet.candidate.pid);
    wanted = [
      { type: 'science' as const, bytes: packet.cutouts.science, filename: `candid${candid}_pid${pid}_targ_sci.fits.png` },
      { type: 'template' as const, bytes: packet.cutouts.template, filename: `candid${candid}_ref.fits.png` },
      { type: 'difference' as const, bytes: packet.cutouts.difference, filename: `candid${candid}_pid${pid}_targ_diff.fits.png` },
    ];
  }
  const thumbnails: NewThumbnail[] = [];
  let errors = 0;
  for (const cutout of wanted) {
    if (!cutout.bytes || cutout.bytes.length === 0) continue;
    if (!looksLikeFits(cutout.bytes)) {
      errors++;
      continue;
    }
    thumbnails.push({ filename: cutout.filename, alert_id: alertId, locus_id: locusId, thumbnail_type: cutout.type, cutout: cutout.bytes });
  }
  return { thumbnails, errors };
}

/** Gzipped data (ZTF cutouts are gzipped FITS) or a plain FITS header (Rubin's). */
function looksLikeFits(bytes: Uint8Array): boolean {
  if (isGzip(bytes)) return true;
  return Buffer.from(bytes.subarray(0, 6)).toString('latin1') === 'SIMPLE';
}
