import type { Repositories } from '@antares/db';
import { renderCutoutPng } from '@antares/pipeline';

import { notFound, unprocessable } from '../errors.ts';
import { unavailableAsNotFound } from './cutout-service.ts';

/** Thumbnail images: rendered from the stored cutout on first request, then kept (ADR 0003). */
export class ThumbnailService {
  constructor(private readonly repos: Repositories) {}

  async png(filename: string): Promise<Buffer> {
    const image = await this.repos.thumbnails.findImage(filename).catch(unavailableAsNotFound(`The cutout of ${filename}`));
    if (!image) throw notFound(`No thumbnail named "${filename}"`);
    if (image.png) return Buffer.from(image.png);
    let png: Buffer;
    try {
      png = renderCutoutPng(image.cutout);
    } catch (error) {
      throw unprocessable('Unprocessable Cutout', `The cutout of ${filename} cannot be rendered: ${(error as Error).message}`);
    }
    await this.repos.thumbnails.savePng(filename, png);
    return png;
  }
}
