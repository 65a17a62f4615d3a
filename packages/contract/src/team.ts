/** One member of the Team page, as `/config.json` serves it (`team`); the server reads them from ANTARES_TEAM_FILE. */
export interface TeamMember {
  name: string;
  title: string;
  bio?: string;
  link?: string;
  email?: string;
  photo?: string;
  group: 'Internal' | 'External';
}
