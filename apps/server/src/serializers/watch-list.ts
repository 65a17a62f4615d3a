import type { ResourceObject } from '@antares/contract';
import type { WatchListRow, WatchObjectRow } from '@antares/db';

/** A watch list; with `objects` (the detail), every object of it. */
export function watchListResource(list: WatchListRow, objects?: WatchObjectRow[]): ResourceObject {
  return {
    type: 'watch_list',
    id: String(list.watch_list_id),
    attributes: {
      name: list.name,
      description: list.description,
      slack_channel: list.slack_channel,
      created_at: list.created_at.toISOString(),
      object_count: list.object_count,
      ...(objects ? {
        objects: objects.map((o) => ({
          id: String(o.watch_object_id), right_ascension: o.ra, declination: o.dec, radius: o.radius, comment: o.comment,
          created_at: o.created_at.toISOString(),
        })),
      } : {}),
    },
    relationships: { owner: { data: { type: 'user', id: String(list.user_id) } } },
  };
}
