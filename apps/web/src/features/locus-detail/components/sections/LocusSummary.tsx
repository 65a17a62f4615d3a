import Badge from 'react-bootstrap/Badge';
import { Link } from 'react-router';

import { diaObjectIds, type Locus } from '@/features/locus-detail/api/get-locus';
import { lociPath, tagFilter } from '@/lib/locus-query';
import { mjdText } from '@/lib/time';

/** The locus information card: identifiers, counts, first/last alert times, tags and catalogs. */
export function LocusSummary({ locus }: { locus: Locus }) {
  const p = locus.properties;
  const rows: [string, React.ReactNode][] = [
    ['ANTARES ID', <span className="font-monospace">{locus.id}</span>],
    ['ZTF Object ID', p.ztf_object_id ?? 'N/A'],
    ['RA, Dec (deg)', `${locus.ra.toFixed(4)}, ${locus.dec.toFixed(4)}`],
    ['# Alerts', p.num_alerts ?? 'N/A'],
    ['# Measurements', p.num_mag_values ?? 'N/A'],
    ['First Alert (UTC)', mjdText(p.oldest_alert_observation_time) || 'N/A'],
    ['Latest Alert (UTC)', mjdText(p.newest_alert_observation_time) || 'N/A'],
    [
      'Tags',
      locus.tags.length ? (
        locus.tags.map((tag) => (
          <Link key={tag} to={lociPath([tagFilter(tag)])} className="me-1">
            <Badge bg="info" text="dark">
              {tag}
            </Badge>
          </Link>
        ))
      ) : (
        <span className="text-body-secondary">None</span>
      ),
    ],
    [
      'Catalogs',
      locus.catalogs.length ? (
        locus.catalogs.map((catalog) => (
          <Badge key={catalog} bg="secondary" className="me-1">
            {catalog}
          </Badge>
        ))
      ) : (
        <span className="text-body-secondary">None</span>
      ),
    ],
  ];
  // Rubin loci: their diaObjectIds (shown only when present, so ZTF-only loci look as before).
  const rubinIds = diaObjectIds(p);
  if (rubinIds.length) rows.splice(2, 0, ['Rubin diaObject ID', <span className="font-monospace">{rubinIds.join(', ')}</span>]);
  if (locus.grav_wave_events?.length) rows.push(['GW events', locus.grav_wave_events.join(', ')]);
  return (
    <section aria-labelledby="locus-info-heading" className="mb-3">
      <h2 id="locus-info-heading" className="h5">
        Locus Information
      </h2>
      <dl className="small mb-0">
        {rows.map(([label, value]) => (
          <div key={label} className="row">
            <dt className="col-5 text-body-secondary fw-normal">{label}</dt>
            <dd className="col-7 mb-1">{value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
