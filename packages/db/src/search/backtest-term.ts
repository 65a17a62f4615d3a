import { type RawBuilder, sql } from 'kysely';

import { SearchQueryError } from './search-error.ts';

/** The search field naming a filter backtest's tagged loci (issue #19). */
export const BACKTEST_FIELD = 'backtest_id';

/**
 * `{"term": {"backtest_id": 12}}`: the loci backtest 12 tagged; `"12:tag"`: those it gave that tag;
 * `"12&13"`: tagged by both; `"12-13"`: tagged by 12 and not by 13 (a comparison of two versions). The
 * loci and their tags are the backtests' own rows (backtest_locus), never the loci's real tags, so the
 * locus list shows what a filter would have done without anything written to the loci.
 */
export function backtestCondition(value: unknown): RawBuilder<boolean> {
  const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '';
  const match = /^(\d{1,15})(?:([&-])(\d{1,15})|:(.{1,200}))?$/s.exec(text);
  if (!match)
    throw new SearchQueryError(
      `${BACKTEST_FIELD} must be a backtest id, "<id>:<tag>", "<id>&<id>" (tagged by both) or "<id>-<id>" (by the first only)`,
    );
  const [, first, op, second, tag] = match;
  const tagged = (id: string) =>
    sql<boolean>`locus.locus_id IN (SELECT b.locus_id FROM backtest_locus b WHERE b.backtest_id = ${Number(id)} AND cardinality(b.tags) > 0)`;
  // Qualified: inside the subquery a bare locus_id would be the backtest row's own.
  if (tag !== undefined)
    return sql<boolean>`locus.locus_id IN (SELECT b.locus_id FROM backtest_locus b WHERE b.backtest_id = ${Number(first)} AND ${tag} = ANY (b.tags))`;
  if (op === '&') return sql<boolean>`(${tagged(first)} AND ${tagged(second)})`;
  if (op === '-') return sql<boolean>`(${tagged(first)} AND NOT ${tagged(second)})`;
  return tagged(first);
}
