import { EnvelopeIcon } from '@/components/Icons';
import { LocusCommentLine, LocusFavoriteToggle } from '@/components/LocusAnnotationControls';
import { type Locus, surveyObjectId } from '@/features/locus-detail/api/get-locus';
import { useLocusAnnotation } from '@/lib/annotations';
import { getConfig } from '@/lib/config';

import { galacticText, icrsText } from './coordinates';
import { FinderChartButton } from './FinderChartButton';

/** mailto link: subject 'ANTARES: {survey object id}', body the locus detail URL. */
export function emailHref(surveyId: string, locusId: string): string {
  const url = `${getConfig().frontendURL}/loci/${encodeURIComponent(locusId)}`;
  return `mailto:?subject=${encodeURIComponent(`ANTARES: ${surveyId}`)}&body=${encodeURIComponent(url)}`;
}

/**
 * Survey id, coordinates in both systems and formats, the actions (no download), and the comment
 * line. Annotations (favorite, comment) need a signed-in user; they are disabled otherwise. A
 * favorited locus gets a green border.
 */
export function LocusHeader({ locus }: { locus: Locus }) {
  const { favorited } = useLocusAnnotation(locus.id);
  const surveyId = surveyObjectId(locus);
  const icrs = icrsText(locus.ra, locus.dec);
  const gal = galacticText(locus.ra, locus.dec, locus.galactic);
  return (
    <header
      className={`border rounded p-3 mb-4 bg-body ${favorited ? 'favorited-border' : ''}`}
      data-testid="locus-header"
      data-favorited={favorited}
    >
      <div className="d-flex flex-wrap justify-content-between gap-3">
        <div>
          <h1 className="h3 mb-1" data-testid="survey-object-id">
            {surveyId}
          </h1>
          <p className="mb-1 text-body-secondary">
            ANTARES locus <span className="font-monospace">{locus.id}</span>
          </p>
          <p className="mb-0 font-monospace small" data-testid="coordinates">
            {icrs.sexagesimal}
            <br />
            {icrs.decimal}
            <br />
            {gal.sexagesimal}
            <br />
            {gal.decimal}
          </p>
        </div>
        <div className="d-flex flex-wrap align-items-start gap-2">
          <LocusFavoriteToggle locusId={locus.id} />
          <a className="btn btn-sm btn-outline-secondary" href={emailHref(surveyId, locus.id)} aria-label="Email a link to this locus">
            <EnvelopeIcon /> Email
          </a>
          <div>
            <FinderChartButton locusId={locus.id} />
          </div>
        </div>
      </div>
      <div className="mt-3">
        <LocusCommentLine locusId={locus.id} />
      </div>
    </header>
  );
}
