import type { TeamMember } from '@antares/contract';
/**
 * The team the e2e server is started with (written to `$dataDir/team.json` and named by
 * ANTARES_TEAM_FILE): members with e-mail addresses in both groups, listed out of last-name order,
 * one with a photo of its own and the others with the default one.
 */
export type E2eTeamMember = TeamMember;

export const E2E_TEAM: E2eTeamMember[] = [
  {
    name: 'Zoe Zimmerman',
    title: 'Pipeline Lead',
    bio: 'Keeps the alerts flowing.',
    email: 'zoe.zimmerman@e2e.example.org',
    group: 'Internal',
    link: 'https://example.org/zoe',
  },
  { name: 'Ada M. Abbott', title: 'Data Scientist', bio: 'Writes filters.', email: 'ada.abbott@e2e.example.org', group: 'Internal' },
  { name: 'Bruno Moreau', title: 'Web Developer', email: 'bruno@e2e.example.org', group: 'Internal', photo: '/favicon.svg' },
  { name: 'Ingrid van der Berg', title: 'Astronomer', bio: 'Studies transients.', email: 'ingrid.berg@e2e.example.org', group: 'External' },
  { name: 'Carlos Diaz', title: 'Collaborator', email: 'carlos.diaz@e2e.example.org', group: 'External' },
];
