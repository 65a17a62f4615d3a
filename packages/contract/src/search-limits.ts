/**
 * How big a /v1/loci search document may be (issue #49, ADR 0060), shared by the compiler (packages/db)
 * and the API's description of the search parameter. Elasticsearch's own defaults guided the figures
 * (`indices.query.bool.max_clause_count` 1024, a nesting depth limit of a few tens); cones are counted
 * apart because each compiles to up to ~50 HTM ranges and costs milliseconds of cover computation.
 */
export const SEARCH_MAX_DEPTH = 20;
export const SEARCH_MAX_CLAUSES = 1024;
export const SEARCH_MAX_CONES = 16;
