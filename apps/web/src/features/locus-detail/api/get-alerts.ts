import type { getAlert as getAlertEndpoint, listLocusAlerts, ResponseOf } from '@antares/contract/endpoints';
import { useQuery } from '@tanstack/react-query';

import { apiGet } from '@/lib/api-client';

type AlertAttributes = ResponseOf<typeof getAlertEndpoint>['data']['attributes'];
type AlertList = ResponseOf<typeof listLocusAlerts>;

/** A gravitational-wave event whose credible region held the alert. */
export type GravWaveMatch = AlertAttributes['grav_wave_events'][number];

/** What the locus page reads of an alert. */
export type LocusAlert = Pick<AlertAttributes, 'mjd' | 'properties' | 'grav_wave_events'> & { id: string };

/** All alerts of a locus (only mjd, properties and grav_wave_events are needed), following links.next. */
export async function getLocusAlerts(locusId: string, signal?: AbortSignal): Promise<LocusAlert[]> {
  const alerts: LocusAlert[] = [];
  let next: string | undefined = `/loci/${encodeURIComponent(locusId)}/alerts`;
  let params: Record<string, string | number> | undefined = { 'fields[alert]': 'mjd,properties,grav_wave_events', 'page[limit]': 1000 };
  // Bounded: a locus with more than 100 pages of alerts is not expected; stop rather than loop forever.
  for (let page = 0; next && page < 100; page += 1) {
    const document: AlertList = await apiGet(next, params, signal);
    for (const item of document.data ?? []) {
      alerts.push({
        id: item.id,
        mjd: item.attributes.mjd,
        properties: item.attributes.properties ?? {},
        grav_wave_events: item.attributes.grav_wave_events ?? [],
      });
    }
    next = document.links?.next;
    params = undefined;
  }
  return alerts;
}

export function useLocusAlerts(locusId: string) {
  return useQuery({ queryKey: ['locus-alerts', locusId], queryFn: ({ signal }) => getLocusAlerts(locusId, signal), staleTime: 60_000 });
}

/** One alert with all its properties (the expanded row of the alert table). */
export async function getAlert(alertId: string, signal?: AbortSignal): Promise<LocusAlert> {
  const document = await apiGet<ResponseOf<typeof getAlertEndpoint>>(`/alerts/${encodeURIComponent(alertId)}`, undefined, signal);
  const { id, attributes } = document.data;
  return { id, mjd: attributes.mjd, properties: attributes.properties ?? {}, grav_wave_events: attributes.grav_wave_events ?? [] };
}

export function useAlert(alertId: string) {
  return useQuery({ queryKey: ['alert', alertId], queryFn: ({ signal }) => getAlert(alertId, signal), staleTime: Infinity });
}
