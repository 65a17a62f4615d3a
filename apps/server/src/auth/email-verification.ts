import type { Repositories, UserRow } from '@antares/db';

import { unauthorized } from '../errors.ts';
import type { Authenticator } from './authenticator.ts';
import type { Mailer } from './mailer.ts';
import type { ResetMailQueue } from './reset-mails.ts';
import type { TokenService } from './tokens.ts';

/**
 * E-mail verification (ADR 0061): where the server requires it (ANTARES_REQUIRE_EMAIL_VERIFICATION with
 * SMTP), a new account is mailed a link and may run no sandbox work (dry runs, backtests) until it is
 * followed. The mail goes after the registration has answered, through a queue like the reset mails', so
 * a slow mail server never holds the answer; a failure is logged. The link's base address comes from
 * configuration (auth/mail-links.ts), never from the request.
 */
export class EmailVerification {
  constructor(
    private readonly repos: Repositories,
    private readonly auth: Authenticator,
    private readonly tokens: TokenService,
    private readonly mailer: Mailer,
    private readonly queue: ResetMailQueue,
  ) {}

  /** Queues the verification mail of a new account; `linkBase()` is read when the mail is written. */
  mailLink(user: UserRow, linkBase: () => string): void {
    this.queue.enqueue(async () => {
      const { token } = await this.tokens.issue('verify', user);
      const link = `${linkBase()}/v1/auth/verify-email?token=${encodeURIComponent(token)}`;
      await this.mailer.send({
        to: user.email,
        subject: 'ANTARES: confirm your e-mail address',
        text:
          `Hello ${user.name},\n\nThe ANTARES account "${user.username}" was registered with this address.\n` +
          `Open this link within ${this.tokens.lifetimeSeconds('verify') / 3600} hours to confirm it; you can then test and backtest filters:\n\n${link}\n\n` +
          'If you did not register, ignore this message.\n',
      });
    });
  }

  /** Confirms the address of the token's account (again: no change). 401 for an expired or forged link. */
  async confirm(token: string): Promise<UserRow> {
    const claims = await this.auth.verify(token, 'verify');
    const user = await this.auth.userOf(claims);
    const updated = await this.repos.users.markEmailVerified(user.user_id);
    if (!updated) throw unauthorized('The account of this token no longer exists');
    return updated;
  }
}
