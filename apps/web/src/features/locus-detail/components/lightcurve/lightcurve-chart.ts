import { axisBottom, axisLeft } from 'd3-axis';
import { brush, type BrushBehavior } from 'd3-brush';
import { scaleLinear, type ScaleLinear } from 'd3-scale';
import { select, type Selection } from 'd3-selection';
import { symbol } from 'd3-shape';
import { utcFormat } from 'd3-time-format';
import 'd3-transition';
import { mjdToDate } from '../../../../lib/time';
import { drawLegend, type LegendModel } from './lightcurve-legend';
import { MARK_SYMBOLS, MIN_MAG_SPAN, MIN_MJD_SPAN, type Mark } from './lightcurve-marks';

/** The lightcurve SVG: 750x500 as the spec fixes; the plot area leaves room for the legend. */
export const WIDTH = 750;
export const HEIGHT = 500;
const MARGIN = { top: 20, right: 170, bottom: 55, left: 60 };
const INNER_W = WIDTH - MARGIN.left - MARGIN.right;
const INNER_H = HEIGHT - MARGIN.top - MARGIN.bottom;

export const ZOOM_FACTOR = 1.5;
export const ZOOM_STEP_MS = 500;
export const DEFAULT_TRANSITION_MS = 1000;

export interface Domains {
  x: [number, number];
  y: [number, number];
}

export interface ChartState {
  marks: Mark[];
  color: (mark: Mark) => string;
  timeAxis: 'mjd' | 'calendar';
  legend: LegendModel;
}

export interface ChartCallbacks {
  /** The brushed region in data units (mjd, magnitude), or null when cleared. */
  onBrush: (selection: Domains | null) => void;
}

type G = Selection<SVGGElement, unknown, null, undefined>;
const calendarFormat = utcFormat('%Y-%m-%d');
const calendarHourFormat = utcFormat('%m-%d %H:%M');

/**
 * Imperative d3 drawing (axes, marks, brush, zoom transitions) behind a small API the React
 * section drives. Everything is styled with attributes, not CSS, so the serialised SVG exports
 * to PDF looking the same.
 */
export class LightcurveChart {
  private readonly svg: Selection<SVGSVGElement, unknown, null, undefined>;
  private readonly xAxisG: G;
  private readonly yAxisG: G;
  private readonly marksG: G;
  private readonly brushG: G;
  private readonly legendG: G;
  private readonly xLabel: Selection<SVGTextElement, unknown, null, undefined>;
  private readonly brushBehavior: BrushBehavior<unknown>;
  private x: ScaleLinear<number, number> = scaleLinear().range([0, INNER_W]);
  private y: ScaleLinear<number, number> = scaleLinear().range([INNER_H, 0]);
  private state: ChartState | null = null;
  private selection: Domains | null = null;
  private programmaticBrush = false;

  constructor(element: SVGSVGElement, private readonly callbacks: ChartCallbacks, clipId: string) {
    this.svg = select(element)
      .attr('viewBox', `0 0 ${WIDTH} ${HEIGHT}`)
      .attr('width', WIDTH)
      .attr('height', HEIGHT)
      .attr('font-family', 'Helvetica, Arial, sans-serif')
      .attr('font-size', 11);
    this.svg.selectAll('*').remove();
    this.svg.append('rect').attr('width', WIDTH).attr('height', HEIGHT).attr('fill', '#ffffff');
    this.svg.append('defs').append('clipPath').attr('id', clipId).append('rect').attr('width', INNER_W).attr('height', INNER_H);
    const plot = this.svg.append('g').attr('transform', `translate(${MARGIN.left},${MARGIN.top})`);
    plot.append('rect').attr('width', INNER_W).attr('height', INNER_H).attr('fill', 'none').attr('stroke', '#cccccc');
    this.xAxisG = plot.append('g').attr('class', 'x-axis').attr('transform', `translate(0,${INNER_H})`);
    this.yAxisG = plot.append('g').attr('class', 'y-axis');
    this.xLabel = plot
      .append('text')
      .attr('class', 'x-label')
      .attr('x', INNER_W / 2)
      .attr('y', INNER_H + 42)
      .attr('text-anchor', 'middle')
      .attr('font-size', 12)
      .attr('fill', '#222222');
    plot
      .append('text')
      .attr('transform', `translate(-44,${INNER_H / 2}) rotate(-90)`)
      .attr('text-anchor', 'middle')
      .attr('font-size', 12)
      .attr('fill', '#222222')
      .text('Magnitude');
    this.brushG = plot.append('g').attr('class', 'brush');
    this.marksG = plot.append('g').attr('class', 'marks').attr('clip-path', `url(#${clipId})`).attr('pointer-events', 'none');
    this.legendG = this.svg.append('g').attr('class', 'legend').attr('transform', `translate(${WIDTH - MARGIN.right + 16},${MARGIN.top})`);
    this.brushBehavior = brush()
      .extent([
        [0, 0],
        [INNER_W, INNER_H],
      ])
      .on('end', (event: { selection: [[number, number], [number, number]] | null }) => {
        if (this.programmaticBrush) return;
        this.selection = event.selection ? this.toDomains(event.selection) : null;
        this.callbacks.onBrush(this.selection);
      });
    this.brushG.call(this.brushBehavior);
  }

  get domains(): Domains {
    return { x: this.x.domain() as [number, number], y: this.y.domain() as [number, number] };
  }

  get currentSelection(): Domains | null {
    return this.selection;
  }

  /** Brightest magnitudes at the top: y maps [faint, bright] to [bottom, top]. */
  setDomains(domains: Domains, duration = 0): void {
    this.x.domain(domains.x);
    this.y.domain([domains.y[1], domains.y[0]]);
    this.render(duration);
  }

