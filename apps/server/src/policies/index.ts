import type { Identity } from '../auth/authenticator.ts';
import { forbidden } from '../errors.ts';

/** Who may do what: the rules in one place (spec section 6). */
export const policies = {
  /** A user's own records (annotations, watch lists, settings): that user or an admin. */
  assertSelfOrAdmin(identity: Identity, userId: number, what: string): void {
    if (identity.user.user_id !== userId && !identity.user.admin) {
      throw forbidden(`You may not access ${what} of another user`);
    }
  },
  /**
   * Sandbox work (dry runs, backtests) waits for a confirmed e-mail address where the server requires it
   * (ANTARES_REQUIRE_EMAIL_VERIFICATION with SMTP; ADR 0061): an account costs a mailbox, not just a request.
   */
  assertEmailVerified(identity: Identity, required: boolean | undefined): void {
    if (required && identity.user.email_verified_at === null) {
      throw forbidden(
        'Confirm your e-mail address first: open the link in the mail sent when you registered (or reset your password to get a new one)',
      );
    }
  },
  assertSelf(identity: Identity, userId: number, what: string): void {
    if (identity.user.user_id !== userId) throw forbidden(`You may not change ${what} of another user`);
  },
  /** A filter's owner or an admin; `action` completes "may ... it" (change, backtest). */
  assertFilterOwnerOrAdmin(identity: Identity, filter: { user_id: number }, action: string): void {
    if (filter.user_id !== identity.user.user_id && !identity.user.admin) {
      throw forbidden(`Only the owner of this filter or an admin may ${action} it`);
    }
  },
  /** Making `what` (filters, watch lists) owned by `ownerId`: that user, or an admin where `adminMay`. */
  assertMayCreateFor(identity: Identity, ownerId: number, what: string, adminMay: boolean): void {
    if (ownerId !== identity.user.user_id && !(adminMay && identity.user.admin)) {
      throw forbidden(`You may not create ${what} for another user`);
    }
  },
};
