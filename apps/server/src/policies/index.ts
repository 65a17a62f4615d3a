import type { Identity } from '../auth/authenticator.ts';
import { ApiError } from '../errors.ts';

/** Who may do what: the rules in one place (spec section 6). */
export const policies = {
  /** A user's own records (annotations, watch lists, settings): that user or an admin. */
  assertSelfOrAdmin(identity: Identity, userId: number, what: string): void {
    if (identity.user.user_id !== userId && !identity.user.admin) {
      throw new ApiError(403, 'Forbidden', `You may not access ${what} of another user`);
    }
  },
  /**
   * Sandbox work (dry runs, backtests) waits for a confirmed e-mail address where the server requires it
   * (ANTARES_REQUIRE_EMAIL_VERIFICATION with SMTP; ADR 0061): an account costs a mailbox, not just a request.
   */
  assertEmailVerified(identity: Identity, required: boolean | undefined): void {
    if (required && identity.user.email_verified_at === null) {
      throw new ApiError(
        403,
        'Forbidden',
        'Confirm your e-mail address first: open the link in the mail sent when you registered (or reset your password to get a new one)',
      );
    }
  },
  assertSelf(identity: Identity, userId: number, what: string): void {
    if (identity.user.user_id !== userId) throw new ApiError(403, 'Forbidden', `You may not change ${what} of another user`);
  },
};