  update(state: ChartState): void {
    this.state = state;
    this.render(0);
  }

  zoomTo(target: Domains, duration = DEFAULT_TRANSITION_MS): void {
    // Never zoom past the minimum resolution: 1 hour and 0.01 mag.
    const widen = ([lo, hi]: [number, number], minimum: number): [number, number] => {
      if (hi - lo >= minimum) return [lo, hi];
      const mid = (lo + hi) / 2;
      return [mid - minimum / 2, mid + minimum / 2];
    };
    this.setDomains({ x: widen(target.x, MIN_MJD_SPAN), y: widen(target.y, MIN_MAG_SPAN) }, duration);
  }

  zoomBy(factor: number): void {
    const { x, y } = this.domains;
    const scale = ([lo, hi]: [number, number]): [number, number] => {
      const mid = (lo + hi) / 2;
      const half = (hi - lo) / 2 / factor;
      return [mid - half, mid + half];
    };
    // y domain is stored [faint, bright]; zoomTo expects [bright, faint].
    const [faint, bright] = y;
    this.zoomTo({ x: scale(x), y: scale([bright, faint]) }, ZOOM_STEP_MS);
  }

  clearSelection(): void {
    this.selection = null;
    this.programmaticBrush = true;
    this.brushG.call(this.brushBehavior.move, null);
    this.programmaticBrush = false;
    this.callbacks.onBrush(null);
  }

  private toDomains([[x0, y0], [x1, y1]]: [[number, number], [number, number]]): Domains {
    const mags = [this.y.invert(y0), this.y.invert(y1)];
    return { x: [this.x.invert(x0), this.x.invert(x1)], y: [Math.min(...mags), Math.max(...mags)] };
  }

  /** Keeps the brush rectangle on the same data region after a zoom. */
  private placeBrush(): void {
    if (!this.selection) return;
    const { x, y } = this.selection;
    const x0 = Math.max(0, Math.min(INNER_W, this.x(x[0])));
    const x1 = Math.max(0, Math.min(INNER_W, this.x(x[1])));
    const ys = [this.y(y[0]), this.y(y[1])].map((v) => Math.max(0, Math.min(INNER_H, v)));
    this.programmaticBrush = true;
    if (x1 - x0 < 1 || Math.abs(ys[0] - ys[1]) < 1) this.brushG.call(this.brushBehavior.move, null);
    else
      this.brushG.call(this.brushBehavior.move, [
        [x0, Math.min(...ys)],
        [x1, Math.max(...ys)],
      ]);
    this.programmaticBrush = false;
  }

  private render(duration: number): void {
    const state = this.state;
    if (!state) return;
    const calendar = state.timeAxis === 'calendar';
    const [x0, x1] = this.x.domain();
    const mjdFormat = this.x.tickFormat(6);
    const dateFormat = x1 - x0 < 3 ? calendarHourFormat : calendarFormat;
    const xAxis = axisBottom(this.x)
      .ticks(6)
      .tickFormat((value) => (calendar ? dateFormat(mjdToDate(Number(value))) : mjdFormat(Number(value))));
    const yAxis = axisLeft(this.y).ticks(8);
    const t = this.svg.transition().duration(duration);
    if (duration > 0) {
      this.xAxisG.transition(t as never).call(xAxis);
      this.yAxisG.transition(t as never).call(yAxis);
    } else {
      // A zoom still animating must not overwrite this immediate redraw.
      this.xAxisG.interrupt().call(xAxis);
      this.yAxisG.interrupt().call(yAxis);
    }
    this.xLabel.text(calendar ? 'Date (UTC)' : 'MJD');

    const bottom = INNER_H - 6;
    const position = (mark: Mark) => `translate(${this.x(mark.mjd)},${mark.mag === undefined ? bottom : this.y(mark.mag)}) rotate(${MARK_SYMBOLS[mark.kind].rotate})`;
    const groups = this.marksG
      .selectAll<SVGGElement, Mark>('g.mark')
      .data(state.marks, (mark) => mark.key)
      .join((enter) => {
        const g = enter.append('g').attr('class', 'mark');
        g.append('line').attr('class', 'err').attr('stroke-width', 1);
        g.append('path').attr('class', 'symbol');
        return g;
      })
      .attr('data-kind', (mark) => mark.kind)
      .attr('data-passband', (mark) => mark.passband)
      .attr('data-alert-type', (mark) => mark.alertType ?? null);
    groups
      .select<SVGPathElement>('path.symbol')
      .attr('d', (mark) => symbol(MARK_SYMBOLS[mark.kind].type, MARK_SYMBOLS[mark.kind].size)())
      .attr('fill', (mark) => (mark.kind === 'magnitude' ? state.color(mark) : mark.kind === 'other' ? 'none' : '#ffffff'))
      .attr('stroke', (mark) => state.color(mark))
      .attr('stroke-width', (mark) => (mark.kind === 'magnitude' ? 0.5 : 1.5));
    const errorBar = (mark: Mark) => (mark.kind === 'magnitude' && mark.err !== undefined && mark.mag !== undefined ? Math.abs(this.y(mark.mag + mark.err) - this.y(mark.mag)) : 0);
    const bars = groups.select<SVGLineElement>('line.err').attr('stroke', (mark) => state.color(mark));
    if (duration > 0) {
      groups.transition(t as never).attr('transform', position);
      bars.transition(t as never).attr('y1', (mark) => -errorBar(mark)).attr('y2', errorBar);
    } else {
      groups.interrupt().attr('transform', position);
      bars.interrupt();
      bars.attr('y1', (mark) => -errorBar(mark)).attr('y2', errorBar);
    }
    drawLegend(this.legendG, state.legend);
    this.placeBrush();
  }
}
