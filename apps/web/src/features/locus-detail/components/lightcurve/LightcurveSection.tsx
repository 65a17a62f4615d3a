import { lazy, Suspense, useEffect, useId, useMemo, useRef, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import ButtonGroup from 'react-bootstrap/ButtonGroup';
import Form from 'react-bootstrap/Form';

import type { LocusAlert } from '@/features/locus-detail/api/get-alerts';
import type { LightcurvePoint } from '@/features/locus-detail/api/lightcurve';
import { saveBlob, toCsv } from '@/lib/download';

import { type Domains, LightcurveChart, type LightcurveSelection, ZOOM_FACTOR } from './lightcurve-chart';
import { type LegendItem, legendModel } from './lightcurve-legend';
import {
  buildMarks,
  fullDomains,
  type LegendSelection,
  type Mark,
  MARK_KINDS,
  matchesSelection,
  PHASE_DOMAIN,
  type Quantity,
  rcidColor,
} from './lightcurve-marks';
import {
  buildFluxMarks,
  detectionsByBand,
  foldMarks,
  informativeMarks,
  LIMIT_RULE,
  MIN_PERIODOGRAM_DETECTIONS,
  plottedRows,
} from './lightcurve-views';
import { passbandColor, sortAlertTypes, sortPassbands } from './survey-codes';

// The periodogram (and its maths) loads only for loci that have one; the tooltip on the first
// hover and the PDF export on first use: none is needed to draw the lightcurve.
const PeriodogramPanel = lazy(() => import('./PeriodogramPanel'));
const LightcurveTooltip = lazy(() => import('./LightcurveTooltip'));

const BRUSH_DEBOUNCE_MS = 100;

export interface LightcurveSectionProps {
  locusId: string;
  points: LightcurvePoint[];
  rcidByAlert: Map<string, number>;
  /** The locus' alerts with their properties (fluxes come from them); undefined while loading. */
  alerts: LocusAlert[] | undefined;
  /** Debounced brush selection, or null. */
  onSelectionChange: (selection: LightcurveSelection | null) => void;
  /** The alert picked by clicking a point (shown in the thumbnails and the alert table). */
  pickedAlertId?: string;
  onPick: (alertId: string | undefined) => void;
}

export function LightcurveSection({
  locusId,
  points,
  rcidByAlert,
  alerts,
  onSelectionChange,
  pickedAlertId,
  onPick,
}: LightcurveSectionProps) {
  const svgRef = useRef<SVGSVGElement>(null);
  const boxRef = useRef<HTMLDivElement>(null);
  const chartRef = useRef<LightcurveChart | null>(null);
  const clipId = `lc-clip-${useId().replace(/:/g, '')}`;
  const [colorMode, setColorMode] = useState<'passband' | 'rcid'>('passband');
  const [legendSelection, setLegendSelection] = useState<LegendSelection>({});
  const [timeAxis, setTimeAxis] = useState<'mjd' | 'calendar'>('mjd');
  const [quantity, setQuantity] = useState<Quantity>('magnitude');
  const [folded, setFolded] = useState(false);
  const [period, setPeriod] = useState<number | undefined>(undefined);
  const [allLimits, setAllLimits] = useState(false);
  const [brushed, setBrushed] = useState<Domains | null>(null);
  const [hover, setHover] = useState<{ mark: Mark; at: [number, number] } | null>(null);
  const [exporting, setExporting] = useState(false);
  const [exportError, setExportError] = useState<string | null>(null);

  const propertiesById = useMemo(() => new Map((alerts ?? []).map((alert) => [alert.id, alert.properties])), [alerts]);
  const baseMarks = useMemo(
    () =>
      quantity === 'magnitude' ? buildMarks(points, rcidByAlert) : buildFluxMarks(points, (id) => propertiesById.get(id), rcidByAlert),
    [quantity, points, rcidByAlert, propertiesById],
  );
  const shownMarks = useMemo(() => (allLimits ? baseMarks : informativeMarks(baseMarks, quantity)), [allLimits, baseMarks, quantity]);
  const phaseView = folded && period !== undefined;
  const marks = useMemo(() => (phaseView ? foldMarks(shownMarks, period!) : shownMarks), [phaseView, shownMarks, period]);
  const full = useMemo<Domains>(() => {
    const domains = fullDomains(marks, quantity);
    return phaseView ? { x: PHASE_DOMAIN, y: domains.y } : domains;
  }, [marks, quantity, phaseView]);
  const bands = useMemo(() => detectionsByBand(points), [points]);
  const periodic = useMemo(() => [...bands.values()].some((band) => band.t.length >= MIN_PERIODOGRAM_DETECTIONS), [bands]);
  const passbands = useMemo(() => sortPassbands(marks.map((mark) => mark.passband)), [marks]);
  const alertTypes = useMemo(
    () => sortAlertTypes(marks.flatMap((mark) => (mark.alertType === undefined ? [] : [mark.alertType]))),
    [marks],
  );
  const rcids = useMemo(
    () => [...new Set(marks.flatMap((mark) => (mark.rcid === undefined ? [] : [mark.rcid])))].sort((a, b) => a - b),
    [marks],
  );
  const kinds = useMemo(() => MARK_KINDS.filter((kind) => marks.some((mark) => mark.kind === kind)), [marks]);
  const visible = useMemo(() => marks.filter((mark) => matchesSelection(mark, legendSelection)), [marks, legendSelection]);
  // Colour by rcid is offered only when more than one rcid exists.
  const mode = colorMode === 'rcid' && rcids.length > 1 ? 'rcid' : 'passband';
  const defaultView = quantity === 'magnitude' && !phaseView;

  // Debounce brush updates before they reach the thumbnails and the alert table. Outside the
  // magnitude-against-time view the selection names its alerts (the others filter on MJD and magnitude).
  const onSelectionRef = useRef(onSelectionChange);
  onSelectionRef.current = onSelectionChange;
  useEffect(() => {
    const selection: LightcurveSelection | null =
      brushed && !defaultView
        ? {
            ...brushed,
            alertIds: new Set(
              visible
                .filter(
                  (m) => m.y !== undefined && m.x >= brushed.x[0] && m.x <= brushed.x[1] && m.y >= brushed.y[0] && m.y <= brushed.y[1],
                )
                .map((m) => m.alertId),
            ),
          }
        : brushed;
    const timer = window.setTimeout(() => onSelectionRef.current(selection), BRUSH_DEBOUNCE_MS);
    return () => window.clearTimeout(timer);
  }, [brushed, defaultView, visible]);

  useEffect(() => {
    if (!svgRef.current) return;
    const chart = new LightcurveChart(
      svgRef.current,
      {
        onBrush: setBrushed,
        onHover: (mark, at) => setHover(mark ? { mark, at } : null),
        onPick: (mark) => onPickRef.current(mark.alertId),
      },
      clipId,
    );
    chartRef.current = chart;
    const box = boxRef.current;
    const observer = new ResizeObserver(() => box && chart.resize(box.clientWidth));
    if (box) observer.observe(box);
    return () => {
      observer.disconnect();
      chartRef.current = null;
    };
  }, [clipId]);
  const onPickRef = useRef(onPick);
  onPickRef.current = onPick;

  // A new quantity or view turns the value axis over or changes the abscissa: the brush goes.
  const viewKey = `${quantity}|${phaseView}`;
  const lastView = useRef(viewKey);
  useEffect(() => {
    const chart = chartRef.current;
    if (!chart) return;
    if (lastView.current !== viewKey) {
      lastView.current = viewKey;
      chart.setQuantity(quantity, full);
      chart.clearSelection();
    } else chart.setDomains(full);
  }, [full, quantity, viewKey]);

  useEffect(() => {
    const chart = chartRef.current;
    if (!chart) return;
    const color = (mark: Mark) => (mode === 'rcid' ? rcidColor(mark.rcid, rcids) : passbandColor(mark.passband));
    const toggle = (item: LegendItem) => {
      if (item.category === 'axis') {
        setTimeAxis((axis) => (axis === 'mjd' ? 'calendar' : 'mjd'));
        return;
      }
      // Selecting the same item again clears that category's selection.
      setLegendSelection((current) => {
        const key = item.category as 'passband' | 'alertType' | 'kind' | 'rcid';
        const value = key === 'rcid' ? Number(item.value) : item.value;
        return { ...current, [key]: current[key] === value ? undefined : value };
      });
    };
    const legend = legendModel({
      passbands,
      alertTypes,
      kinds,
      rcids,
      mode,
      selection: legendSelection,
      timeAxis: phaseView ? null : timeAxis,
      quantity,
      onClick: toggle,
    });
    chart.update({ marks: visible, color, xMode: phaseView ? 'phase' : timeAxis, quantity, legend, picked: pickedAlertId });
  }, [visible, mode, rcids, passbands, alertTypes, kinds, legendSelection, timeAxis, phaseView, quantity, pickedAlertId]);

  // The keyboard's way to hover and click points: with the plot focused, the arrows step through the
  // drawn points in time (or phase) order, Enter or Space picks the one shown, Escape lets go.
  const stepOrder = useMemo(() => [...visible].sort((a, b) => a.x - b.x || a.key.localeCompare(b.key)), [visible]);
  const [keyIndex, setKeyIndex] = useState(-1);
  const onPlotKey = (event: React.KeyboardEvent<SVGSVGElement>) => {
    const chart = chartRef.current;
    // Keys on the legend's own buttons (inside the SVG) are theirs.
    if (!chart || stepOrder.length === 0 || event.target !== event.currentTarget) return;
    const steps: Record<string, number> = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 };
    if (event.key in steps || event.key === 'Home' || event.key === 'End') {
      event.preventDefault();
      const next =
        event.key === 'Home'
          ? 0
          : event.key === 'End'
            ? stepOrder.length - 1
            : Math.min(
                stepOrder.length - 1,
                Math.max(0, (keyIndex < 0 && steps[event.key] < 0 ? stepOrder.length : keyIndex) + steps[event.key]),
              );
      setKeyIndex(next);
      setHover({ mark: stepOrder[next], at: chart.pixelOf(stepOrder[next]) });
    } else if ((event.key === 'Enter' || event.key === ' ') && hover) {
      event.preventDefault();
      onPick(hover.mark.alertId);
    } else if (event.key === 'Escape') {
      setKeyIndex(-1);
      setHover(null);
    }
  };

  const fileBase = `antares-lightcurve-${locusId}${quantity === 'flux' ? '-flux' : ''}${phaseView ? `-folded-${period!.toPrecision(7)}d` : ''}`;
  const exportPdf = async () => {
    if (!svgRef.current) return;
    setExporting(true);
    setExportError(null);
    try {
      const { exportSvgToPdf } = await import('./export-pdf');
      await exportSvgToPdf(svgRef.current, `${fileBase}.pdf`);
    } catch (error) {
      setExportError(error instanceof Error ? error.message : String(error));
    } finally {
      setExporting(false);
    }
  };
  const exportCsv = () =>
    saveBlob(new Blob([toCsv(plottedRows(visible, quantity, phaseView ? period : undefined))], { type: 'text/csv' }), `${fileBase}.csv`);

  return (
    <div>
      <div className="d-flex flex-wrap gap-2 mb-2 align-items-center">
        <ButtonGroup size="sm" aria-label="Lightcurve selection and zoom">
          <Button variant="outline-secondary" onClick={() => chartRef.current?.clearSelection()} disabled={!brushed}>
            Clear Selection
          </Button>
          <Button variant="outline-secondary" onClick={() => brushed && chartRef.current?.zoomTo(brushed)} disabled={!brushed}>
            Zoom to Selection
          </Button>
          <Button variant="outline-secondary" onClick={() => chartRef.current?.zoomTo(full)}>
            Clear Zoom
          </Button>
          <Button variant="outline-secondary" onClick={() => chartRef.current?.zoomBy(ZOOM_FACTOR)}>
            Zoom In
          </Button>
          <Button variant="outline-secondary" onClick={() => chartRef.current?.zoomBy(1 / ZOOM_FACTOR)}>
            Zoom Out
          </Button>
        </ButtonGroup>
        <Button size="sm" variant="outline-primary" onClick={() => void exportPdf()} disabled={exporting}>
          {exporting ? 'Exporting...' : 'Export to PDF'}
        </Button>
        <Button size="sm" variant="outline-primary" onClick={exportCsv}>
          Export to CSV
        </Button>
        {rcids.length > 1 && (
          <Form.Select
            size="sm"
            style={{ width: 'auto' }}
            aria-label="Colour points by"
            value={mode}
            onChange={(event) => setColorMode(event.target.value as 'passband' | 'rcid')}
          >
            <option value="passband">Colour by passband</option>
            <option value="rcid">Colour by rcid</option>
          </Form.Select>
        )}
      </div>
      <div className="d-flex flex-wrap gap-3 mb-2 align-items-center">
        <ButtonGroup size="sm" aria-label="Plotted quantity">
          {(['magnitude', 'flux'] as const).map((value) => (
            <Button
              key={value}
              variant="outline-secondary"
              active={quantity === value}
              aria-pressed={quantity === value}
              disabled={value === 'flux' && !alerts}
              onClick={() => setQuantity(value)}
            >
              {value === 'magnitude' ? 'Magnitude' : alerts ? 'Difference flux (nJy)' : 'Difference flux (loading alerts...)'}
            </Button>
          ))}
        </ButtonGroup>
        {period !== undefined && (
          <ButtonGroup size="sm" aria-label="Abscissa">
            <Button variant="outline-secondary" active={!folded} aria-pressed={!folded} onClick={() => setFolded(false)}>
              Time
            </Button>
            <Button variant="outline-secondary" active={folded} aria-pressed={folded} onClick={() => setFolded(true)}>
              Phase-folded at {period.toPrecision(6)} d
            </Button>
          </ButtonGroup>
        )}
        <Form.Check
          type="switch"
          id="lc-all-limits"
          label="All limits"
          checked={allLimits}
          onChange={(event) => setAllLimits(event.target.checked)}
        />
      </div>
      {exportError && (
        <Alert variant="danger" dismissible onClose={() => setExportError(null)}>
          The PDF could not be created: {exportError}
        </Alert>
      )}
      <div ref={boxRef} className="position-relative" style={{ overflowX: 'auto' }}>
        <svg
          ref={svgRef}
          className="lightcurve-svg d-block"
          data-testid="lightcurve"
          tabIndex={0}
          onKeyDown={onPlotKey}
          onBlur={() => setHover(null)}
          role="group"
          aria-label={`Lightcurve of ${locusId}: ${quantity === 'magnitude' ? 'magnitude' : 'difference flux'} against ${phaseView ? 'phase' : 'time'}, ${marks.length} points`}
        />
        {hover && (
          <Suspense fallback={null}>
            <LightcurveTooltip mark={hover.mark} at={hover.at} quantity={quantity} phase={phaseView} />
          </Suspense>
        )}
      </div>
      {pickedAlertId && (
        <p className="small mb-1" data-testid="lightcurve-picked">
          Selected alert <code>{pickedAlertId}</code>: shown in the thumbnails and the alert table.{' '}
          <Button size="sm" variant="link" className="p-0 align-baseline" onClick={() => onPick(undefined)}>
            Clear
          </Button>
        </p>
      )}
      <p className="small text-body-secondary mb-1" data-testid="limit-rule">
        {allLimits ? 'Every limit is drawn.' : LIMIT_RULE} Fluxes are difference-image fluxes: Rubin&apos;s psfFlux, and ZTF&apos;s from
        magpsf (AB, zero point 31.4 for nJy) signed by isdiffpos.
      </p>
      <p className="small text-body-secondary mb-0">
        Drag on the plot to select points (the thumbnails and the alert table follow the selection); hover a point for its values and click
        it to show that alert below. Click a legend entry to show only it; click it again to show all. Click the time axis entry to switch
        between MJD and calendar dates. With the keyboard, focus the plot: the arrow keys step through the points and Enter shows the alert
        of the point.
      </p>
      {periodic && (
        <Suspense fallback={<p className="small text-body-secondary mt-2 mb-0">Loading the periodogram...</p>}>
          <PeriodogramPanel bands={bands} period={period} onPeriod={setPeriod} />
        </Suspense>
      )}
    </div>
  );
}
