import type { LocusRow, Repositories } from '@antares/db';

import type { AlertForFilter, AlertPropertyLoader, LocusForFilter } from './pool/index.ts';

/** An alert of a locus' list as ingestion keeps it (loci/locus-alerts-cache.ts). */
export interface ListedAlert {
  alert_id: string;
  survey: string;
  mjd: number;
}

/**
 * Loci as filters see them (filter-runtime/PROTOCOL.md): every alert, oldest first, the newest as the
 * triggering one, and the catalog objects it matches. One query for all the alerts of the batch, one
 * for the matches. The alerts come without their properties: the pool asks `alertPropertyLoader` for
 * those of the alerts a worker does not hold yet. `listed`: the alerts of some of the loci, exactly as
 * they are now and oldest first (as ingestion keeps them): those are not read again.
 */
export async function locusInputsFor(
  repos: Repositories,
  loci: LocusRow[],
  listed: ReadonlyMap<string, readonly ListedAlert[]> = new Map(),
): Promise<LocusForFilter[]> {
  const ids = loci.map((l) => l.locus_id);
  const alerts = await repos.alerts.listForFiltersByLoci(ids.filter((id) => !listed.has(id)));
  const withList = ids.filter((id) => listed.has(id));
  const gravWaveEvents = await repos.alerts.gravWaveEventsByLoci(withList);
  for (const id of withList)
    for (const a of listed.get(id)!)
      alerts.push({
        alert_id: a.alert_id,
        locus_id: id,
        survey: a.survey,
        mjd: a.mjd,
        grav_wave_events: gravWaveEvents.get(a.alert_id) ?? [],
      });
  const catalogObjects = await catalogObjectsOf(repos, ids);
  const byLocus = new Map<string, typeof alerts>();
  for (const alert of alerts) {
    const list = byLocus.get(alert.locus_id);
    if (list) list.push(alert);
    else byLocus.set(alert.locus_id, [alert]);
  }
  const gwMetadata = await gravWaveMetadataOf(repos, [...new Set(loci.flatMap((l) => l.grav_wave_events))]);
  return loci.map((locus) => {
    const own = byLocus.get(locus.locus_id) ?? [];
    return {
      locus_id: locus.locus_id,
      ra: locus.ra,
      dec: locus.dec,
      properties: { ...locus.properties },
      tags: [...locus.tags],
      alerts: own.map((a) => ({
        alert_id: a.alert_id,
        mjd: a.mjd,
        survey: a.survey,
        grav_wave_events: a.grav_wave_events as unknown as AlertForFilter['grav_wave_events'],
      })),
      grav_wave_events_metadata: Object.fromEntries(
        locus.grav_wave_events.filter((id) => gwMetadata.has(id)).map((id) => [id, gwMetadata.get(id)!]),
      ),
      alert_id: own.at(-1)?.alert_id,
      catalog_objects: catalogObjects.get(locus.locus_id) ?? {},
    };
  });
}

/** Reads the properties of the alerts the pool is about to send in full (as JSON text, never parsed here). */
export function alertPropertyLoader(repos: Repositories): AlertPropertyLoader {
  return async (alerts) => {
    const texts = await repos.alerts.propertyTextByIds(alerts.map((a) => a.alert_id));
    for (const alert of alerts) alert.propertiesJson = texts.get(alert.alert_id) ?? '{}';
  };
}

/** locus.catalog_objects of each locus: {catalog name: [catalog rows]} of its matches, nearest first. */
export async function catalogObjectsOf(
  repos: Repositories,
  locusIds: string[],
): Promise<Map<string, Record<string, Array<Record<string, unknown>>>>> {
  const catalogObjects = new Map<string, Record<string, Array<Record<string, unknown>>>>();
  for (const m of await repos.catalogs.matchesOfLoci(locusIds)) {
    const own = catalogObjects.get(m.locus_id) ?? {};
    (own[m.catalog_name] ??= []).push({ ...m.properties, catalog_object_id: m.object_key, separation_arcsec: m.separation * 3600 });
    catalogObjects.set(m.locus_id, own);
  }
  return catalogObjects;
}

/**
 * locus.grav_wave_events_metadata: the latest notice of each of these events, with the devkit's notice
 * fields (the client's GravWaveNotice.to_devkit(); filters read notice.event_datetime) beside the IGWN
 * notice's own. The sky map stays out: megabytes per locus, for every filter.
 */
export async function gravWaveMetadataOf(repos: Repositories, events: string[]): Promise<Map<string, Record<string, unknown>>> {
  if (events.length === 0) return new Map();
  return new Map(
    (await repos.gravWaves.latestNotices(events)).map((n) => [
      n.gracedb_id,
      {
        ...n.full_notice,
        gracedb_id: n.gracedb_id,
        id: n.notice_id,
        version_id: n.version_id,
        notice_type: n.notice_type,
        notice_datetime: n.notice_datetime.toISOString(),
        event_datetime: n.event_datetime?.toISOString() ?? null,
        false_alarm_rate: n.false_alarm_rate,
        external_coinc: n.external_coinc ?? null,
        area50: n.area50,
        area90: n.area90,
      },
    ]),
  );
}
