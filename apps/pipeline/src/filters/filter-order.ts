// Chained filters (ADR 0055): a filter that reads a locus property another enabled filter writes runs
// after it, whatever their priorities; priorities order the rest. Pure: Level 2, the enabling check,
// dry runs and backtests all take their order and their cycles from here.

/** What ordering needs of a filter: the locus properties it reads and those it writes. */
export interface ChainMember {
  name: string;
  reads: readonly string[];
  writes: readonly string[];
}

/** What a loaded filter's declarations (the worker's load outputs, or filter_version.declared_outputs) say it reads and writes. */
export function chainSides(outputs: unknown): { reads: string[]; writes: string[] } {
  if (typeof outputs !== 'object' || outputs === null) return { reads: [], writes: [] };
  const o = outputs as { input_locus_properties?: unknown; requirements?: unknown; locus_properties?: unknown };
  const names = (list: unknown, pick: (item: Record<string, unknown>) => unknown): string[] =>
    Array.isArray(list)
      ? list.flatMap((item) => {
          const name =
            typeof item === 'string' ? item : typeof item === 'object' && item !== null ? pick(item as Record<string, unknown>) : undefined;
          return typeof name === 'string' ? [name] : [];
        })
      : [];
  // Outputs of workers before input_locus_properties: their required (and class API A input) locus properties.
  const reads = Array.isArray(o.input_locus_properties)
    ? names(o.input_locus_properties, () => undefined)
    : names(o.requirements, (r) => (r.check === 'locus_property' ? r.name : undefined));
  return { reads, writes: names(o.locus_properties, (p) => p.name) };
}

/**
 * For each filter, the indices of the others that write a property it reads. A filter reading what it
 * writes itself (its own earlier value) depends on nothing for it.
 */
function producersOf(filters: readonly ChainMember[]): number[][] {
  const writers = new Map<string, number[]>();
  filters.forEach((f, i) => {
    for (const name of new Set(f.writes)) writers.set(name, [...(writers.get(name) ?? []), i]);
  });
  return filters.map((f, i) =>
    [...new Set(f.reads.flatMap((name) => writers.get(name) ?? []))].filter((j) => j !== i).sort((a, b) => a - b),
  );
}

/**
 * The filters in the order they must run: each after every filter that writes a property it reads,
 * otherwise in the order given (priority order): a stable topological sort, always taking the first
 * filter in the given order whose producers have all run. Filters caught in a cycle (which enabling
 * refuses, but versions enabled before chains were ordered can form one) keep their given order among
 * themselves at the point where the first of them would be taken: every filter still runs once.
 */
export function orderFilters<T extends ChainMember>(filters: readonly T[]): T[] {
  const producers = producersOf(filters);
  const done = new Array<boolean>(filters.length).fill(false);
  const order: T[] = [];
  while (order.length < filters.length) {
    let next = filters.findIndex((_, i) => !done[i] && producers[i].every((j) => done[j]));
    if (next < 0) next = done.indexOf(false); // a cycle: break it at the first in priority order
    done[next] = true;
    order.push(filters[next]);
  }
  return order;
}

/**
 * A cycle among the filters, or null when there is none: its members in order, each writing a property
 * the next one reads, and the last one a property the first reads. With `through`, only a cycle that
 * passes through the filter at that index (the one being enabled).
 */
export function findCycle<T extends ChainMember>(filters: readonly T[], through?: number): T[] | null {
  const producers = producersOf(filters);
  // state: 0 unvisited, 1 on the current path, 2 finished without a cycle through it.
  const state = new Array<number>(filters.length).fill(0);
  const path: number[] = [];
  const visit = (i: number): number[] | null => {
    state[i] = 1;
    path.push(i);
    for (const j of producers[i]) {
      if (state[j] === 1) {
        const cycle = path.slice(path.indexOf(j));
        if (through === undefined || cycle.includes(through)) return cycle;
      } else if (state[j] === 0) {
        const found = visit(j);
        if (found) return found;
      }
    }
    path.pop();
    state[i] = 2;
    return null;
  };
  const starts = through === undefined ? filters.map((_, i) => i) : [through];
  for (const start of starts) {
    if (state[start] !== 0) continue;
    const cycle = visit(start);
    // Producers first: the order the members would have to run in, each after the one before it.
    if (cycle) return cycle.reverse().map((i) => filters[i]);
  }
  return null;
}

/**
 * The filters `tested` depends on among `enabled`, directly or through each other, in the order they
 * must run (dry runs and backtests of a chained filter run them first). `tested` itself is not in
 * `enabled` (a version of the same filter is left out by the caller).
 */
export function dependenciesOf<T extends ChainMember>(tested: ChainMember, enabled: readonly T[]): T[] {
  const all: ChainMember[] = [...enabled, tested];
  const producers = producersOf(all);
  const needed = new Set<number>();
  const stack = [all.length - 1];
  while (stack.length > 0) {
    for (const j of producers[stack.pop()!])
      if (j !== all.length - 1 && !needed.has(j)) {
        needed.add(j);
        stack.push(j);
      }
  }
  return orderFilters(enabled.filter((_, i) => needed.has(i)));
}
