/** Paging limits shared by the server and the web app. */
export const PAGE_LIMIT_MIN = 1;
export const PAGE_LIMIT_MAX = 1000;
export const DEFAULT_PAGE_LIMIT = 25;

export type PageParseResult = { ok: true; limit: number; offset: number } | { ok: false; message: string };

/** Reads `page[limit]` and `page[offset]`; anything but whole numbers in range is an error naming the parameter. */
export function parsePage(limitText: unknown, offsetText: unknown, defaultLimit = DEFAULT_PAGE_LIMIT): PageParseResult {
  const limit = limitText === undefined ? defaultLimit : wholeNumber(limitText);
  if (limit === null || limit < PAGE_LIMIT_MIN || limit > PAGE_LIMIT_MAX) {
    return {
      ok: false,
      message: `page[limit] must be a whole number from ${PAGE_LIMIT_MIN} to ${PAGE_LIMIT_MAX}, got "${String(limitText)}"`,
    };
  }
  const offset = offsetText === undefined ? 0 : wholeNumber(offsetText);
  if (offset === null || offset < 0) {
    return { ok: false, message: `page[offset] must be a whole number of 0 or more, got "${String(offsetText)}"` };
  }
  return { ok: true, limit, offset };
}

function wholeNumber(value: unknown): number | null {
  if (typeof value !== 'string' || !/^\s*\d+\s*$/.test(value)) return null;
  const number = Number(value);
  return Number.isSafeInteger(number) ? number : null;
}
