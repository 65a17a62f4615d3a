import { keepPreviousData, queryOptions, useQuery, useSuspenseQuery } from '@tanstack/react-query';
import type { LoaderFunctionArgs } from 'react-router';

import { apiGet, type JsonApiDocument, type JsonApiResource } from '@/lib/api-client';
import { queryClient } from '@/lib/query-client';

/** A gravitational-wave event as `/v1/grav_wave_events` lists it (its latest notice's view). */
export interface GwEvent {
  gracedb_id: string;
  event_datetime: string | null;
  /** The latest notice's type (PRELIMINARY, INITIAL, UPDATE, RETRACTION, ...). */
  notice_type: string;
  notice_datetime: string;
  retracted: boolean;
  /** Hz; null when the notice gave none (retractions). */
  false_alarm_rate: number | null;
  /** Areas of the 50% and 90% credible regions, deg². */
  area50: number | null;
  area90: number | null;
  loci_count: number;
}

export interface GwEventPage {
  events: GwEvent[];
  count: number;
}

type EventAttributes = Partial<GwEvent>;

function toEvent(resource: JsonApiResource<EventAttributes>): GwEvent {
  const a = resource.attributes ?? {};
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
  const document = await apiGet<JsonApiDocument<JsonApiResource<EventAttributes>[]>>(
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
  const document = await apiGet<JsonApiDocument<JsonApiResource<EventAttributes>>>(eventPath(gracedbId), undefined, signal);
  return toEvent(document.data);
}

export const gwEventQuery = (gracedbId: string) =>
  queryOptions({ queryKey: ['gw-event', gracedbId], queryFn: ({ signal }) => getGwEvent(gracedbId, signal), staleTime: 60_000 });

export function useGwEvent(gracedbId: string) {
  return useSuspenseQuery(gwEventQuery(gracedbId));
}

/** A locus inside an event's 90% credible region. */
export interface GwEventLocus {
  locus_id: string;
  ra: number;
  dec: number;
  /** Credible level of the locus' position, percent. */
  contour_level: number;
  /** Area of that credible region, deg². */
  contour_area: number;
  mjd?: number;
}

export interface GwEventLociPage {
  loci: GwEventLocus[];
  count: number;
}

/** The event's loci, by credible level ascending (the server's order). */
export async function getGwEventLoci(gracedbId: string, page: number, perPage: number, signal?: AbortSignal): Promise<GwEventLociPage> {
  const document = await apiGet<JsonApiDocument<JsonApiResource<Partial<GwEventLocus>>[]>>(
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
