import { ExternalIcon } from '@/components/Icons';

interface LinkSpec {
  label: string;
  href: string;
}

/** Outbound links for the position and survey id (opened in a new tab). */
export function externalLinks(ra: number, dec: number, ztfId: string | undefined, gravWaveEvents: string[]): LinkSpec[] {
  const pos = `${ra.toFixed(6)} ${dec.toFixed(6)}`;
  const links: LinkSpec[] = [];
  if (ztfId) links.push({ label: 'ALeRCE', href: `https://alerce.online/object/${encodeURIComponent(ztfId)}` });
  links.push(
    {
      label: 'IPAC',
      href: `https://irsa.ipac.caltech.edu/cgi-bin/ZTF/nph_light_curves?POS=${encodeURIComponent(`CIRCLE ${pos} 0.0003`)}&FORMAT=html`,
    },
    {
      label: 'NED',
      href: `https://ned.ipac.caltech.edu/conesearch?search_type=Near%20Position%20Search&coordinates=${encodeURIComponent(`${ra}d ${dec}d`)}&radius=0.1`,
    },
    { label: 'SIMBAD', href: `https://simbad.cds.unistra.fr/simbad/sim-coo?Coord=${encodeURIComponent(pos)}&Radius=5&Radius.unit=arcsec` },
    { label: 'SNAD', href: `https://ztf.snad.space/search/${encodeURIComponent(pos)}/5` },
    { label: 'TNS', href: `https://www.wis-tns.org/search?ra=${ra}&decl=${dec}&radius=5&coords_unit=arcsec` },
    { label: 'VizieR', href: `https://vizier.cds.unistra.fr/viz-bin/VizieR-4?-c=${encodeURIComponent(pos)}&-c.rs=5` },
  );
  for (const event of gravWaveEvents)
    links.push({ label: `GW map ${event}`, href: `https://gracedb.ligo.org/superevents/${encodeURIComponent(event)}/view/` });
  return links;
}

export function ExternalLinks({ links }: { links: LinkSpec[] }) {
  return (
    <nav aria-label="External resources">
      <h3 className="h6">External links</h3>
      <ul className="list-inline mb-0">
        {links.map((link) => (
          <li key={link.label} className="list-inline-item mb-1">
            <a href={link.href} target="_blank" rel="noreferrer" className="btn btn-sm btn-outline-secondary">
              {link.label} <ExternalIcon size={12} />
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}
