import type { Selection } from 'd3-selection';
import { symbol } from 'd3-shape';

import { type LegendSelection, MARK_LABELS, MARK_SYMBOLS, type MarkKind, type Quantity, rcidColor } from './lightcurve-marks';
import { type AlertType, alertTypeCode, alertTypeLabel, passbandColor } from './survey-codes';

export type LegendCategory = 'passband' | 'alertType' | 'kind' | 'rcid' | 'axis';

export interface LegendItem {
  category: LegendCategory;
  value: string;
  label: string;
  color: string;
  /** A marker shape; 'axis' two arrows; 'code' a box holding `code` (the alert type's ant_survey code). */
  shape: MarkKind | 'axis' | 'code';
  code?: number;
  /** Selected in its category. */
  selected: boolean;
  /** Dimmed: another item of the same category is selected. */
  dimmed: boolean;
}

export interface LegendModel {
  sections: { title: string; items: LegendItem[] }[];
  onClick: (item: LegendItem) => void;
}

const ROW = 17;

/** The in-SVG legend (so it is part of the PDF export); every entry is a keyboard-operable button. */
export function drawLegend(g: Selection<SVGGElement, unknown, null, undefined>, model: LegendModel): void {
  // The legend is redrawn whole on every change: the entry that had the keyboard focus gets it back
  // (by its data-legend key), or the next Enter would land on the page body.
  const focused = g.node()?.querySelector<SVGGElement>('.legend-item:focus')?.getAttribute('data-legend');
  g.selectAll('*').remove();
  let y = 0;
  for (const section of model.sections) {
    g.append('text')
      .attr('x', 0)
      .attr('y', y + 10)
      .attr('font-weight', 'bold')
      .attr('font-size', 11)
      .attr('fill', '#222222')
      .text(section.title);
    y += ROW;
    for (const item of section.items) {
      const entry = g
        .append('g')
        .attr('class', 'legend-item')
        .attr('transform', `translate(0,${y})`)
        .attr('data-legend', `${item.category}:${item.value}`)
        .attr('role', 'button')
        .attr('tabindex', 0)
        .attr('aria-pressed', item.category === 'axis' ? null : String(item.selected))
        // A coded entry shows its code beside the label: it is named by that visible text ('4 Rubin
        // detection'), as a name that left the code out would not match what is seen.
        .attr(
          'aria-label',
          item.category === 'axis'
            ? `Time axis: ${item.label}. Switch time axis`
            : item.shape === 'code'
              ? null
              : `Show only ${item.label}`,
        )
        .attr('opacity', item.dimmed ? 0.35 : 1)
        .attr('cursor', 'pointer')
        .on('click', () => model.onClick(item))
        .on('keydown', (event: KeyboardEvent) => {
          if (event.key === 'Enter' || event.key === ' ') {
            event.preventDefault();
            model.onClick(item);
          }
        });
      // A transparent hit area makes the whole row clickable.
      entry
        .append('rect')
        .attr('x', -2)
        .attr('y', -1)
        .attr('width', 150)
        .attr('height', ROW - 2)
        .attr('fill', '#ffffff')
        .attr('fill-opacity', 0);
      if (item.shape === 'axis') {
        // Two opposed arrows (drawn, not a glyph: the PDF's standard fonts lack arrow characters).
        entry
          .append('path')
          .attr('d', 'M1,4H13L10,1M13,10H1L4,13')
          .attr('fill', 'none')
          .attr('stroke', '#0d6efd')
          .attr('stroke-width', 1.3);
      } else if (item.shape === 'code') {
        entry
          .append('rect')
          .attr('x', 0.5)
          .attr('y', 0.5)
          .attr('width', 13)
          .attr('height', 13)
          .attr('rx', 2)
          .attr('fill', '#ffffff')
          .attr('stroke', item.color);
        entry
          .append('text')
          .attr('x', 7)
          .attr('y', 11)
          .attr('text-anchor', 'middle')
          .attr('font-size', 10)
          .attr('fill', item.color)
          .text(String(item.code ?? ''));
      } else {
        const spec = MARK_SYMBOLS[item.shape];
        entry
          .append('path')
          .attr('transform', `translate(7,7) rotate(${spec.rotate})`)
          .attr('d', symbol(spec.type, spec.size)())
          .attr('fill', item.shape === 'magnitude' ? item.color : item.shape === 'other' ? 'none' : '#ffffff')
          .attr('stroke', item.color)
          .attr('stroke-width', item.shape === 'magnitude' ? 0.5 : 1.5);
      }
      entry
        .append('text')
        .attr('x', 20)
        .attr('y', 11)
        .attr('font-size', 11)
        .attr('font-weight', item.selected ? 'bold' : 'normal')
        .attr('fill', item.category === 'axis' ? '#0d6efd' : '#222222')
        .text(item.label);
      y += ROW;
    }
    y += 8;
  }
  if (focused)
    g.selectAll<SVGGElement, unknown>('.legend-item')
      .filter(function () {
        return this.getAttribute('data-legend') === focused;
      })
      .node()
      ?.focus();
}

export interface LegendInputs {
  passbands: string[];
  alertTypes: AlertType[];
  kinds: MarkKind[];
  rcids: number[];
  mode: 'passband' | 'rcid';
  selection: LegendSelection;
  /** null in the folded view, which has no time axis to switch. */
  timeAxis: 'mjd' | 'calendar' | null;
  quantity: Quantity;
  onClick: (item: LegendItem) => void;
}

/** The legend's sections: passband, alert type, marker (named for the quantity shown), rcid, time axis. */
export function legendModel({
  passbands,
  alertTypes,
  kinds,
  rcids,
  mode,
  selection,
  timeAxis,
  quantity,
  onClick,
}: LegendInputs): LegendModel {
  const entry = (
    category: LegendItem['category'],
    value: string,
    label: string,
    itemColor: string,
    shape: LegendItem['shape'],
    selected: unknown,
  ): LegendItem => ({
    category,
    value,
    label,
    color: itemColor,
    shape,
    selected: selected !== undefined && String(selected) === value,
    dimmed: selected !== undefined && String(selected) !== value,
  });
  const kindLabel = (kind: MarkKind) => (kind === 'magnitude' && quantity === 'flux' ? 'Flux' : MARK_LABELS[kind]);
  return {
    onClick,
    sections: [
      {
        title: 'Passband',
        items: passbands.map((band) =>
          entry('passband', band, band, mode === 'passband' ? passbandColor(band) : '#555555', 'magnitude', selection.passband),
        ),
      },
      {
        title: 'Alert type',
        items: alertTypes.map((type) => ({
          ...entry('alertType', type, alertTypeLabel(type, 'short'), '#555555', 'code', selection.alertType),
          code: alertTypeCode(type),
        })),
      },
      { title: 'Marker', items: kinds.map((kind) => entry('kind', kind, kindLabel(kind), '#555555', kind, selection.kind)) },
      ...(mode === 'rcid'
        ? [
            {
              title: 'rcid',
              items: rcids.map((rcid) => entry('rcid', String(rcid), `rcid ${rcid}`, rcidColor(rcid, rcids), 'magnitude', selection.rcid)),
            },
          ]
        : []),
      ...(timeAxis
        ? [
            {
              title: 'Time axis',
              items: [
                {
                  category: 'axis' as const,
                  value: timeAxis,
                  label: timeAxis === 'mjd' ? 'MJD' : 'Calendar (UTC)',
                  color: '#0d6efd',
                  shape: 'axis' as const,
                  selected: false,
                  dimmed: false,
                },
              ],
            },
          ]
        : []),
    ],
  };
}
