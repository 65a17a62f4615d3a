import 'd3-transition';

import { axisBottom, axisLeft } from 'd3-axis';
import { brush, type BrushBehavior } from 'd3-brush';
import { type ScaleLinear, scaleLinear } from 'd3-scale';
import { pointer, select, type Selection } from 'd3-selection';
import { symbol } from 'd3-shape';

import { mjdToDate } from '@/lib/time';

import { drawLegend, type LegendModel } from './lightcurve-legend';
import { type Mark, MARK_SYMBOLS, MIN_MJD_SPAN, MIN_VALUE_SPAN, type Quantity } from './lightcurve-marks';

/**
 * The lightcurve SVG: 500 high as the spec fixes, as wide as its card (the spec's 750 is the
 * default and the width before the card is measured); the plot area leaves room for the legend.
 */
export const WIDTH = 750;
export const MIN_WIDTH = 480;
export const HEIGHT = 500;
const MARGIN = { top: 20, right: 170, bottom: 55, left: 70 };
const INNER_H = HEIGHT - MARGIN.top - MARGIN.bottom;
/** A pointer within this many pixels of a mark hovers or picks it. */
const HIT_RADIUS = 10;
/** The smallest phase span a zoom may reach. */
const MIN_PHASE_SPAN = 0.005;

export const ZOOM_FACTOR = 1.5;
export const ZOOM_STEP_MS = 500;
export const DEFAULT_TRANSITION_MS = 1000;

export interface Domains {
  x: [number, number];
  y: [number, number];
}

/** A brushed region; outside the magnitude-against-time view it also names the alerts inside it. */
export interface LightcurveSelection extends Domains {
  alertIds?: ReadonlySet<string>;
}

export type XMode = 'mjd' | 'calendar' | 'phase';

export interface ChartState {
  marks: Mark[];
  color: (mark: Mark) => string;
  xMode: XMode;
  quantity: Quantity;
  legend: LegendModel;
  /** The alert picked by a click: its marks are ringed. */
  picked?: string;
}

export interface ChartCallbacks {
  /** The brushed region in data units (x, value), or null when cleared. */
  onBrush: (selection: Domains | null) => void;
  /** The mark under the pointer (and where, in the SVG's pixels), or null. */
  onHover?: (mark: Mark | null, at: [number, number]) => void;
  /** A click on (or next to) a mark. */
  onPick?: (mark: Mark) => void;
}

