import { describe, expect, it } from 'vitest';

import { lastName, parseTeam, teamGroups } from './team-members';

describe('team groups', () => {
  it('sorts each group by last name and keeps an empty group', () => {
    const team = parseTeam([
      { name: 'Zoe Zimmerman', title: 'Lead', group: 'Internal' },
      { name: 'Adam S. Bolton', title: 'Director', group: 'Internal', email: 'adam@example.org' },
      { name: 'Chien-Hsiu Lee', title: 'Astronomer', group: 'Internal' },
    ]);
    const [internal, external] = teamGroups(team);
    expect(internal.title).toBe('Internal');
    expect(internal.members.map((m) => m.name)).toEqual(['Adam S. Bolton', 'Chien-Hsiu Lee', 'Zoe Zimmerman']);
    expect(external).toEqual({ title: 'External', members: [] });
  });

  it('takes the last word as the last name', () => {
    expect(lastName('Ingrid van der Berg')).toBe('Berg');
    expect(lastName(' Cher ')).toBe('Cher');
  });

  it('drops malformed members and empty fields', () => {
    expect(parseTeam({})).toEqual([]);
    expect(parseTeam([null, { name: 'No Group', title: 'X' }, { name: 'Ok', title: 'T', email: '', group: 'External' }])).toEqual([
      { name: 'Ok', title: 'T', group: 'External', bio: undefined, link: undefined, email: undefined, photo: undefined },
    ]);
  });
});
