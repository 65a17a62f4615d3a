import type { Page } from 'playwright-core';
import { expect } from 'vitest';

/**
 * Accounts created by the e2e global setup with `antares user create` (kept between runs with the
 * seeded database). Tests that change an account's password or flags register their own user instead.
 */
export const E2E_ACCOUNTS = {
  admin: { username: 'e2e-admin', email: 'e2e-admin@example.org', password: 'AdminPass1', name: 'E2E Admin', admin: true },
  user: { username: 'e2e-user', email: 'e2e-user@example.org', password: 'UserPass1', name: 'E2E User', admin: false },
} as const;

/** The SUBMIT step of the password reset wizard: the new password twice, then the button. */
export async function submitNewPassword(page: Page, password: string): Promise<void> {
  await page.getByLabel('New Password').fill(password);
  await page.getByLabel('Repeat Password').fill(password);
  await page.getByRole('button', { name: 'Change password' }).click();
}

/**
 * On the SUBMIT step of a reset link: sets the new password (FINISHED), then opens the link again and
 * finds it used up (a second password is refused).
 */
export async function resetWithLinkOnce(page: Page, link: string, password: string, second: string): Promise<void> {
  await submitNewPassword(page, password);
  await page.getByText('Your password has been successfully changed.').waitFor();
  expect(await page.getByTestId('reset-step').getAttribute('data-step')).toBe('FINISHED');
  await page.goto(link, { waitUntil: 'networkidle' });
  await submitNewPassword(page, second);
  await page.getByText('This reset link has already been used').waitFor();
}
