import { describe, expect, it } from 'vitest';

import { LOCUS_SORT_FIELDS } from '@/lib/locus-query';

import { LOCUS_COLUMN_LABELS, LOCUS_COLUMNS } from './locus-columns';

describe('locus list columns', () => {
  it('sort on exactly the fields a list link may name, under the same names', () => {
    const sortable = LOCUS_COLUMNS.filter((column) => column.enableSorting !== false).map((column) => column.id!);
    expect(sortable.sort()).toEqual(Object.keys(LOCUS_SORT_FIELDS).sort());
    for (const field of sortable) expect(LOCUS_COLUMN_LABELS[field]).toBe(LOCUS_SORT_FIELDS[field]);
  });
});
