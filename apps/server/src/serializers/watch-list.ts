import type { ResourceObject } from '@antares/contract';
import type { WatchListRow, WatchObjectRow } from '@antares/db';

/**
 * A watch list; the detail adds every object of it (unless left out) and the loci it has matched so far.
 * `history_matched_at` is null while the list is being matched against the stored alerts.
 */
export function watchListResource(
  list: WatchListRow,
  detail?: { objects?: WatchObjectRow[]; matchedLoci: number },
  fields?: Set<string>,
): ResourceObject {
  const objects = detail?.objects;
  const attributes: Record<string, unknown> = {
    name: list.name,
    description: list.description,
    slack_channel: list.slack_channel,
    created_at: list.created_at.toISOString(),
    object_count: list.object_count,
    history_matched_at: list.history_matched_at ? list.history_matched_at.toISOString() : null,
    ...(detail ? { matched_loci: detail.matchedLoci } : {}),
    ...(objects
      ? {
          objects: objects.map((o) => ({
            id: String(o.watch_object_id),
            right_ascension: o.ra,
            declination: o.dec,
            radius: o.radius,
            comment: o.comment,
            created_at: o.created_at.toISOString(),
          })),
        }
      : {}),
  };
  return {
    type: 'watch_list',
    id: String(list.watch_list_id),
    // `fields[watch_list]` (sparse fieldsets): only the attributes asked for.
    attributes: fields ? Object.fromEntries(Object.entries(attributes).filter(([key]) => fields.has(key))) : attributes,
    relationships: { owner: { data: { type: 'user', id: String(list.user_id) } } },
  };
}