type G = Selection<SVGGElement, unknown, null, undefined>;
// Calendar ticks are cut from the ISO form (UTC) rather than formatted by d3-time-format, which
// (with d3-time) would add about 4 kB gzipped to the locus page for these two patterns.
const calendarFormat = (date: Date) => date.toISOString().slice(0, 10);
const calendarHourFormat = (date: Date) => date.toISOString().slice(5, 16).replace('T', ' ');

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
  private readonly yLabel: Selection<SVGTextElement, unknown, null, undefined>;
  private readonly frame: Selection<SVGRectElement, unknown, null, undefined>;
  private readonly background: Selection<SVGRectElement, unknown, null, undefined>;
  private readonly clipRect: Selection<SVGRectElement, unknown, null, undefined>;
  private readonly brushBehavior: BrushBehavior<unknown>;
  private width = WIDTH;
  private innerW = WIDTH - MARGIN.left - MARGIN.right;
  private quantity: Quantity = 'magnitude';
  private x: ScaleLinear<number, number> = scaleLinear().range([0, this.innerW]);
  private y: ScaleLinear<number, number> = scaleLinear().range([INNER_H, 0]);
  private state: ChartState | null = null;
  private selection: Domains | null = null;
  private programmaticBrush = false;

  constructor(
    element: SVGSVGElement,
    private readonly callbacks: ChartCallbacks,
    clipId: string,
  ) {
    this.svg = select(element).attr('height', HEIGHT).attr('font-family', 'Helvetica, Arial, sans-serif').attr('font-size', 11);
    this.svg.selectAll('*').remove();
    this.background = this.svg.append('rect').attr('height', HEIGHT).attr('fill', '#ffffff');
    this.clipRect = this.svg.append('defs').append('clipPath').attr('id', clipId).append('rect').attr('height', INNER_H);
    const plot = this.svg.append('g').attr('transform', `translate(${MARGIN.left},${MARGIN.top})`);
    this.frame = plot.append('rect').attr('height', INNER_H).attr('fill', 'none').attr('stroke', '#cccccc');
    this.xAxisG = plot.append('g').attr('class', 'x-axis').attr('transform', `translate(0,${INNER_H})`);
    this.yAxisG = plot.append('g').attr('class', 'y-axis');
    this.xLabel = plot
      .append('text')
      .attr('class', 'x-label')
      .attr('y', INNER_H + 42)
      .attr('text-anchor', 'middle')
      .attr('font-size', 12)
      .attr('fill', '#222222');
    this.yLabel = plot
      .append('text')
      .attr('class', 'y-label')
      .attr('transform', `translate(-54,${INNER_H / 2}) rotate(-90)`)
      .attr('text-anchor', 'middle')
      .attr('font-size', 12)
      .attr('fill', '#222222')
      .text('Magnitude');
    this.brushG = plot.append('g').attr('class', 'brush');
    this.marksG = plot.append('g').attr('class', 'marks').attr('clip-path', `url(#${clipId})`).attr('pointer-events', 'none');
    this.legendG = this.svg.append('g').attr('class', 'legend');
    this.brushBehavior = brush().on('end', (event: { selection: [[number, number], [number, number]] | null }) => {
      if (this.programmaticBrush) return;
      this.selection = event.selection ? this.toDomains(event.selection) : null;
      this.callbacks.onBrush(this.selection);
    });
    // The brush's overlay takes every pointer event over the plot: hover and click find the
    // nearest mark from there (a click without a drag is not a brush).
    this.brushG
      .on('pointermove.hover', (event: PointerEvent) => {
        const [px, py] = pointer(event, this.brushG.node());
        this.callbacks.onHover?.(this.nearest(px, py), [px + MARGIN.left, py + MARGIN.top]);
      })
      .on('pointerleave.hover', () => this.callbacks.onHover?.(null, [0, 0]))
      .on('click.pick', (event: MouseEvent) => {
        const [px, py] = pointer(event, this.brushG.node());
        const mark = this.nearest(px, py);
        if (mark) this.callbacks.onPick?.(mark);
      });
    this.resize(WIDTH);
  }

  /** Fits the chart to a new width (the card's): scales, frame, brush extent and legend move with it. */
  resize(width: number): void {
    this.width = Math.max(MIN_WIDTH, Math.round(width));
    this.innerW = this.width - MARGIN.left - MARGIN.right;
    this.svg.attr('viewBox', `0 0 ${this.width} ${HEIGHT}`).attr('width', this.width);
    this.background.attr('width', this.width);
    this.clipRect.attr('width', this.innerW);
    this.frame.attr('width', this.innerW);
    this.xLabel.attr('x', this.innerW / 2);
    this.legendG.attr('transform', `translate(${this.width - MARGIN.right + 16},${MARGIN.top})`);
    this.x.range([0, this.innerW]);
    this.brushBehavior.extent([
      [0, 0],
      [this.innerW, INNER_H],
    ]);
    this.brushG.call(this.brushBehavior);
    this.render(0);
  }

  get size(): { width: number; height: number } {
    return { width: this.width, height: HEIGHT };
  }

  /** The drawn mark nearest to a point of the plot area, within HIT_RADIUS pixels. */
  private nearest(px: number, py: number): Mark | null {
    let best: Mark | null = null;
    let bestDistance = HIT_RADIUS * HIT_RADIUS;
    for (const mark of this.state?.marks ?? []) {
      const [mx, my] = this.positionOf(mark);
      const distance = (mx - px) ** 2 + (my - py) ** 2;
      if (distance <= bestDistance) {
        best = mark;
        bestDistance = distance;
      }
    }
    return best;
  }

  /** Where a mark is drawn, in the SVG's pixels (for the tooltip of a mark reached by keyboard). */
  pixelOf(mark: Mark): [number, number] {
    const [px, py] = this.positionOf(mark);
    return [px + MARGIN.left, py + MARGIN.top];
  }

  private positionOf(mark: Mark): [number, number] {
    return [this.x(mark.x), mark.y === undefined ? INNER_H - 6 : this.y(mark.y)];
  }

  get domains(): Domains {
    const [a, b] = this.y.domain();
    return { x: this.x.domain() as [number, number], y: [Math.min(a, b), Math.max(a, b)] };
  }

  get currentSelection(): Domains | null {
    return this.selection;
  }

  /** Domains as [low, high] pairs. Magnitudes put the brightest (smallest) at the top, fluxes the largest. */
  setDomains(domains: Domains, duration = 0): void {
    this.x.domain(domains.x);
    this.y.domain(this.quantity === 'magnitude' ? [domains.y[1], domains.y[0]] : domains.y);
    this.render(duration);
  }

  /** Switches between magnitudes and fluxes (the value axis turns over) with the domains to show. */
  setQuantity(quantity: Quantity, domains: Domains): void {
    this.quantity = quantity;
    this.selection = null;
    this.clearBrush();
    this.setDomains(domains);
  }

  update(state: ChartState): void {
    this.state = state;
    this.render(0);
  }

  zoomTo(target: Domains, duration = DEFAULT_TRANSITION_MS): void {
    // Never zoom past the minimum resolution: 1 hour (or a small phase) and 0.01 mag (or 1 nJy).
    const widen = ([lo, hi]: [number, number], minimum: number): [number, number] => {
      if (hi - lo >= minimum) return [lo, hi];
      const mid = (lo + hi) / 2;
      return [mid - minimum / 2, mid + minimum / 2];
    };
    const minX = this.state?.xMode === 'phase' ? MIN_PHASE_SPAN : MIN_MJD_SPAN;
    this.setDomains({ x: widen(target.x, minX), y: widen(target.y, MIN_VALUE_SPAN[this.quantity]) }, duration);
  }

  zoomBy(factor: number): void {
    const { x, y } = this.domains;
    const scale = ([lo, hi]: [number, number]): [number, number] => {
      const mid = (lo + hi) / 2;
      const half = (hi - lo) / 2 / factor;
      return [mid - half, mid + half];
    };
    this.zoomTo({ x: scale(x), y: scale(y) }, ZOOM_STEP_MS);
  }

  clearSelection(): void {
    this.selection = null;
    this.clearBrush();
    this.callbacks.onBrush(null);
  }

  private clearBrush(): void {
    this.programmaticBrush = true;
    this.brushG.call(this.brushBehavior.move, null);
    this.programmaticBrush = false;
  }

  private toDomains([[x0, y0], [x1, y1]]: [[number, number], [number, number]]): Domains {
    const mags = [this.y.invert(y0), this.y.invert(y1)];
    return { x: [this.x.invert(x0), this.x.invert(x1)], y: [Math.min(...mags), Math.max(...mags)] };
  }

  /** Keeps the brush rectangle on the same data region after a zoom. */
  private placeBrush(): void {
    if (!this.selection) return;
    const { x, y } = this.selection;
    const x0 = Math.max(0, Math.min(this.innerW, this.x(x[0])));
    const x1 = Math.max(0, Math.min(this.innerW, this.x(x[1])));
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
    const calendar = state.xMode === 'calendar';
    const [x0, x1] = this.x.domain();
    const ticks = Math.max(3, Math.round(this.innerW / 90));
    const mjdFormat = this.x.tickFormat(ticks);
    const dateFormat = x1 - x0 < 3 ? calendarHourFormat : calendarFormat;
    const xAxis = axisBottom(this.x)
      .ticks(ticks)
      .tickFormat((value) => (calendar ? dateFormat(mjdToDate(Number(value))) : mjdFormat(Number(value))));
    const yAxis = axisLeft(this.y).ticks(8);
    this.yLabel.text(state.quantity === 'magnitude' ? 'Magnitude' : 'Difference flux (nJy)');
    const t = this.svg.transition().duration(duration);
    if (duration > 0) {
      this.xAxisG.transition(t as never).call(xAxis);
      this.yAxisG.transition(t as never).call(yAxis);
    } else {
      // A zoom still animating must not overwrite this immediate redraw.
      this.xAxisG.interrupt().call(xAxis);
      this.yAxisG.interrupt().call(yAxis);
    }
    this.xLabel.text(calendar ? 'Date (UTC)' : state.xMode === 'phase' ? 'Phase' : 'MJD');

    const position = (mark: Mark) => {
      const [px, py] = this.positionOf(mark);
      return `translate(${px},${py}) rotate(${MARK_SYMBOLS[mark.kind].rotate})`;
    };
    const groups = this.marksG
      .selectAll<SVGGElement, Mark>('g.mark')
      .data(state.marks, (mark) => mark.key)
      .join((enter) => {
        const g = enter.append('g').attr('class', 'mark');
        g.append('line').attr('class', 'err').attr('stroke-width', 1);
        g.append('path').attr('class', 'symbol');
        g.append('circle').attr('class', 'picked').attr('r', 7).attr('fill', 'none').attr('stroke', '#000000').attr('stroke-width', 1.5);
        return g;
      })
      .attr('data-alert-id', (mark) => mark.alertId)
      .attr('data-kind', (mark) => mark.kind)
      .attr('data-passband', (mark) => mark.passband)
      .attr('data-alert-type', (mark) => mark.alertType ?? null);
    groups
      .select<SVGPathElement>('path.symbol')
      .attr('d', (mark) => symbol(MARK_SYMBOLS[mark.kind].type, MARK_SYMBOLS[mark.kind].size)())
      .attr('fill', (mark) => (mark.kind === 'magnitude' ? state.color(mark) : mark.kind === 'other' ? 'none' : '#ffffff'))
      .attr('stroke', (mark) => state.color(mark))
      .attr('stroke-width', (mark) => (mark.kind === 'magnitude' ? 0.5 : 1.5));
    groups.select('circle.picked').attr('visibility', (mark) => (mark.alertId === state.picked ? 'visible' : 'hidden'));
    groups.attr('data-picked', (mark) => (mark.alertId === state.picked ? 'true' : null));
    const errorBar = (mark: Mark) =>
      mark.kind === 'magnitude' && mark.err !== undefined && mark.y !== undefined
        ? Math.abs(this.y(mark.y + mark.err) - this.y(mark.y))
        : 0;
    const bars = groups.select<SVGLineElement>('line.err').attr('stroke', (mark) => state.color(mark));
    if (duration > 0) {
      groups.transition(t as never).attr('transform', position);
      bars
        .transition(t as never)
        .attr('y1', (mark) => -errorBar(mark))
        .attr('y2', errorBar);
    } else {
      groups.interrupt().attr('transform', position);
      bars.interrupt();
      bars.attr('y1', (mark) => -errorBar(mark)).attr('y2', errorBar);
    }
    drawLegend(this.legendG, state.legend);
    this.placeBrush();
  }
}
