/**
 * Accounts created by the e2e global setup with `antares user create` (kept between runs with the
 * seeded database). Tests that change an account's password or flags register their own user instead.
 */
export const E2E_ACCOUNTS = {
  admin: { username: 'e2e-admin', email: 'e2e-admin@example.org', password: 'AdminPass1', name: 'E2E Admin', admin: true },
  user: { username: 'e2e-user', email: 'e2e-user@example.org', password: 'UserPass1', name: 'E2E User', admin: false },
} as const;
