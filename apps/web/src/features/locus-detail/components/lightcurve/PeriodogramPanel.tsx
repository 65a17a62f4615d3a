import { periodogram, type PeriodogramInput } from '@antares/astro';
import { type MouseEvent, useEffect, useMemo, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';

import { MIN_PERIODOGRAM_DETECTIONS } from './lightcurve-views';
import { passbandColor, sortPassbands } from './survey-codes';

type Band = { t: number[]; y: number[]; dy: (number | undefined)[] };

const ALL = '*';
const PLOT_W = 700;
const PLOT_H = 170;
const PAD = { left: 44, right: 10, top: 10, bottom: 32 };

/** Every band's detections together, each less its own weighted mean (so colours do not fake a signal). */
function combined(bands: Band[]): PeriodogramInput {
  const t: number[] = [];
  const y: number[] = [];
  const dy: (number | undefined)[] = [];
  for (const band of bands) {
    let sw = 0;
    let swy = 0;
    band.y.forEach((value, i) => {
      const w = band.dy[i] && band.dy[i]! > 0 ? 1 / band.dy[i]! ** 2 : 1;
      sw += w;
      swy += w * value;
    });
    band.y.forEach((value, i) => {
      t.push(band.t[i]);
      y.push(value - swy / sw);
      dy.push(band.dy[i]);
    });
  }
  return { t, y, dy };
}

/**
 * The Lomb-Scargle periodogram of the detections (magnitudes) of one band, or of every band with its
 * mean removed; the highest peak is proposed as the period, and a click on the plot or the period
 * field chooses another. The chosen period folds the lightcurve above.
 */
export default function PeriodogramPanel({
  bands,
  period,
  onPeriod,
}: {
  bands: Map<string, Band>;
  period: number | undefined;
  onPeriod: (period: number) => void;
}) {
  const eligible = useMemo(
    () => sortPassbands([...bands.keys()].filter((band) => bands.get(band)!.t.length >= MIN_PERIODOGRAM_DETECTIONS)),
    [bands],
  );
  const richest = eligible.reduce((a, b) => (bands.get(b)!.t.length > bands.get(a)!.t.length ? b : a), eligible[0]);
  const [choice, setChoice] = useState<string>(richest);
  const input = useMemo(
    () => (choice === ALL ? combined(eligible.map((band) => bands.get(band)!)) : (bands.get(choice) ?? bands.get(richest)!)),
    [choice, eligible, bands, richest],
  );
  const result = useMemo(() => periodogram(input), [input]);
  const [text, setText] = useState('');

  useEffect(() => {
    if (result) onPeriod(result.bestPeriod);
  }, [result]); // eslint-disable-line react-hooks/exhaustive-deps
  useEffect(() => {
    if (period !== undefined && Number(text) !== period) setText(period.toPrecision(7));
  }, [period]); // eslint-disable-line react-hooks/exhaustive-deps

  if (!result) return null;
  const { frequencies, power } = result;
  const fMin = frequencies[0];
  const fMax = frequencies[frequencies.length - 1];
  const innerW = PLOT_W - PAD.left - PAD.right;
  const innerH = PLOT_H - PAD.top - PAD.bottom;
  const px = (f: number) => PAD.left + ((f - fMin) / (fMax - fMin)) * innerW;
  const py = (p: number) => PAD.top + (1 - Math.max(0, Math.min(1, p))) * innerH;
  // One vertex per pixel column (its highest power) keeps the path small and every peak visible.
  const columns = new Float64Array(Math.ceil(innerW) + 1).fill(-1);
  for (let k = 0; k < frequencies.length; k++) {
    const column = Math.round(px(frequencies[k]) - PAD.left);
    if (power[k] > columns[column]) columns[column] = power[k];
  }
  const path = Array.from(columns)
    .map((p, column) => (p < 0 ? '' : `${column === 0 ? 'M' : 'L'}${(PAD.left + column).toFixed(1)},${py(p).toFixed(1)}`))
    .filter(Boolean)
    .join('');
  const ticks = Array.from({ length: 6 }, (_, i) => fMin + ((fMax - fMin) * i) / 5);

  // A click picks the highest peak within 4 pixels of it.
  const pick = (event: MouseEvent<SVGSVGElement>) => {
    const box = event.currentTarget.getBoundingClientRect();
    const x = ((event.clientX - box.left) / box.width) * PLOT_W;
    const df = ((fMax - fMin) / innerW) * 4;
    const f = fMin + ((x - PAD.left) / innerW) * (fMax - fMin);
    let best = -1;
    for (let k = 0; k < frequencies.length; k++) {
      if (Math.abs(frequencies[k] - f) <= df && (best === -1 || power[k] > power[best])) best = k;
    }
    if (best !== -1) onPeriod(1 / frequencies[best]);
  };
  // The field shows a chosen period to 7 digits: leaving it unchanged must not round the period.
  const submit = () => {
    const value = Number(text);
    if (Number.isFinite(value) && value > 0 && text.trim() !== period?.toPrecision(7)) onPeriod(value);
  };

  return (
    <section className="mt-3" aria-label="Periodogram" data-testid="periodogram">
      <h3 className="h6 mb-2">Periodogram (Lomb-Scargle)</h3>
      <div className="d-flex flex-wrap gap-2 align-items-center mb-2">
        <Form.Select
          size="sm"
          style={{ width: 'auto' }}
          aria-label="Periodogram passband"
          value={choice}
          onChange={(event) => setChoice(event.target.value)}
        >
          {eligible.map((band) => (
            <option key={band} value={band}>
              {band} ({bands.get(band)!.t.length} detections)
            </option>
          ))}
          {eligible.length > 1 && <option value={ALL}>All bands, means removed</option>}
        </Form.Select>
        <Form.Label htmlFor="lc-period" className="small mb-0">
          Period (days)
        </Form.Label>
        <Form.Control
          id="lc-period"
          size="sm"
          type="number"
          step="any"
          min="0"
          style={{ width: '9rem' }}
          value={text}
          onChange={(event) => setText(event.target.value)}
          onBlur={submit}
          onKeyDown={(event) => event.key === 'Enter' && submit()}
        />
        <Button size="sm" variant="outline-secondary" onClick={() => onPeriod(result.bestPeriod)}>
          Highest peak
        </Button>
        <span className="small text-body-secondary" data-testid="periodogram-best">
          Highest peak: {result.bestPeriod.toPrecision(7)} d (power {result.bestPower.toFixed(2)})
        </span>
      </div>
      <svg
        viewBox={`0 0 ${PLOT_W} ${PLOT_H}`}
        width="100%"
        style={{ maxWidth: PLOT_W, cursor: 'crosshair' }}
        role="img"
        aria-label="Power against frequency; click a peak to fold at its period"
        onClick={pick}
        data-testid="periodogram-plot"
      >
        <rect x={PAD.left} y={PAD.top} width={innerW} height={innerH} fill="none" stroke="#cccccc" />
        <path d={path} fill="none" stroke={choice === ALL ? '#333333' : passbandColor(choice)} strokeWidth={1} />
        {period !== undefined && 1 / period >= fMin && 1 / period <= fMax && (
          <line x1={px(1 / period)} x2={px(1 / period)} y1={PAD.top} y2={PAD.top + innerH} stroke="#000000" strokeDasharray="3 2" />
        )}
        {ticks.map((f) => (
          <text key={f} x={px(f)} y={PLOT_H - 16} textAnchor="middle" fontSize={10} fill="#333333">
            {f.toFixed(2)}
          </text>
        ))}
        <text x={PAD.left + innerW / 2} y={PLOT_H - 3} textAnchor="middle" fontSize={11} fill="#222222">
          Frequency (cycles per day)
        </text>
        {[0, 0.5, 1].map((p) => (
          <text key={p} x={PAD.left - 4} y={py(p) + 3} textAnchor="end" fontSize={10} fill="#333333">
            {p}
          </text>
        ))}
        <text transform={`translate(12,${PAD.top + innerH / 2}) rotate(-90)`} textAnchor="middle" fontSize={11} fill="#222222">
          Power
        </text>
      </svg>
    </section>
  );
}
