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
  assertSelf(identity: Identity, userId: number, what: string): void {
    if (identity.user.user_id !== userId) throw new ApiError(403, 'Forbidden', `You may not change ${what} of another user`);
  },
};
