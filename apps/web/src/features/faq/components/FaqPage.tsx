import Accordion from 'react-bootstrap/Accordion';
import { Link } from 'react-router';

import { getConfig } from '@/lib/config';

/** `environment`: what filters can import, given by the app (one feature never imports another). */
export function FaqPage({ environment }: { environment: React.ReactNode }) {
  const { supportEmail, chatInvitationURL, frontendURL } = getConfig();
  const entries: { q: string; a: React.ReactNode }[] = [
    {
      q: 'What is ANTARES?',
      a: (
        <p>
          ANTARES (Arizona-NOIRLab Temporal Analysis and Response to Events System) is an alert broker: it receives the real-time alert
          streams of time-domain surveys, adds context (catalog matches, history, features), runs filters written by the community to find
          interesting objects, and sends the results on to astronomers and their systems.
        </p>
      ),
    },
    {
      q: 'Can I look up an object by its ID in the URL?',
      a: (
        <p>
          Yes. Open <code>{frontendURL}/loci/lookup/&lt;ID&gt;</code> with a ZTF object ID or an ANTARES locus ID (or part of one), for
          example <Link to="/loci/lookup/ZTF21">/loci/lookup/ZTF21</Link>. It opens the locus list filtered to the matching objects. The
          search box at the top of every page does the same.
        </p>
      ),
    },
    {
      q: 'How do I get started?',
      a: (
        <p>
          <Link to="/loci">Explore</Link> the loci with the search panel (time ranges, cone search, catalogs, tags), open a locus to see its
          lightcurve and cutouts, and use the API Access button for a Python script that runs the same search with the{' '}
          <code>antares-client</code> package. To write filters, register and read the developer kit documentation.
        </p>
      ),
    },
    {
      q: 'How do I cite ANTARES?',
      a: (
        <p>
          Please cite Matheson, T. et al. 2021, "The ANTARES Astronomical Time-domain Event Broker", The Astronomical Journal, 161, 107.
        </p>
      ),
    },
    {
      q: 'How are filters approved?',
      a: (
        <>
          <p>
            Submitted filter versions are reviewed by the ANTARES team before they run in the pipeline. Approval is at the team's
            discretion. To help:
          </p>
          <ul>
            <li>write readable code with comments and meaningful names;</li>
            <li>follow PEP 8;</li>
            <li>test the filter in the ANTARES developer kit on real loci before submitting it;</li>
            <li>describe what the filter looks for and which tags and properties it writes.</li>
          </ul>
        </>
      ),
    },
    {
      q: 'Which Python packages can a filter import?',
      a: (
        <>
          <p>
            The <Link to="/filters/environment">Filter Environment</Link> page lists every module a filter can import on this server; in
            short:
          </p>
          {environment}
        </>
      ),
    },
    {
      q: 'What are tags?',
      a: (
        <p>
          Tags are labels that filters add to loci. Every tag is also an output stream you can subscribe to. See the{' '}
          <Link to="/tags">Tags</Link> page.
        </p>
      ),
    },
    {
      q: 'Are there other alert brokers?',
      a: <p>Yes: ALeRCE, AMPEL, Babamul, Fink, Lasair and Pitt-Google also broker survey alerts. Each locus page links to some of them.</p>,
    },
    {
      q: 'How do I join the chat workspace?',
      a: chatInvitationURL ? (
        <p>
          Use this{' '}
          <a href={chatInvitationURL} target="_blank" rel="noreferrer">
            invitation link
          </a>
          .
        </p>
      ) : (
        <p>Ask us for an invitation by e-mail.</p>
      ),
    },
    {
      q: 'How do I contact the team?',
      a: (
        <p>
          E-mail <a href={`mailto:${supportEmail}`}>{supportEmail}</a> or see the <Link to="/support">Support</Link> page.
        </p>
      ),
    },
  ];
  return (
    <>
      <h1 className="h3 mb-3">Frequently Asked Questions</h1>
      <Accordion alwaysOpen>
        {entries.map((entry, index) => (
          <Accordion.Item key={entry.q} eventKey={String(index)}>
            <Accordion.Header as="h2">{entry.q}</Accordion.Header>
            <Accordion.Body>{entry.a}</Accordion.Body>
          </Accordion.Item>
        ))}
      </Accordion>
    </>
  );
}
