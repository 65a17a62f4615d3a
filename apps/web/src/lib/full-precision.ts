import type { ClipboardEvent } from 'react';

/**
 * Tables round numbers to 2 decimals (spec) but keep every digit at hand: a rounded cell carries its
 * full value in `data-full-value` (and its title, shown on hover), and copying a selection that
 * covers such cells copies the full values. JavaScript's shortest round-trip form is the full value.
 */
export const FULL_VALUE_ATTRIBUTE = 'data-full-value';

/** The unrounded text of a value, or undefined when rounding changes nothing. */
export function fullValueText(value: unknown, shown: string): string | undefined {
  if (typeof value !== 'number' || !Number.isFinite(value)) return undefined;
  const full = String(value);
  return full === shown ? undefined : full;
}

/** The text of a copied fragment with each rounded cell replaced by its full value; rows by lines, cells by tabs. */
export function fullPrecisionText(fragment: DocumentFragment | Element): string {
  fragment.querySelectorAll(`[${FULL_VALUE_ATTRIBUTE}]`).forEach((element) => {
    element.textContent = element.getAttribute(FULL_VALUE_ATTRIBUTE);
  });
  const rows = fragment.querySelectorAll('tr');
  if (rows.length === 0) return fragment.textContent ?? '';
  return Array.from(rows)
    .map((row) =>
      Array.from(row.querySelectorAll('td, th'))
        .map((cell) => (cell.textContent ?? '').trim())
        .join('\t'),
    )
    .join('\n');
}

/** onCopy of a container: when the selection holds rounded cells, the clipboard gets their full values. */
export function copyFullValues(event: ClipboardEvent<HTMLElement>): void {
  const selection = window.getSelection();
  if (!selection || selection.rangeCount === 0 || selection.isCollapsed) return;
  const fragment = selection.getRangeAt(0).cloneContents();
  // A selection inside one cell clones only its text: look at where it started.
  const start = selection.getRangeAt(0).startContainer;
  const owner = (start instanceof Element ? start : start.parentElement)?.closest(`[${FULL_VALUE_ATTRIBUTE}]`);
  if (owner && fragment.querySelector(`[${FULL_VALUE_ATTRIBUTE}]`) === null) {
    if (!owner.contains(selection.getRangeAt(0).endContainer)) return;
    event.clipboardData.setData('text/plain', owner.getAttribute(FULL_VALUE_ATTRIBUTE) ?? '');
    event.preventDefault();
    return;
  }
  if (fragment.querySelector(`[${FULL_VALUE_ATTRIBUTE}]`) === null) return;
  event.clipboardData.setData('text/plain', fullPrecisionText(fragment));
  event.preventDefault();
}
