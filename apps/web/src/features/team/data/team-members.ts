export interface TeamMember {
  name: string;
  /** Used for sorting: the spec sorts each group by last name. */
  lastName: string;
  title: string;
  bio?: string;
  link?: string;
  email?: string;
  photo?: string;
}

export interface TeamGroup {
  title: 'Internal' | 'External';
  members: TeamMember[];
}

/**
 * Team listing. Names are the authors of the ANTARES system paper (Matheson et al. 2021, AJ 161,
 * 107); the roles are their institutions. Personal e-mail addresses and photos are deliberately not
 * invented: members without a photo get the default one, and the page shows e-mail links only
 * where an address is listed here.
 */
export const TEAM: TeamGroup[] = [
  {
    title: 'Internal',
    members: [
      { name: 'Thomas Matheson', lastName: 'Matheson', title: 'NSF NOIRLab', link: 'https://noirlab.edu' },
      { name: 'Carl Stubens', lastName: 'Stubens', title: 'NSF NOIRLab', link: 'https://noirlab.edu' },
      { name: 'Nicholas Wolf', lastName: 'Wolf', title: 'NSF NOIRLab', link: 'https://noirlab.edu' },
      { name: 'Chien-Hsiu Lee', lastName: 'Lee', title: 'NSF NOIRLab', link: 'https://noirlab.edu' },
      { name: 'Abhijit Saha', lastName: 'Saha', title: 'NSF NOIRLab', link: 'https://noirlab.edu' },
      { name: 'Monika Soraisam', lastName: 'Soraisam', title: 'NSF NOIRLab', link: 'https://noirlab.edu' },
      { name: 'Adam Scott', lastName: 'Scott', title: 'NSF NOIRLab', link: 'https://noirlab.edu' },
      { name: 'Adam S. Bolton', lastName: 'Bolton', title: 'NSF NOIRLab', link: 'https://noirlab.edu' },
      { name: 'David R. Silva', lastName: 'Silva', title: 'NSF NOIRLab', link: 'https://noirlab.edu' },
    ],
  },
  {
    title: 'External',
    members: [
      { name: 'Gautham Narayan', lastName: 'Narayan', title: 'University of Illinois Urbana-Champaign', link: 'https://illinois.edu' },
      { name: 'Richard Snodgrass', lastName: 'Snodgrass', title: 'The University of Arizona', link: 'https://www.arizona.edu' },
      { name: 'John Kececioglu', lastName: 'Kececioglu', title: 'The University of Arizona', link: 'https://www.arizona.edu' },
      { name: 'Carlos Scheidegger', lastName: 'Scheidegger', title: 'The University of Arizona', link: 'https://www.arizona.edu' },
    ],
  },
];
