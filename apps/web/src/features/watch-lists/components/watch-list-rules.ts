import { LIMITS, MESSAGES } from '@antares/contract';

/** The server's own limits for name and description (the spec gives none). */
export const WATCH_LIST_NAME_MAX = LIMITS.watchListNameMax;
export const WATCH_LIST_DESCRIPTION_MAX = LIMITS.watchListDescriptionMax;

/** Name and description: required ('Field is required.'), and within the server's length limit. */
export function validateRequired(value: string, max: number): string | null {
  const text = value.trim();
  if (text === '') return MESSAGES.required;
  return text.length > max ? MESSAGES.maxLength(max) : null;
}

/** Slack channel: optional, at most 100 characters. */
export function validateSlackChannel(value: string): string | null {
  return value.trim().length > LIMITS.slackChannelMax ? MESSAGES.maxLength(LIMITS.slackChannelMax) : null;
}

/**
 * The creation failure the spec words: the server's detail (its own closing period dropped, since the
 * sentence adds one) and the support address.
 */
export function creationFailedMessage(detail: string, email: string): string {
  const text = detail.trim().replace(/\.+$/, '');
  return `There was an error creating your watch list: ${text}. Please wait a little while and try again. If you still encounter this issue, email ${email} with a copy of your CSV file and we'll help you sort it out!`;
}
