import { type RawBuilder, sql } from 'kysely';

import { SearchQueryError } from './search-error.ts';

/** The search field naming a filter backtest's tagged loci (issue #19). */
export const BACKTEST_FIELD = 'backtest_id';

/**
 * `{"term": {"backtest_id": 12}}`: the loci backtest 12 tagged; `"12:tag"`: those it gave that tag.
 * The loci and their tags are the backtest's own rows (backtest_locus), never the loci's real tags,
 * so the locus list shows what a filter would have done without anything written to the loci.
 */
export function backtestCondition(value: unknown): RawBuilder<boolean> {
  const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '';
  const match = /^(\d{1,15})(?::(.{1,200}))?$/s.exec(text);
  if (!match) throw new SearchQueryError(`${BACKTEST_FIELD} must be a backtest id, or "<id>:<tag>" for the loci it gave one tag`);
  const id = Number(match[1]);
  const tag = match[2];
  // Qualified: inside the subquery a bare locus_id would be the backtest row's own.
  return tag === undefined
    ? sql<boolean>`locus.locus_id IN (SELECT b.locus_id FROM backtest_locus b WHERE b.backtest_id = ${id} AND cardinality(b.tags) > 0)`
    : sql<boolean>`locus.locus_id IN (SELECT b.locus_id FROM backtest_locus b WHERE b.backtest_id = ${id} AND ${tag} = ANY (b.tags))`;
}
