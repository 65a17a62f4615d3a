import { firstError, MESSAGES, rules } from '@antares/contract';

/**
 * The account fields' rules, from the shared contract (the server enforces the same ones with the same
 * messages): register, password reset and password change.
 */
export const PASSWORD_HINT = MESSAGES.passwordHint;

export const validateRequired = (value: string): string | null => firstError(value, rules.required);
export const validateUsername = (value: string): string | null => firstError(value, rules.username);
export const validateEmail = (value: string): string | null => firstError(value, rules.email);
export const validatePassword = (value: string): string | null => firstError(value, rules.password);

/** Repeat password: required, then equal to the password. */
export function validateRepeat(password: string, repeat: string): string | null {
  if (repeat === '') return MESSAGES.required;
  return repeat === password ? null : MESSAGES.passwordMismatch;
}

/**
 * The redirect query value, accepted only as a path of this site ('/...', not '//host' or a URL), so a
 * crafted login link cannot send the user elsewhere after signing in.
 */
export function safeRedirect(value: string | null, fallback = '/loci'): string {
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return fallback;
  return value;
}
