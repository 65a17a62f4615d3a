import { useId, useState } from 'react';
import Form from 'react-bootstrap/Form';
import Table from 'react-bootstrap/Table';

import type { BacktestResults } from '@/features/filters/api/backtests';

/** Bootstrap's theme colours (they follow the dark theme), one per tag in turn. */
const COLORS = ['primary', 'success', 'warning', 'info', 'danger', 'secondary'].map((name) => `var(--bs-${name})`);
const WIDTH = 720;
const HEIGHT = 220;
const MARGIN = { top: 10, right: 10, bottom: 40, left: 44 };

type Measure = 'loci' | 'alerts';

/**
 * Per night, the loci (or alerts) the filter would have tagged, one stacked bar per night, one colour
 * per tag. Plain SVG: a few dozen rectangles need no chart library in this chunk. The same numbers are
 * in a table below it for screen readers and for copying.
 */
export function NightlyChart({ nights }: { nights: BacktestResults['nights'] }) {
  const [measure, setMeasure] = useState<Measure>('loci');
  const titleId = useId();
  const tags = [...new Set(nights.flatMap((n) => Object.keys(n.tags)))].sort();
  const value = (night: BacktestResults['nights'][number], tag: string) => night.tags[tag]?.[measure] ?? 0;
  const totals = nights.map((n) => tags.reduce((sum, tag) => sum + value(n, tag), 0));
  const top = Math.max(1, ...totals);
  const plotW = WIDTH - MARGIN.left - MARGIN.right;
  const plotH = HEIGHT - MARGIN.top - MARGIN.bottom;
  const band = plotW / Math.max(1, nights.length);
  const barW = Math.max(2, band * 0.7);
  const y = (v: number) => MARGIN.top + plotH - (v / top) * plotH;
  const labelEvery = Math.max(1, Math.ceil(nights.length / 12));
  const noun = measure === 'loci' ? 'Loci' : 'Alerts';

  return (
    <figure className="mb-3" data-testid="backtest-nightly-chart">
      <div className="d-flex flex-wrap align-items-center gap-3 mb-1">
        <figcaption id={titleId} className="fw-semibold small">
          {noun} tagged per night, by tag
        </figcaption>
        <Form.Check
          type="radio"
          inline
          id={`${titleId}-loci`}
          name={`${titleId}-measure`}
          label="Loci"
          checked={measure === 'loci'}
          onChange={() => setMeasure('loci')}
        />
        <Form.Check
          type="radio"
          inline
          id={`${titleId}-alerts`}
          name={`${titleId}-measure`}
          label="Alerts"
          checked={measure === 'alerts'}
          onChange={() => setMeasure('alerts')}
        />
      </div>
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} width="100%" role="img" aria-labelledby={titleId} style={{ maxHeight: HEIGHT }}>
        <line x1={MARGIN.left} x2={WIDTH - MARGIN.right} y1={y(0)} y2={y(0)} stroke="currentColor" strokeOpacity={0.5} />
        {[0, top].map((tick) => (
          <text key={tick} x={MARGIN.left - 6} y={y(tick)} dy="0.32em" textAnchor="end" fontSize={11} fill="currentColor">
            {tick}
          </text>
        ))}
        {nights.map((night, i) => {
          const x = MARGIN.left + i * band + (band - barW) / 2;
          let base = 0;
          return (
            <g key={night.night}>
              {tags.map((tag, t) => {
                const v = value(night, tag);
                if (v === 0) return null;
                const rect = (
                  <rect key={tag} x={x} width={barW} y={y(base + v)} height={y(base) - y(base + v)} fill={COLORS[t % COLORS.length]}>
                    <title>{`${night.night}: ${tag} ${v}`}</title>
                  </rect>
                );
                base += v;
                return rect;
              })}
              {i % labelEvery === 0 && (
                <text x={x + barW / 2} y={HEIGHT - MARGIN.bottom + 14} textAnchor="middle" fontSize={10} fill="currentColor">
                  {night.night.slice(5)}
                </text>
              )}
            </g>
          );
        })}
      </svg>
      <ul className="list-inline small mb-1">
        {tags.map((tag, t) => (
          <li key={tag} className="list-inline-item">
            <svg width="10" height="10" aria-hidden="true" className="me-1">
              <rect width="10" height="10" fill={COLORS[t % COLORS.length]} />
            </svg>
            <code>{tag}</code>
          </li>
        ))}
      </ul>
      <details>
        <summary className="small">Counts per night</summary>
        <Table size="sm" responsive className="small mb-0" data-testid="backtest-nights">
          <caption className="visually-hidden">Loci and alerts tagged per night</caption>
          <thead>
            <tr>
              <th scope="col">Night</th>
              <th scope="col" className="numeric">
                Alerts replayed
              </th>
              <th scope="col" className="numeric">
                Loci tagged
              </th>
              <th scope="col" className="numeric">
                Alerts tagged
              </th>
              <th scope="col">By tag (loci / alerts)</th>
            </tr>
          </thead>
          <tbody>
            {nights.map((n) => (
              <tr key={n.night}>
                <td>{n.night}</td>
                <td className="numeric">{n.steps}</td>
                <td className="numeric">{n.loci_tagged}</td>
                <td className="numeric">{n.alerts_tagged}</td>
                <td>
                  {Object.entries(n.tags).map(([tag, c]) => (
                    <span key={tag} className="me-2">
                      <code>{tag}</code> {c.loci} / {c.alerts}
                    </span>
                  ))}
                </td>
              </tr>
            ))}
          </tbody>
        </Table>
      </details>
    </figure>
  );
}
