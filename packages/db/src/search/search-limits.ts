import { SEARCH_MAX_CLAUSES, SEARCH_MAX_CONES, SEARCH_MAX_DEPTH } from '@antares/contract';

import { SearchQueryError } from './search-error.ts';

// Without these bounds one request could overflow the compiler's stack (it recurses once per nesting
// level: a 500) or build a statement of more parameters than PostgreSQL takes (65,535).
export { SEARCH_MAX_CLAUSES, SEARCH_MAX_CONES, SEARCH_MAX_DEPTH };

/** What one search has used of its limits so far, checked as the compiler goes. */
export class SearchBudget {
  private clauses = 0;
  private cones = 0;

  /** A clause at nesting `depth` (1: the document's `query`). */
  enter(depth: number): void {
    if (depth > SEARCH_MAX_DEPTH) {
      throw new SearchQueryError(
        `The search nests clauses more than ${SEARCH_MAX_DEPTH} levels deep; at most ${SEARCH_MAX_DEPTH} levels are allowed`,
      );
    }
    this.count(1);
  }

  /** `n` more clauses: each value of a `terms` list and each term of a `query_string` counts as one. */
  count(n: number): void {
    this.clauses += n;
    if (this.clauses > SEARCH_MAX_CLAUSES) {
      throw new SearchQueryError(
        `The search has more than ${SEARCH_MAX_CLAUSES} clauses (each terms value, and each query_string term in each field, counts as one); at most ${SEARCH_MAX_CLAUSES} are allowed`,
      );
    }
  }

  cone(): void {
    this.cones += 1;
    if (this.cones > SEARCH_MAX_CONES) {
      throw new SearchQueryError(
        `The search has more than ${SEARCH_MAX_CONES} sky_distance clauses; at most ${SEARCH_MAX_CONES} are allowed`,
      );
    }
  }
}
