import { FILTER_CLASS_MAX, FILTER_CLASS_PATTERN, LIMITS, MESSAGES } from '@antares/contract';

/** Starts with a letter; then letters, digits, spaces, underscores, hyphens and periods (the server's rule). */
const FILTER_NAME = /^[A-Za-z][A-Za-z0-9 _.-]*$/;

/** Filter name: required, at most 64 characters, allowed characters only. */
export function validateFilterName(value: string): string | null {
  const name = value.trim();
  if (name === '') return MESSAGES.required;
  if (name.length > LIMITS.filterNameMax) return MESSAGES.maxLength(LIMITS.filterNameMax);
  return FILTER_NAME.test(name) ? null : MESSAGES.invalidCharacters;
}

/** Filter description: required, at most 2048 characters. */
export function validateFilterDescription(value: string): string | null {
  const description = value.trim();
  if (description === '') return MESSAGES.required;
  return description.length > LIMITS.filterDescriptionMax ? MESSAGES.maxLength(LIMITS.filterDescriptionMax) : null;
}

/** Version comment: required, at most 255 characters. */
export function validateComment(value: string): string | null {
  const comment = value.trim();
  if (comment === '') return MESSAGES.required;
  return comment.length > LIMITS.commentMax ? MESSAGES.maxLength(LIMITS.commentMax) : null;
}

/** Version code: required. */
export function validateCode(value: string): string | null {
  return value.trim() === '' ? MESSAGES.required : null;
}

const FILTER_CLASS = new RegExp(FILTER_CLASS_PATTERN);

/** Filter class of a version or a test: optional; else a Python name (the server's rule). */
export function validateFilterClass(value: string): string | null {
  const name = value.trim();
  if (name === '') return null;
  if (name.length > FILTER_CLASS_MAX) return MESSAGES.maxLength(FILTER_CLASS_MAX);
  return FILTER_CLASS.test(name) ? null : MESSAGES.invalidCharacters;
}

export const FILTER_NAME_TAKEN = 'This name is already in use, please choose another.';
export const FILTER_CREATE_FAILED = 'An error occurred while submitting your filter.';
