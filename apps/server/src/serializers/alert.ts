import type { ResourceObject } from '@antares/contract';
import type { AlertRow } from '@antares/db';

export function alertResource(base: string, alert: AlertRow): ResourceObject {
  const self = `${base}/v1/alerts/${encodeURIComponent(alert.alert_id)}`;
  return {
    type: 'alert',
    id: alert.alert_id,
    attributes: {
      survey: alert.survey,
      mjd: alert.mjd,
      processed_at: alert.processed_at.toISOString(),
      properties: alert.properties,
      grav_wave_events: alert.grav_wave_events,
    },
    relationships: {
      thumbnails: { links: { related: `${self}/thumbnails` } },
      locus: { links: { related: `${base}/v1/loci/${alert.locus_id}` }, data: { type: 'locus', id: alert.locus_id } },
    },
    links: { self },
  };
}
