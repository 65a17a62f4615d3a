import { describe, expect, it } from 'vitest';

import { chainSides, dependenciesOf, findCycle, orderFilters } from './filter-order.ts';

const f = (name: string, reads: string[] = [], writes: string[] = []) => ({ name, reads, writes });
const names = (list: { name: string }[] | null) => list?.map((x) => x.name) ?? null;

describe('orderFilters', () => {
  it('keeps the priority order of filters that do not depend on each other', () => {
    const list = [f('a', [], ['x']), f('b', ['y']), f('c', ['z'], ['w'])];
    expect(names(orderFilters(list))).toEqual(['a', 'b', 'c']);
  });

  it('runs a consumer after its producer whatever the priorities say, and leaves the rest in order', () => {
    // In priority order: the consumer first, an unrelated filter, the producer, another unrelated one.
    const list = [f('consumer', ['best_redshift']), f('other1'), f('host', [], ['best_redshift']), f('other2')];
    expect(names(orderFilters(list))).toEqual(['other1', 'host', 'consumer', 'other2']);
  });

  it('orders transitive chains: c reads what b writes, b reads what a writes', () => {
    const list = [f('c', ['q']), f('b', ['p'], ['q']), f('a', [], ['p']), f('d')];
    expect(names(orderFilters(list))).toEqual(['a', 'b', 'c', 'd']);
  });

  it('waits for every producer of a property several filters write', () => {
    const list = [f('reader', ['p']), f('w1', [], ['p']), f('free'), f('w2', [], ['p'])];
    expect(names(orderFilters(list))).toEqual(['w1', 'free', 'w2', 'reader']);
  });

  it('does not make a filter that reads its own output depend on itself', () => {
    const list = [f('self', ['p'], ['p']), f('b', ['p'])];
    expect(names(orderFilters(list))).toEqual(['self', 'b']);
  });

  it('a property written by a filter that is not in the list (disabled) is no dependency', () => {
    // The producer is disabled: Level 2 and the enabling check are given the enabled filters only.
    const enabled = [f('consumer', ['best_redshift']), f('unrelated', [], ['other'])];
    expect(names(orderFilters(enabled))).toEqual(['consumer', 'unrelated']);
    expect(findCycle(enabled)).toBeNull();
    expect(dependenciesOf(f('tested', ['best_redshift']), enabled)).toEqual([]);
  });

  it('runs every filter of a cycle once, in priority order where the cycle is broken', () => {
    const list = [f('x'), f('b', ['p'], ['q']), f('a', ['q'], ['p']), f('after', ['q'])];
    const order = names(orderFilters(list))!;
    expect(order).toHaveLength(4);
    expect(new Set(order)).toEqual(new Set(['x', 'b', 'a', 'after']));
    expect(order.indexOf('after')).toBeGreaterThan(order.indexOf('b'));
  });
});

describe('findCycle', () => {
  it('is null without a cycle', () => {
    expect(findCycle([f('a', [], ['p']), f('b', ['p'], ['q']), f('c', ['q'])])).toBeNull();
  });

  it('names every member of a three-filter cycle, each writing what the next reads', () => {
    const list = [f('free', ['z']), f('a', ['r'], ['p']), f('b', ['p'], ['q']), f('c', ['q'], ['r'])];
    const cycle = findCycle(list)!;
    expect(new Set(names(cycle))).toEqual(new Set(['a', 'b', 'c']));
    expect(cycle).toHaveLength(3);
    for (const [i, member] of cycle.entries()) {
      const next = cycle[(i + 1) % cycle.length];
      expect(member.writes.some((p) => next.reads.includes(p))).toBe(true);
    }
  });

  it('finds only a cycle through the filter named with `through`', () => {
    const list = [f('a', ['q'], ['p']), f('b', ['p'], ['q']), f('c', ['p'], ['s'])];
    expect(findCycle(list, 2)).toBeNull();
    expect(new Set(names(findCycle(list, 1)))).toEqual(new Set(['a', 'b']));
  });
});

describe('dependenciesOf', () => {
  it('gives the producers of the tested filter, transitively, in the order they must run', () => {
    const enabled = [f('b', ['p'], ['q']), f('unrelated', [], ['z']), f('a', [], ['p']), f('also', ['q'], ['r'])];
    expect(names(dependenciesOf(f('tested', ['q']), enabled))).toEqual(['a', 'b']);
    expect(names(dependenciesOf(f('tested', ['r']), enabled))).toEqual(['a', 'b', 'also']);
    expect(dependenciesOf(f('tested', ['nothing']), enabled)).toEqual([]);
  });
});

describe('chainSides', () => {
  it('reads what the worker reports at load, and the required locus properties of older outputs', () => {
    expect(
      chainSides({
        input_locus_properties: ['best_redshift', 'nuclear'],
        locus_properties: [{ name: 'duration', type: 'float' }],
        requirements: [{ check: 'locus_property', name: 'ignored', reason: '' }],
      }),
    ).toEqual({ reads: ['best_redshift', 'nuclear'], writes: ['duration'] });
    expect(
      chainSides({
        requirements: [
          { check: 'locus_property', name: 'z', reason: '' },
          { check: 'tag', name: 't', reason: '' },
        ],
      }),
    ).toEqual({
      reads: ['z'],
      writes: [],
    });
    expect(chainSides(null)).toEqual({ reads: [], writes: [] });
  });
});
