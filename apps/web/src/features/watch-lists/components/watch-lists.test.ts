import { describe, expect, it } from 'vitest';

import { elasticsearchQuery, lociPath, parseLocusListQuery, watchListFilter } from '@/lib/locus-query';

import { keepShown, NO_SELECTION, type RangeSelection, selectRow, toggleAll } from './range-selection';
import { creationFailedMessage, validateRequired, validateSlackChannel } from './watch-list-rules';

const ORDER = ['a', 'b', 'c', 'd', 'e'];
const ids = (selection: RangeSelection) => [...selection.ids].sort();

describe('range selection', () => {
  it('a click selects one row alone; clicking it again clears it', () => {
    let s = selectRow(NO_SELECTION, ORDER, 'b');
    expect(ids(s)).toEqual(['b']);
    s = selectRow(s, ORDER, 'd');
    expect(ids(s)).toEqual(['d']);
    s = selectRow(s, ORDER, 'd');
    expect(ids(s)).toEqual([]);
  });

  it('Shift-click selects the range from the anchor, either way, replacing the selection', () => {
    let s = selectRow(NO_SELECTION, ORDER, 'b');
    s = selectRow(s, ORDER, 'd', { shift: true });
    expect(ids(s)).toEqual(['b', 'c', 'd']);
    s = selectRow(s, ORDER, 'a', { shift: true });
    expect(ids(s)).toEqual(['a', 'b']);
    expect(s.anchor).toBe('b');
  });

  it('Ctrl-click (or a checkbox) toggles one row and moves the anchor; Ctrl+Shift adds a range', () => {
    let s = selectRow(NO_SELECTION, ORDER, 'a');
    s = selectRow(s, ORDER, 'c', { toggle: true });
    expect(ids(s)).toEqual(['a', 'c']);
    s = selectRow(s, ORDER, 'a', { toggle: true });
    expect(ids(s)).toEqual(['c']);
    s = selectRow(s, ORDER, 'e', { toggle: true });
    s = selectRow(s, ORDER, 'c', { toggle: true });
    expect(ids(s)).toEqual(['e']);
    s = selectRow({ ids: new Set(['a']), anchor: 'c' }, ORDER, 'e', { shift: true, toggle: true });
    expect(ids(s)).toEqual(['a', 'c', 'd', 'e']);
  });

  it('Shift-click without an anchor selects just the row', () => {
    expect(ids(selectRow(NO_SELECTION, ORDER, 'c', { shift: true }))).toEqual(['c']);
  });

  it('select-all toggles every shown row; a refresh keeps only rows still shown', () => {
    const all = toggleAll(selectRow(NO_SELECTION, ORDER, 'a'), ORDER);
    expect(ids(all)).toEqual(ORDER);
    expect(ids(toggleAll(all, ORDER))).toEqual([]);
    const kept = keepShown({ ids: new Set(['a', 'c']), anchor: 'c' }, ['a', 'b']);
    expect(ids(kept)).toEqual(['a']);
    expect(kept.anchor).toBeNull();
    const same = { ids: new Set(['a']), anchor: 'a' };
    expect(keepShown(same, ORDER)).toBe(same);
  });
});

describe('watch list rules', () => {
  it('requires name and description and limits the slack channel to 100 characters', () => {
    expect(validateRequired('  ', 255)).toBe('Field is required.');
    expect(validateRequired('x', 255)).toBeNull();
    expect(validateRequired('x'.repeat(256), 255)).toBe('Field may not have more than 255 characters.');
    expect(validateSlackChannel('')).toBeNull();
    expect(validateSlackChannel(`#${'a'.repeat(99)}`)).toBeNull();
    expect(validateSlackChannel(`#${'a'.repeat(100)}`)).toBe('Field may not have more than 100 characters.');
  });

  it('words the creation failure as the spec does', () => {
    expect(creationFailedMessage('objects[3].radius: Field must be between 0 and 0.01.', 'help@example.org')).toBe(
      "There was an error creating your watch list: objects[3].radius: Field must be between 0 and 0.01. Please wait a little while and try again. If you still encounter this issue, email help@example.org with a copy of your CSV file and we'll help you sort it out!",
    );
  });
});

describe('View Loci link', () => {
  it('filters the locus list on watch_list_ids with the text Watch List: {name}', () => {
    const filter = watchListFilter('12', 'My targets');
    expect(filter).toEqual({ type: 'term', field: 'watch_list_ids', value: '12', text: 'Watch List: My targets' });
    const query = parseLocusListQuery(new URL(`http://x${lociPath([filter])}`).searchParams.get('query'));
    expect(query.filters).toEqual([filter]);
    expect(elasticsearchQuery(query.filters)).toEqual({ query: { bool: { filter: [{ term: { watch_list_ids: '12' } }] } } });
  });
});
