import type { Repositories } from '@antares/db';

import { createProgress } from '../progress.ts';

export interface MoveToPacksOptions {
  /** Cutouts per pack and per transaction. */
  batch: number;
  /** VACUUM FULL afterwards, giving the freed space back to the disk. */
  vacuum: boolean;
}

/**
 * `antares cutouts move-to-packs`: the cutouts stored in the database before ANTARES_CUTOUT_DIR was set
 * go to packs in that folder (ADR 0051), a batch per transaction, so that the command can be stopped
 * and run again at any point: each batch's pack is flushed to disk before its rows point into it.
 */
export async function runCutoutsMoveToPacks(repos: Repositories, options: MoveToPacksOptions): Promise<void> {
  if (!repos.cutoutPacks) {
    throw Object.assign(new Error('set ANTARES_CUTOUT_DIR'), {
      detail: 'ANTARES_CUTOUT_DIR is not set: name the folder the cutouts are to move to (ADR 0051)',
    });
  }
  const total = await repos.thumbnails.countInDatabase();
  if (total === 0) {
    console.log(`no cutout is stored in the database: nothing to move to ${repos.cutoutPacks.dir}`);
    return;
  }
  const progress = createProgress('cutouts moved', total, 'cutouts');
  let moved = 0;
  let bytes = 0;
  let after = '';
  for (;;) {
    const step = await repos.transaction((tx) => tx.thumbnails.moveToPack(options.batch, after));
    if (step.moved === 0) break;
    moved += step.moved;
    bytes += step.bytes;
    after = step.last!;
    progress.update(moved, `${(bytes / 1e6).toFixed(0)} MB`);
  }
  progress.stop();
  console.log(`moved ${moved} cutouts (${(bytes / 1e6).toFixed(1)} MB) to packs under ${repos.cutoutPacks.dir}`);
  // Rows locked by another process (a thumbnail being rendered) were passed over.
  const left = await repos.thumbnails.countInDatabase();
  if (left > 0) console.log(`${left} cutouts were in use and stay in the database: run the command again to move them`);
  if (options.vacuum) {
    console.log('VACUUM FULL alert_thumbnail (the table is locked while it runs) ...');
    await repos.thumbnails.vacuumFull();
    console.log('the freed space is back on the disk');
  } else {
    console.log('New rows reuse the freed space; --vacuum (VACUUM FULL, which locks the table while it runs) gives it back to the disk.');
  }
}
