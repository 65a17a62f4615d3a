import type { getGravWaveEvent, listGravWaveEvents, listGravWaveLoci, ResponseOf } from '@antares/contract/endpoints';
import { keepPreviousData, queryOptions, useQuery, useSuspenseQuery } from '@tanstack/react-query';
import type { LoaderFunctionArgs } from 'react-router';

import { apiGet } from '@/lib/api-client';
import { queryClient } from '@/lib/query-client';

type EventDocument = ResponseOf<typeof getGravWaveEvent>;
/** A gravitational-wave event as `/v1/grav_wave_events` lists it (its latest notice's view). */
export type GwEvent = EventDocument['data']['attributes'];

export interface GwEventPage {
  events: GwEvent[];
  count: number;
}

function toEvent(resource: EventDocument['data']): GwEvent {
  const a: Partial<GwEvent> = resource.attributes ?? {};
  return {
    gracedb_id: a.gracedb_id ?? resource.id,
    event_datetime: a.event_datetime ?? null,
    notice_type: a.notice_type ?? '',
    notice_datetime: a.notice_datetime ?? '',
    retracted: a.retracted === true,
    false_alarm_rate: typeof a.false_alarm_rate === 'number' ? a.false_alarm_rate : null,
    area50: typeof a.area50 === 'number' ? a.area50 : null,
    area90: typeof a.area90 === 'number' ? a.area90 : null,
    loci_count: typeof a.loci_count === 'number' ? a.loci_count : 0,
  };
}

const eventPath = (gracedbId: string) => `/grav_wave_events/${encodeURIComponent(gracedbId)}`;

/** One page of events, newest first (the server's order). */
export async function getGwEvents(page: number, perPage: number, signal?: AbortSignal): Promise<GwEventPage> {
  const document = await apiGet<ResponseOf<typeof listGravWaveEvents>>(
    '/grav_wave_events',
    { 'page[limit]': perPage, 'page[offset]': (page - 1) * perPage },
    signal,
  );
  const events = (document.data ?? []).map(toEvent);
  return { events, count: document.meta?.count ?? events.length };
}

export function useGwEvents(page: number, perPage: number) {
  return useQuery({
    queryKey: ['gw-events', page, perPage],
    queryFn: ({ signal }) => getGwEvents(page, perPage, signal),
    placeholderData: keepPreviousData,
  });
}

export async function getGwEvent(gracedbId: string, signal?: AbortSignal): Promise<GwEvent> {
  const document = await apiGet<EventDocument>(eventPath(gracedbId), undefined, signal);
  return toEvent(document.data);
}

export const gwEventQuery = (gracedbId: string) =>
  queryOptions({ queryKey: ['gw-event', gracedbId], queryFn: ({ signal }) => getGwEvent(gracedbId, signal), staleTime: 60_000 });

export function useGwEvent(gracedbId: string) {
  return useSuspenseQuery(gwEventQuery(gracedbId));
}

type LociDocument = ResponseOf<typeof listGravWaveLoci>;
/** A locus inside an event's 90% credible region (contour_level percent, contour_area deg²). */
export type GwEventLocus = LociDocument['data'][number]['attributes'];

export interface GwEventLociPage {
  loci: GwEventLocus[];
  count: number;
}

/** The event's loci, by credible level ascending (the server's order). */
export async function getGwEventLoci(gracedbId: string, page: number, perPage: number, signal?: AbortSignal): Promise<GwEventLociPage> {
  const document = await apiGet<LociDocument>(
    `${eventPath(gracedbId)}/loci`,
    { 'page[limit]': perPage, 'page[offset]': (page - 1) * perPage },
    signal,
  );
  const loci = (document.data ?? []).map((item) => ({
    locus_id: item.attributes.locus_id ?? item.id,
    ra: Number(item.attributes.ra),
    dec: Number(item.attributes.dec),
    contour_level: Number(item.attributes.contour_level),
    contour_area: Number(item.attributes.contour_area),
    mjd: item.attributes.mjd,
  }));
  return { loci, count: document.meta?.count ?? loci.length };
}

export function useGwEventLoci(gracedbId: string, page: number, perPage: number) {
  return useQuery({
    queryKey: ['gw-event-loci', gracedbId, page, perPage],
    queryFn: ({ signal }) => getGwEventLoci(gracedbId, page, perPage, signal),
    placeholderData: keepPreviousData,
  });
}

/** The event is fetched before the page is entered (a missing one is the route's Not Found); its id is the title. */
export async function gwEventDetailLoader({ params }: LoaderFunctionArgs) {
  const gracedbId = params.gracedbId ?? '';
  const event = await queryClient.ensureQueryData(gwEventQuery(gracedbId));
  return { id: event.gracedb_id };
}
