/**
 * Field rules and their messages, worded exactly as the product spec (section 5) gives them. The server
 * enforces them and the web app shows them, from this one place.
 */
export const MESSAGES = {
  required: 'Field is required.',
  maxLength: (n: number) => `Field may not have more than ${n} characters.`,
  lengthBetween: (min: number, max: number) => `Field must have between ${min} and ${max} characters.`,
  email: 'Field must be a valid email address.',
  passwordStrength: 'Field must contain at least one number and one uppercase letter.',
  passwordMismatch: "Field doesn't match password.",
  invalidCharacters: 'Field contains invalid characters.',
  passwordHint: 'Your password must contain at least 8 characters.',
  usernameTaken: 'This username is already in use, please choose a different one.',
  // Ours (the spec words no such case): a name that reads like an existing one (ADR 0061).
  usernameConfusable: 'This username looks too much like one already in use, please choose a different one.',
  notAuthenticated: (operation: string) => `Must be authenticated to call ${operation}`,
} as const;

export const LIMITS = {
  usernameMin: 4,
  usernameMax: 64,
  passwordMin: 8,
  passwordMax: 256,
  announcementMessageMax: 2048,
  filterNameMax: 64,
  filterDescriptionMax: 2048,
  commentMax: 255,
  slackChannelMax: 100,
  // Watch lists: the radius limit is the spec's; the others are ours (the spec sets none).
  watchListNameMax: 255,
  watchListDescriptionMax: 10_000,
  watchObjectCommentMax: 1000,
  watchObjectsMax: 100_000,
  watchRadiusMaxDeg: 0.01,
} as const;

export const ANNOUNCEMENT_VARIANTS = ['primary', 'secondary', 'success', 'danger', 'warning', 'info', 'light', 'dark'] as const;
export type AnnouncementVariant = (typeof ANNOUNCEMENT_VARIANTS)[number];

// A practical e-mail check (something@something.tld, no spaces), as browsers' type=email does.
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** null when valid, else the spec's message. */
export type Rule = (value: string) => string | null;

export const rules = {
  required: ((value) => (value.trim() === '' ? MESSAGES.required : null)) as Rule,
  username: ((value) => {
    if (value.trim() === '') return MESSAGES.required;
    return value.length < LIMITS.usernameMin || value.length > LIMITS.usernameMax
      ? MESSAGES.lengthBetween(LIMITS.usernameMin, LIMITS.usernameMax)
      : null;
  }) as Rule,
  email: ((value) => {
    if (value.trim() === '') return MESSAGES.required;
    return EMAIL.test(value) ? null : MESSAGES.email;
  }) as Rule,
  password: ((value) => {
    if (value === '') return MESSAGES.required;
    if (value.length < LIMITS.passwordMin || value.length > LIMITS.passwordMax) {
      return MESSAGES.lengthBetween(LIMITS.passwordMin, LIMITS.passwordMax);
    }
    return /\d/.test(value) && /[A-Z]/.test(value) ? null : MESSAGES.passwordStrength;
  }) as Rule,
  maxLength:
    (n: number): Rule =>
    (value) =>
      value.length > n ? MESSAGES.maxLength(n) : null,
};

/** Runs rules in order; the first failure's message, or null. */
export function firstError(value: string, ...checks: Rule[]): string | null {
  for (const check of checks) {
    const message = check(value);
    if (message) return message;
  }
  return null;
}
