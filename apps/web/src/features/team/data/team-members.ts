import type { TeamMember } from '@antares/contract';
/**
 * The Team page's members come from the deployment (`/config.json`'s `team`, read by the server from
 * ANTARES_TEAM_FILE, or its built-in list): these helpers shape them into the page's two groups.
 */
export type { TeamMember };

export interface TeamGroup {
  title: TeamMember['group'];
  members: TeamMember[];
}

export const GROUP_TITLES: TeamMember['group'][] = ['Internal', 'External'];

/** The last word of the name ("Adam S. Bolton" -> "Bolton"): the spec sorts each group by it. */
export function lastName(name: string): string {
  return name.trim().split(/\s+/).at(-1) ?? '';
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

/** Keeps the well-formed members of an untrusted `team` value (anything else is dropped). */
export function parseTeam(value: unknown): TeamMember[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((entry): TeamMember[] => {
    if (typeof entry !== 'object' || entry === null) return [];
    const raw = entry as Record<string, unknown>;
    const name = text(raw.name);
    const group = raw.group === 'Internal' || raw.group === 'External' ? raw.group : undefined;
    if (!name || !group) return [];
    return [
      {
        name,
        group,
        title: text(raw.title) ?? '',
        bio: text(raw.bio),
        link: text(raw.link),
        email: text(raw.email),
        photo: text(raw.photo),
      },
    ];
  });
}

/** Both groups, Internal then External, each sorted by last name (then full name); a group may be empty. */
export function teamGroups(members: TeamMember[]): TeamGroup[] {
  return GROUP_TITLES.map((title) => ({
    title,
    members: members
      .filter((member) => member.group === title)
      .sort((a, b) => lastName(a.name).localeCompare(lastName(b.name)) || a.name.localeCompare(b.name)),
  }));
}
