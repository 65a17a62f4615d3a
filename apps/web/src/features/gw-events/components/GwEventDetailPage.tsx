import { Suspense } from 'react';
import Alert from 'react-bootstrap/Alert';
import { Link, useParams } from 'react-router';

import { ExternalIcon } from '@/components/Icons';
import { type GwEvent, useGwEvent } from '@/features/gw-events/api/gw-events';
import { lociPath, type SearchFilter } from '@/lib/locus-query';
import { isoUtcText } from '@/lib/time';

import { formatArea, formatFar, formatFarPerYear, graceDbUrl } from './gw-format';
import { GwEventLociTable } from './GwEventLociTable';
import { SkyMapSection } from './SkyMapSection';

/** The locus list filtered to this event's loci (an exact match on the event id). */
function eventLociFilter(gracedbId: string): SearchFilter {
  return { type: 'term', field: 'grav_wave_events', value: gracedbId, text: `Gravitational Wave Event: ${gracedbId}` };
}

function EventSummary({ event }: { event: GwEvent }) {
  const rows: [string, string][] = [
    ['Event time (UTC)', isoUtcText(event.event_datetime)],
    ['Latest notice', `${event.notice_type} (${isoUtcText(event.notice_datetime)} UTC)`],
    ['False alarm rate', [formatFar(event.false_alarm_rate), formatFarPerYear(event.false_alarm_rate)].filter(Boolean).join(', ')],
    ['50% credible area', formatArea(event.area50)],
    ['90% credible area', formatArea(event.area90)],
    ['Loci in the 90% area', String(event.loci_count)],
  ];
  return (
    <dl className="row mb-0" data-testid="gw-event-summary">
      {rows.map(([term, value]) => (
        <div key={term} className="col-sm-6 col-lg-4 mb-2">
          <dt className="small text-body-secondary fw-normal">{term}</dt>
          <dd className="mb-0">{value || '—'}</dd>
        </div>
      ))}
    </dl>
  );
}

function GwEventDetail({ gracedbId }: { gracedbId: string }) {
  const { data: event } = useGwEvent(gracedbId);
  return (
    <>
      <nav aria-label="Breadcrumb" className="small mb-2">
        <Link to="/gw-events">Gravitational Wave Events</Link>
      </nav>
      <div className="d-flex flex-wrap align-items-center gap-3 mb-3">
        <h1 className="h3 mb-0 font-monospace">{event.gracedb_id}</h1>
        <a href={graceDbUrl(event.gracedb_id)} target="_blank" rel="noreferrer" className="btn btn-sm btn-outline-secondary">
          GraceDB <ExternalIcon size={12} />
        </a>
      </div>
      {event.retracted && (
        <Alert variant="warning">
          This event was retracted: LIGO, Virgo and KAGRA no longer consider it a gravitational-wave candidate.
        </Alert>
      )}
      <EventSummary event={event} />
      <section className="mt-4" aria-labelledby="gw-sky-map-heading">
        <h2 id="gw-sky-map-heading" className="h5">
          Sky map
        </h2>
        <SkyMapSection gracedbId={event.gracedb_id} />
      </section>
      <section className="mt-4" aria-labelledby="gw-loci-heading">
        <div className="d-flex flex-wrap align-items-center gap-3 mb-2">
          <h2 id="gw-loci-heading" className="h5 mb-0">
            Loci in the 90% credible region
          </h2>
          <Link to={lociPath([eventLociFilter(event.gracedb_id)])} className="btn btn-sm btn-outline-primary">
            View in the locus search
          </Link>
        </div>
        <GwEventLociTable gracedbId={event.gracedb_id} />
      </section>
    </>
  );
}

export function Component() {
  const { gracedbId = '' } = useParams();
  return (
    <Suspense fallback={<p>Loading...</p>}>
      <GwEventDetail key={gracedbId} gracedbId={gracedbId} />
    </Suspense>
  );
}
