import { useQuery } from '@tanstack/react-query';

import { parseTeam, type TeamMember } from '@/features/team/data/team-members';

/** The deployment's team, from the site's runtime configuration (`/config.json`). */
export async function getTeam(signal?: AbortSignal): Promise<TeamMember[]> {
  const response = await fetch('/config.json', { headers: { Accept: 'application/json' }, signal });
  if (!response.ok) throw new Error(`/config.json answered ${response.status}`);
  const config = (await response.json()) as { team?: unknown };
  return parseTeam(config.team);
}

export function useTeam() {
  return useQuery({ queryKey: ['site-config', 'team'], queryFn: ({ signal }) => getTeam(signal), staleTime: Infinity });
}
