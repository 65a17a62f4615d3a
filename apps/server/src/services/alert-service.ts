import type { AlertRow, Repositories, ThumbnailInfo } from '@antares/db';

import { notFound } from '../errors.ts';

/** One alert and the thumbnails of its cutouts. */
export class AlertService {
  constructor(private readonly repos: Repositories) {}

  async get(alertId: string): Promise<AlertRow> {
    const alert = await this.repos.alerts.findById(alertId);
    if (!alert) throw notFound(`No alert with id "${alertId}"`);
    return alert;
  }

  async thumbnailsOf(alertId: string): Promise<ThumbnailInfo[]> {
    const alert = await this.get(alertId);
    return this.repos.thumbnails.listForAlerts([alert.alert_id]);
  }
}
