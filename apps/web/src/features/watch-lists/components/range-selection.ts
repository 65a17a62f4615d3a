/**
 * Row selection in "range" mode, as tables with selectable rows do it: a click selects that row alone
 * (a second click on the only selected row clears it), Ctrl/Cmd-click (or the row's checkbox) toggles
 * one row, and Shift-click selects every row from the last clicked one (the anchor) to this one.
 */
export interface RangeSelection {
  ids: ReadonlySet<string>;
  /** The row a Shift-click extends from. */
  anchor: string | null;
}

export interface SelectGesture {
  shift?: boolean;
  /** Ctrl/Cmd held, or the row's checkbox used: add to or remove from the selection. */
  toggle?: boolean;
}

export const NO_SELECTION: RangeSelection = { ids: new Set(), anchor: null };

/** The selection after a click on `id`, with `order` the rows as shown. */
export function selectRow(current: RangeSelection, order: readonly string[], id: string, gesture: SelectGesture = {}): RangeSelection {
  const anchorIndex = current.anchor === null ? -1 : order.indexOf(current.anchor);
  const index = order.indexOf(id);
  if (index === -1) return current;
  if (gesture.shift && anchorIndex !== -1) {
    const [from, to] = anchorIndex <= index ? [anchorIndex, index] : [index, anchorIndex];
    const range = order.slice(from, to + 1);
    const ids = new Set(gesture.toggle ? [...current.ids, ...range] : range);
    return { ids, anchor: current.anchor };
  }
  if (gesture.toggle) {
    const ids = new Set(current.ids);
    if (ids.has(id)) ids.delete(id);
    else ids.add(id);
    return { ids, anchor: id };
  }
  const onlyThis = current.ids.size === 1 && current.ids.has(id);
  return { ids: onlyThis ? new Set() : new Set([id]), anchor: id };
}

/** The header checkbox: every shown row, or none when all are already selected. */
export function toggleAll(current: RangeSelection, order: readonly string[]): RangeSelection {
  const all = order.length > 0 && order.every((id) => current.ids.has(id));
  return { ids: all ? new Set() : new Set(order), anchor: null };
}

/** Keeps only the ids still shown (after a refresh removed some rows). */
export function keepShown(current: RangeSelection, order: readonly string[]): RangeSelection {
  const shown = new Set(order);
  const ids = [...current.ids].filter((id) => shown.has(id));
  if (ids.length === current.ids.size && (current.anchor === null || shown.has(current.anchor))) return current;
  return { ids: new Set(ids), anchor: current.anchor !== null && shown.has(current.anchor) ? current.anchor : null };
}
