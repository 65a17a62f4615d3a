import { Link } from 'react-router';

import { EllipsisIcon, EyeIcon } from '@/components/Icons';
import { LocusFavoriteToggle } from '@/components/LocusAnnotationControls';

/**
 * Row actions: an ellipsis at rest, the locus actions on hover or keyboard focus. The list
 * variant has no comment, download or e-mail action (spec).
 */
export function LocusRowActions({ locusId }: { locusId: string }) {
  return (
    <span className="row-actions d-inline-flex align-items-center" style={{ minHeight: 31 }}>
      <span className="row-actions-idle text-body-secondary" aria-hidden="true">
        <EllipsisIcon />
      </span>
      <span className="row-actions-hover gap-1 align-items-center">
        <Link
          to={`/loci/${encodeURIComponent(locusId)}`}
          className="btn btn-sm btn-outline-primary"
          aria-label={`View ${locusId}`}
          title="View locus"
        >
          <EyeIcon />
        </Link>
        <LocusFavoriteToggle locusId={locusId} placement="left" />
      </span>
    </span>
  );
}
