import { lazy, Suspense, useEffect, useMemo, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Spinner from 'react-bootstrap/Spinner';

import { THUMBNAIL_HELP } from '@/components/ThumbnailTriplet';
import type { CutoutType } from '@/features/locus-detail/api/cutout-url';
import { useAlertThumbnails } from '@/features/locus-detail/api/get-thumbnails';
import type { LightcurvePoint } from '@/features/locus-detail/api/lightcurve';
import type { LightcurveSelection } from '@/features/locus-detail/components/lightcurve/lightcurve-chart';
import { firstError } from '@/lib/api-client';
import { mjdText } from '@/lib/time';

import { CutoutTriplet } from './CutoutTriplet';

// The viewer (FITS reading, stretches, colour maps) loads on the first enlargement.
const CutoutViewer = lazy(() => import('./CutoutViewer'));

type LabelFormat = 'UTC' | 'MJD' | 'ID';

/**
 * Only points with a numeric frontend_mag that pass the brush selection have thumbnails to show
 * (a selection made on fluxes or phases names its alerts).
 */
export function galleryAlerts(points: LightcurvePoint[], selection: LightcurveSelection | null): LightcurvePoint[] {
  return points
    .filter((point) => typeof point.frontend_mag === 'number' && Number.isFinite(point.frontend_mag))
    .filter(
      (point) =>
        !selection ||
        (selection.alertIds
          ? selection.alertIds.has(point.alert_id)
          : point.ant_mjd >= selection.x[0] &&
            point.ant_mjd <= selection.x[1] &&
            point.frontend_mag! >= selection.y[0] &&
            point.frontend_mag! <= selection.y[1]),
    )
    .sort((a, b) => a.ant_mjd - b.ant_mjd);
}

function label(point: LightcurvePoint, format: LabelFormat): string {
  if (format === 'MJD') return point.ant_mjd.toFixed(5);
  if (format === 'ID') return point.alert_id;
  return mjdText(point.ant_mjd);
}

export function ThumbnailGallery({
  points,
  selection,
  pickedAlertId,
}: {
  points: LightcurvePoint[];
  selection: LightcurveSelection | null;
  pickedAlertId?: string;
}) {
  const alerts = useMemo(() => galleryAlerts(points, selection), [points, selection]);
  const listKey = alerts.map((alert) => alert.alert_id).join('|');
  const [format, setFormat] = useState<LabelFormat>('UTC');
  const [invert, setInvert] = useState(false);
  const [selectedId, setSelectedId] = useState<string | undefined>(alerts.at(-1)?.alert_id);
  const [enlarged, setEnlarged] = useState<CutoutType | null>(null);

  // The selection defaults to the last alert and resets whenever the list changes.
  useEffect(() => {
    setSelectedId(alerts.at(-1)?.alert_id);
  }, [listKey]); // eslint-disable-line react-hooks/exhaustive-deps
  // A point picked on the lightcurve is shown when it has thumbnails (a measurement in the list).
  useEffect(() => {
    if (pickedAlertId && alerts.some((alert) => alert.alert_id === pickedAlertId)) setSelectedId(pickedAlertId);
  }, [pickedAlertId]); // eslint-disable-line react-hooks/exhaustive-deps
  const pickedWithout = pickedAlertId !== undefined && !alerts.some((alert) => alert.alert_id === pickedAlertId);

  const index = alerts.findIndex((alert) => alert.alert_id === selectedId);
  const thumbnails = useAlertThumbnails(selectedId);

  if (alerts.length === 0) {
    return (
      <p className="text-body-secondary mb-0">
        {selection ? 'No alerts with a magnitude in the current selection.' : 'This locus has no alerts with thumbnails.'}
      </p>
    );
  }

  return (
    <div>
      {pickedWithout && (
        <p className="small text-body-secondary" data-testid="gallery-picked-none">
          The alert picked on the lightcurve, {pickedAlertId}, has no magnitude, so no thumbnails to show here.
        </p>
      )}
      <div className="d-flex flex-wrap gap-3 align-items-center mb-2">
        <fieldset className="d-flex gap-2 align-items-center">
          <legend className="small fw-semibold mb-0 me-1 fs-6 float-none w-auto">Show alerts as</legend>
          {(['UTC', 'MJD', 'ID'] as const).map((option) => (
            <Form.Check
              key={option}
              inline
              type="radio"
              id={`thumb-format-${option}`}
              name="thumb-format"
              label={option}
              checked={format === option}
              onChange={() => setFormat(option)}
            />
          ))}
        </fieldset>
        <Form.Check type="switch" id="thumb-invert" label="Invert" checked={invert} onChange={(event) => setInvert(event.target.checked)} />
      </div>
      <div className="d-flex gap-2 align-items-center mb-3" style={{ maxWidth: 620 }}>
        <Button
          size="sm"
          variant="outline-secondary"
          disabled={index <= 0}
          onClick={() => setSelectedId(alerts[index - 1]?.alert_id)}
          aria-label="Previous alert"
          className="text-nowrap"
        >
          <span aria-hidden="true">‹ </span>Previous
        </Button>
        <Form.Select
          size="sm"
          aria-label="Alert"
          value={selectedId}
          onChange={(event) => setSelectedId(event.target.value)}
          data-testid="thumbnail-alert-select"
        >
          {alerts.map((alert) => (
            <option key={alert.alert_id} value={alert.alert_id}>
              {label(alert, format)} ({alert.ant_passband})
            </option>
          ))}
        </Form.Select>
        <Button
          size="sm"
          variant="outline-secondary"
          disabled={index === -1 || index >= alerts.length - 1}
          onClick={() => setSelectedId(alerts[index + 1]?.alert_id)}
          aria-label="Next alert"
          className="text-nowrap"
        >
          Next<span aria-hidden="true"> ›</span>
        </Button>
      </div>
      <div style={{ maxWidth: 620 }} data-testid="thumbnail-gallery">
        {thumbnails.isPending ? (
          <Spinner animation="border" size="sm" role="status" aria-label="Loading thumbnails" />
        ) : thumbnails.isError ? (
          <Alert variant="warning" className="mb-0">
            Thumbnails could not be loaded: {firstError(thumbnails.error).detail}
          </Alert>
        ) : thumbnails.data.length === 0 ? (
          <p className="text-body-secondary mb-0">No thumbnails are stored for this alert.</p>
        ) : (
          <CutoutTriplet alertId={selectedId ?? ''} images={thumbnails.data} size={200} gap={10} invert={invert} onEnlarge={setEnlarged} />
        )}
      </div>
      <p className="small text-body-secondary mt-2 mb-0">
        {THUMBNAIL_HELP} Click a thumbnail to enlarge it and choose its stretch and colour map from the original FITS pixels.
      </p>
      {enlarged && selectedId && (
        <Suspense fallback={null}>
          <CutoutViewer alertId={selectedId} initialType={enlarged} invert={invert} onClose={() => setEnlarged(null)} />
        </Suspense>
      )}
    </div>
  );
}
