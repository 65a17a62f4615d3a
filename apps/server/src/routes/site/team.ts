import { readFileSync } from 'node:fs';

import type { TeamMember } from '@antares/contract';
import { z } from 'zod';

export type { TeamMember };

const member = z.strictObject({
  name: z.string().trim().min(1),
  title: z.string().trim().min(1),
  bio: z.string().optional(),
  link: z.url({ protocol: /^https?$/ }).optional(),
  email: z.email().optional(),
  /** An absolute http(s) URL or a path on this site; members without one get the default photo. */
  photo: z
    .string()
    .regex(/^(https?:\/\/|\/)\S+$/, 'must be an http(s) URL or a path starting with /')
    .optional(),
  group: z.enum(['Internal', 'External']),
});

/**
 * Reads and checks a team file (ANTARES_TEAM_FILE): a JSON array of members. Any problem stops the
 * start-up with an error naming the file and, for a bad member, its position, name and field.
 */
export function loadTeamFile(file: string): TeamMember[] {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new Error(`Invalid team file ${file} (ANTARES_TEAM_FILE): ${(error as Error).message}`, { cause: error });
  }
  if (!Array.isArray(raw)) throw new Error(`Invalid team file ${file} (ANTARES_TEAM_FILE): expected a JSON array of members`);
  return raw.map((entry, index) => {
    const parsed = member.safeParse(entry);
    if (parsed.success) return parsed.data;
    const name =
      typeof entry === 'object' && entry !== null && typeof (entry as { name?: unknown }).name === 'string'
        ? ` (${JSON.stringify((entry as { name: string }).name)})`
        : '';
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.') || 'member'}: ${issue.message}`).join('; ');
    throw new Error(`Invalid team file ${file} (ANTARES_TEAM_FILE): member ${index + 1}${name}: ${problems}`);
  });
}

/**
 * The team served when no team file is set. Names are the authors of the ANTARES system paper
 * (Matheson et al. 2021, AJ 161, 107); the titles are their institutions. Personal e-mail addresses
 * and photos are deliberately not invented: a deployment lists them in its own team file.
 */
export const DEFAULT_TEAM: TeamMember[] = [
  { name: 'Thomas Matheson', title: 'NSF NOIRLab', link: 'https://noirlab.edu', group: 'Internal' },
  { name: 'Carl Stubens', title: 'NSF NOIRLab', link: 'https://noirlab.edu', group: 'Internal' },
  { name: 'Nicholas Wolf', title: 'NSF NOIRLab', link: 'https://noirlab.edu', group: 'Internal' },
  { name: 'Chien-Hsiu Lee', title: 'NSF NOIRLab', link: 'https://noirlab.edu', group: 'Internal' },
  { name: 'Abhijit Saha', title: 'NSF NOIRLab', link: 'https://noirlab.edu', group: 'Internal' },
  { name: 'Monika Soraisam', title: 'NSF NOIRLab', link: 'https://noirlab.edu', group: 'Internal' },
  { name: 'Adam Scott', title: 'NSF NOIRLab', link: 'https://noirlab.edu', group: 'Internal' },
  { name: 'Adam S. Bolton', title: 'NSF NOIRLab', link: 'https://noirlab.edu', group: 'Internal' },
  { name: 'David R. Silva', title: 'NSF NOIRLab', link: 'https://noirlab.edu', group: 'Internal' },
  { name: 'Gautham Narayan', title: 'University of Illinois Urbana-Champaign', link: 'https://illinois.edu', group: 'External' },
  { name: 'Richard Snodgrass', title: 'The University of Arizona', link: 'https://www.arizona.edu', group: 'External' },
  { name: 'John Kececioglu', title: 'The University of Arizona', link: 'https://www.arizona.edu', group: 'External' },
  { name: 'Carlos Scheidegger', title: 'The University of Arizona', link: 'https://www.arizona.edu', group: 'External' },
];
