/** A query the API must answer with 400: the message names what is wrong. */
export class SearchQueryError extends Error {
  override name = 'SearchQueryError';
}
