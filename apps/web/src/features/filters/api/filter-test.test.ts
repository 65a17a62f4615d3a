import { describe, expect, it } from 'vitest';

import { parseLocusIds, testLociProblem } from './filter-test';

describe('dry-run locus choice', () => {
  it('reads locus ids separated by commas, spaces or lines, without duplicates', () => {
    expect(parseLocusIds(' ANT1, ANT2\nANT3;ANT1  ')).toEqual(['ANT1', 'ANT2', 'ANT3']);
    expect(parseLocusIds(' \n ,')).toEqual([]);
  });

  it('accepts 1 to 100 loci', () => {
    expect(testLociProblem({ lastN: 20 })).toBeNull();
    expect(testLociProblem({ lastN: 100 })).toBeNull();
    expect(testLociProblem({ lastN: 0 })).toBe('Choose between 1 and 100 loci.');
    expect(testLociProblem({ lastN: 101 })).toBe('Choose between 1 and 100 loci.');
    expect(testLociProblem({ lastN: 2.5 })).toBe('Choose between 1 and 100 loci.');
    expect(testLociProblem({ locusIds: [] })).toBe('Enter at least one locus id.');
    expect(testLociProblem({ locusIds: Array.from({ length: 101 }, (_, i) => `ANT${i}`) })).toBe('At most 100 loci can be tested at once.');
    expect(testLociProblem({ locusIds: ['ANT1'] })).toBeNull();
  });
});
