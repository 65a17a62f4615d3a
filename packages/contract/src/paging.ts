/** Paging limits shared by the server and the web app. */
export const PAGE_LIMIT_MIN = 1;
export const PAGE_LIMIT_MAX = 1000;
export const DEFAULT_PAGE_LIMIT = 25;
