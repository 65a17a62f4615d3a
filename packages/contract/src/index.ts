export { parsePage, PAGE_LIMIT_MIN, PAGE_LIMIT_MAX, DEFAULT_PAGE_LIMIT, type PageParseResult } from './paging.ts';
export type { ResourceObject, ListDocument, SingleDocument } from './jsonapi.ts';
export { MESSAGES, LIMITS, ANNOUNCEMENT_VARIANTS, rules, firstError, type AnnouncementVariant, type Rule } from './validation.ts';
export { FILTER_CLASS_MAX, FILTER_CLASS_PATTERN, FILTER_TEST_DEFAULT_LOCI, FILTER_TEST_MAX_LOCI } from './filter-test.ts';
export type { FilterTestReport, FilterTestLocus, FilterTestError, FilterTestLocusStatus } from './filter-test.ts';
export { VERSION_STATUSES, TRANSITIONS, FEEDBACK_REQUIRED, isVersionStatus, type VersionStatus } from './filter-review.ts';
export type { TeamMember } from './team.ts';
export type { FilterEnvironment, FilterEnvironmentPackage } from './filter-environment.ts';
export { INTEGER_RANGES, TIME_YEARS, storableTime } from './input-rules.ts';
