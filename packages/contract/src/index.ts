export { parsePage, PAGE_LIMIT_MIN, PAGE_LIMIT_MAX, DEFAULT_PAGE_LIMIT, type PageParseResult } from './paging.ts';
export type { ResourceObject, ListDocument, SingleDocument } from './jsonapi.ts';
export { MESSAGES, LIMITS, ANNOUNCEMENT_VARIANTS, rules, firstError, type AnnouncementVariant, type Rule } from './validation.ts';
