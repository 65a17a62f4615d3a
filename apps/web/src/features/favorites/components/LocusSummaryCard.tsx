import Badge from 'react-bootstrap/Badge';
import Card from 'react-bootstrap/Card';
import { Link } from 'react-router';

import { EyeIcon } from '@/components/Icons';
import { LocusCommentLine, LocusFavoriteToggle } from '@/components/LocusAnnotationControls';
import { ThumbnailTriplet } from '@/components/ThumbnailTriplet';
import type { FavoriteLocus } from '@/features/favorites/api/get-favorite-loci';
import { useLocusAnnotation } from '@/lib/annotations';
import { mjdText } from '@/lib/time';

/**
 * A locus summary: identifiers, coordinates, first and newest alert times, thumbnails, the comment
 * line and the locus actions; a green border while the locus is favorited.
 */
export function LocusSummaryCard({ locus }: { locus: FavoriteLocus }) {
  const { favorited } = useLocusAnnotation(locus.id);
  const surveyId = locus.properties.ztf_object_id;
  const headingId = `favorite-${locus.id}`;
  return (
    <Card
      as="article"
      className={favorited ? 'favorited-border' : undefined}
      data-testid="favorite-locus"
      data-favorited={favorited}
      aria-labelledby={headingId}
    >
      <Card.Body>
        <div className="d-flex flex-wrap gap-3 justify-content-between">
          <div>
            <h2 className="h5 mb-1" id={headingId}>
              <Link to={`/loci/${encodeURIComponent(locus.id)}`}>{surveyId ?? locus.id}</Link>
            </h2>
            {surveyId && <p className="mb-1 small text-body-secondary font-monospace">{locus.id}</p>}
            <dl className="row small mb-0 g-0">
              <dt className="col-auto me-2 text-body-secondary fw-normal">RA, Dec</dt>
              <dd className="col-auto me-4 mb-0 font-monospace">
                {locus.ra.toFixed(4)}, {locus.dec.toFixed(4)}
              </dd>
              <dt className="col-auto me-2 text-body-secondary fw-normal">First Alert</dt>
              <dd className="col-auto me-4 mb-0">{mjdText(locus.properties.oldest_alert_observation_time) || 'N/A'}</dd>
              <dt className="col-auto me-2 text-body-secondary fw-normal">Latest Alert</dt>
              <dd className="col-auto mb-0">{mjdText(locus.properties.newest_alert_observation_time) || 'N/A'}</dd>
            </dl>
            {locus.tags.length > 0 && (
              <div className="mt-1">
                {locus.tags.map((tag) => (
                  <Badge key={tag} bg="info" text="dark" className="me-1">
                    {tag}
                  </Badge>
                ))}
              </div>
            )}
          </div>
          <div className="d-flex align-items-start gap-3">
            {locus.thumbnails.length > 0 && <ThumbnailTriplet images={locus.thumbnails} size={50} label={locus.id} />}
            <div className="d-flex gap-1">
              <Link
                to={`/loci/${encodeURIComponent(locus.id)}`}
                className="btn btn-sm btn-outline-primary"
                aria-label={`View ${locus.id}`}
                title="View locus"
              >
                <EyeIcon />
              </Link>
              <LocusFavoriteToggle locusId={locus.id} />
            </div>
          </div>
        </div>
        <div className="mt-3">
          <LocusCommentLine locusId={locus.id} />
        </div>
      </Card.Body>
    </Card>
  );
}

export function LocusSummarySkeleton() {
  return (
    <Card aria-hidden="true" data-testid="skeleton-row">
      <Card.Body>
        <span className="skeleton mb-2" style={{ width: '30%' }} />
        <span className="skeleton mb-2" style={{ width: '60%' }} />
        <span className="skeleton" style={{ width: '100%' }} />
      </Card.Body>
    </Card>
  );
}
