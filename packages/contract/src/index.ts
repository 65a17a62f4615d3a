export type { BacktestBudgetProjection, BacktestResults, PropertySummary, TagCounts } from './backtest-results.ts';
export {
  allowedShare,
  BUDGET_HISTOGRAM_BUCKETS,
  budgetBucketOf,
  type BudgetFigures,
  budgetFigures,
  budgetQuantile,
  type BudgetWindowCounts,
  DEFAULT_FILTER_BUDGET,
  emptyBudgetHistogram,
  type FilterBudgetLimits,
  nightStartOf,
  windowStartOf,
} from './filter-budget.ts';
export type { FilterEnvironment, FilterEnvironmentPackage } from './filter-environment.ts';
export { FEEDBACK_REQUIRED, isVersionStatus, TRANSITIONS, VERSION_STATUSES, type VersionStatus } from './filter-review.ts';
export type { FilterTestDependency, FilterTestError, FilterTestLocus, FilterTestLocusStatus, FilterTestReport } from './filter-test.ts';
export { FILTER_CLASS_MAX, FILTER_CLASS_PATTERN, FILTER_TEST_DEFAULT_LOCI, FILTER_TEST_MAX_LOCI } from './filter-test.ts';
export { INTEGER_RANGES, storableTime, TIME_YEARS } from './input-rules.ts';
export type { ListDocument, ResourceObject, SingleDocument } from './jsonapi.ts';
export { DEFAULT_PAGE_LIMIT, PAGE_LIMIT_MAX, PAGE_LIMIT_MIN } from './paging.ts';
export { SEARCH_MAX_CLAUSES, SEARCH_MAX_CONES, SEARCH_MAX_DEPTH } from './search-limits.ts';
export type { TeamMember } from './team.ts';
export { ANNOUNCEMENT_VARIANTS, type AnnouncementVariant, firstError, LIMITS, MESSAGES, type Rule, rules } from './validation.ts';
