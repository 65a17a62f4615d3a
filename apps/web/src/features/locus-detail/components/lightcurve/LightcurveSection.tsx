import { useEffect, useId, useMemo, useRef, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import ButtonGroup from 'react-bootstrap/ButtonGroup';
import Form from 'react-bootstrap/Form';
import type { LightcurvePoint } from '../../api/lightcurve';
import { exportSvgToPdf } from './export-pdf';
import { LightcurveChart, ZOOM_FACTOR, type Domains } from './lightcurve-chart';
import type { LegendItem, LegendModel } from './lightcurve-legend';
import {
  buildMarks,
  fullDomains,
  MARK_KINDS,
  MARK_LABELS,
  matchesSelection,
  rcidColor,
  type LegendSelection,
  type Mark,
} from './lightcurve-marks';
import { alertTypeCode, alertTypeLabel, passbandColor, sortAlertTypes, sortPassbands } from './survey-codes';

const BRUSH_DEBOUNCE_MS = 100;

export interface LightcurveSectionProps {
  locusId: string;
  points: LightcurvePoint[];
  rcidByAlert: Map<string, number>;
  /** Debounced brush selection (data units), or null. */
  onSelectionChange: (selection: Domains | null) => void;
}

export function LightcurveSection({ locusId, points, rcidByAlert, onSelectionChange }: LightcurveSectionProps) {
  const svgRef = useRef<SVGSVGElement>(null);
  const chartRef = useRef<LightcurveChart | null>(null);
  const clipId = `lc-clip-${useId().replace(/:/g, '')}`;
  const [colorMode, setColorMode] = useState<'passband' | 'rcid'>('passband');
  const [legendSelection, setLegendSelection] = useState<LegendSelection>({});
  const [timeAxis, setTimeAxis] = useState<'mjd' | 'calendar'>('mjd');
  const [brushed, setBrushed] = useState<Domains | null>(null);
  const [exporting, setExporting] = useState(false);
  const [exportError, setExportError] = useState<string | null>(null);

  const marks = useMemo(() => buildMarks(points, rcidByAlert), [points, rcidByAlert]);
  const full = useMemo(() => fullDomains(marks), [marks]);
  const passbands = useMemo(() => sortPassbands(marks.map((mark) => mark.passband)), [marks]);
  const alertTypes = useMemo(() => sortAlertTypes(marks.flatMap((mark) => (mark.alertType === undefined ? [] : [mark.alertType]))), [marks]);
  const rcids = useMemo(() => [...new Set(marks.flatMap((mark) => (mark.rcid === undefined ? [] : [mark.rcid])))].sort((a, b) => a - b), [marks]);
  const kinds = useMemo(() => MARK_KINDS.filter((kind) => marks.some((mark) => mark.kind === kind)), [marks]);
  // Colour by rcid is offered only when more than one rcid exists.
  const mode = colorMode === 'rcid' && rcids.length > 1 ? 'rcid' : 'passband';

  // Debounce brush updates before they reach the thumbnails and the alert table.
  const onSelectionRef = useRef(onSelectionChange);
  onSelectionRef.current = onSelectionChange;
  useEffect(() => {
    const timer = window.setTimeout(() => onSelectionRef.current(brushed), BRUSH_DEBOUNCE_MS);
    return () => window.clearTimeout(timer);
  }, [brushed]);

  useEffect(() => {
    if (!svgRef.current) return;
    const chart = new LightcurveChart(svgRef.current, { onBrush: setBrushed }, clipId);
    chartRef.current = chart;
    return () => {
      chartRef.current = null;
    };
  }, [clipId]);

  useEffect(() => {
    chartRef.current?.setDomains(full);
  }, [full]);

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
    const entry = (category: LegendItem['category'], value: string, label: string, itemColor: string, shape: LegendItem['shape'], selected: unknown): LegendItem => ({
      category,
      value,
      label,
      color: itemColor,
      shape,
      selected: selected !== undefined && String(selected) === value,
      dimmed: selected !== undefined && String(selected) !== value,
    });
    const legend: LegendModel = {
      onClick: toggle,
      sections: [
        { title: 'Passband', items: passbands.map((band) => entry('passband', band, band, mode === 'passband' ? passbandColor(band) : '#555555', 'magnitude', legendSelection.passband)) },
        { title: 'Alert type', items: alertTypes.map((type) => ({ ...entry('alertType', type, alertTypeLabel(type, 'short'), '#555555', 'code', legendSelection.alertType), code: alertTypeCode(type) })) },
        { title: 'Marker', items: kinds.map((kind) => entry('kind', kind, MARK_LABELS[kind], '#555555', kind, legendSelection.kind)) },
        ...(mode === 'rcid'
          ? [{ title: 'rcid', items: rcids.map((rcid) => entry('rcid', String(rcid), `rcid ${rcid}`, rcidColor(rcid, rcids), 'magnitude', legendSelection.rcid)) }]
          : []),
        {
          title: 'Time axis',
          items: [{ category: 'axis', value: timeAxis, label: timeAxis === 'mjd' ? 'MJD' : 'Calendar (UTC)', color: '#0d6efd', shape: 'axis', selected: false, dimmed: false }],
        },
      ],
    };
    chart.update({ marks: marks.filter((mark) => matchesSelection(mark, legendSelection)), color, timeAxis, legend });
  }, [marks, mode, rcids, passbands, alertTypes, kinds, legendSelection, timeAxis]);

  const exportPdf = async () => {
    if (!svgRef.current) return;
    setExporting(true);
    setExportError(null);
    try {
      await exportSvgToPdf(svgRef.current, `antares-lightcurve-${locusId}.pdf`);
    } catch (error) {
      setExportError(error instanceof Error ? error.message : String(error));
    } finally {
      setExporting(false);
    }
  };

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
        {rcids.length > 1 && (
          <Form.Select size="sm" style={{ width: 'auto' }} aria-label="Colour points by" value={mode} onChange={(event) => setColorMode(event.target.value as 'passband' | 'rcid')}>
            <option value="passband">Colour by passband</option>
            <option value="rcid">Colour by rcid</option>
          </Form.Select>
        )}
      </div>
      {exportError && (
        <Alert variant="danger" dismissible onClose={() => setExportError(null)}>
          The PDF could not be created: {exportError}
        </Alert>
      )}
      <div style={{ maxWidth: 750, overflowX: 'auto' }}>
        <svg ref={svgRef} className="lightcurve-svg" data-testid="lightcurve" role="group" aria-label={`Lightcurve of ${locusId}: magnitude against time, ${marks.length} points`} />
      </div>
      <p className="small text-body-secondary mb-0">
        Drag on the plot to select points (the thumbnails and the alert table follow the selection). Click a legend entry to show only it; click it again
        to show all. Click the time axis entry to switch between MJD and calendar dates.
      </p>
    </div>
  );
}
