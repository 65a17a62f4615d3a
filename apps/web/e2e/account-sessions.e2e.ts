import type { Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';

import { E2E_ACCOUNTS, resetWithLinkOnce } from './support/accounts';
import {
  baseURL,
  expectNoSeriousViolations,
  login,
  logoutThroughMenu,
  open,
  registerAccount,
  resetLinkFromOutbox,
  storedSession,
} from './support/app';
import { type BrowserSession, requireChromium } from './support/chromium';
import { type PageWatch, usePage } from './support/page';

// Sessions that end, pages that need a login or an admin, and the password reset wizard (mail from the
// shared server's outbox).
const enabled = requireChromium();

/** A JWT-shaped token with the given payload (unsigned: the page only reads the exp claim). */
function fakeToken(payload: object): string {
  const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${encode({ alg: 'HS256' })}.${encode(payload)}.signature`;
}

describe.skipIf(!enabled)('sessions and guards', () => {
  let session: BrowserSession;
  let page: Page;
  let watch: PageWatch;

  usePage((opened) => ({ page, watch, session } = opened));

  it('serves the app under a Content-Security-Policy without inline scripts', async () => {
    for (const path of ['/login', '/register', '/forgot-password', '/favorite-loci', '/user/settings', '/admin/announcements/create']) {
      const response = await page.goto(`${baseURL()}${path}`, { waitUntil: 'networkidle' });
      const policy = response?.headers()['content-security-policy'] ?? '';
      expect(policy, path).toContain("default-src 'self'");
      const scriptSrc = policy.split(';').find((d) => d.trim().startsWith('script-src ')) ?? '';
      expect(scriptSrc, path).toContain("'self'");
      expect(scriptSrc, path).not.toContain("'unsafe-inline'");
      expect(scriptSrc, path).not.toContain("'unsafe-eval'");
    }
    expect(watch.problems()).toEqual([]);
  });

  it('sends a user whose session ended to login with the inactivity notice, then back', async () => {
    await login(page, E2E_ACCOUNTS.user);
    await page.getByRole('button', { name: E2E_ACCOUNTS.user.name, exact: true }).waitFor();
    // The server-side session ends (cookies gone) while the app still believes it is signed in.
    await session.context.clearCookies();
    await page.getByRole('link', { name: 'Filters', exact: true }).click();
    await page.waitForURL('**/login?**');
    const url = new URL(page.url());
    expect(url.searchParams.get('reason')).toBe('inactivity');
    expect(url.searchParams.get('redirect')).toBe('/filters');
    await page.getByText('You have been logged out due to inactivity.').waitFor();
    expect(await storedSession(page)).toMatchObject({ isAuthenticated: false });
    await expectNoSeriousViolations(page);
    await page.getByLabel('Username').fill(E2E_ACCOUNTS.user.username);
    await page.getByLabel('Password').fill(E2E_ACCOUNTS.user.password);
    await page.getByRole('button', { name: 'Login', exact: true }).click();
    await page.waitForURL((u) => u.pathname === '/filters');
  });

  it('verifies a stored session at start-up and treats a dead one as inactivity', async () => {
    await session.context.clearCookies();
    await open(page, '/watch-lists');
    const url = new URL(page.url());
    expect(url.pathname).toBe('/login');
    expect(url.searchParams.get('reason')).toBe('inactivity');
    expect(url.searchParams.get('redirect')).toBe('/watch-lists');
    // A public page afterwards is just logged out, with no notice.
    await open(page, '/tags');
    expect(new URL(page.url()).pathname).toBe('/tags');
    await page.getByRole('link', { name: 'Login', exact: true }).waitFor();
  });

  it('keeps non-admins out of admin pages and logged-out users out of login-required pages', async () => {
    await login(page, E2E_ACCOUNTS.user);
    await open(page, '/admin/user-management');
    expect(new URL(page.url()).pathname).toBe('/loci');
    expect(await page.getByRole('button', { name: 'Admin Tools' }).count()).toBe(0);
    await open(page, '/user/settings');
    expect(new URL(page.url()).pathname).toBe('/user/settings');
    await logoutThroughMenu(page, E2E_ACCOUNTS.user.name);
    expect(new URL(page.url()).pathname).toBe('/login');
    expect(new URL(page.url()).searchParams.get('redirect')).toBe('/user/settings');
    expect(watch.problems()).toEqual([]);
  });
});

describe.skipIf(!enabled)('forgot-password wizard', () => {
  let page: Page;
  let watch: PageWatch;
  const dataDir = inject('dataDir');

  usePage((opened) => ({ page, watch } = opened));

  it('starts in REQUEST, requires the username and moves to SENT', async () => {
    await open(page, '/login');
    await page.getByRole('link', { name: 'Forgot your Password?' }).click();
    await page.waitForURL('**/forgot-password');
    expect(await page.getByTestId('reset-step').getAttribute('data-step')).toBe('REQUEST');
    await page.getByRole('link', { name: 'Return to login' }).waitFor();
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await page.getByText('Field is required.').waitFor();
    await page.getByLabel('Username').fill('nobody-by-this-name');
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await page.getByText("If there is an email address associated with the username you entered, we've sent a message to it").waitFor();
    expect(await page.getByTestId('reset-step').getAttribute('data-step')).toBe('SENT');
    await page.getByRole('link', { name: 'Return to login' }).waitFor();
    await expectNoSeriousViolations(page);
  });

  it('shows EXPIRED for an expired or undecodable token and can send a new link', async () => {
    for (const token of [fakeToken({ sub: '1', exp: Math.floor(Date.now() / 1000) - 60 }), 'not-a-token']) {
      await open(page, `/forgot-password?token=${encodeURIComponent(token)}`);
      expect(await page.getByTestId('reset-step').getAttribute('data-step')).toBe('EXPIRED');
      await page.getByText('The link to reset your password has expired. Please try again.').waitFor();
    }
    await expectNoSeriousViolations(page);
    await page.getByLabel('Username').fill('nobody-by-this-name');
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await expect.poll(() => page.getByTestId('reset-step').getAttribute('data-step')).toBe('SENT');
  });

  it.skipIf(!dataDir)('resets a password with the mailed link (SUBMIT -> FINISHED), once', async () => {
    const account = await registerAccount('e2e_reset_');
    await open(page, '/forgot-password');
    await page.getByLabel('Username').fill(account.username);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await expect.poll(() => page.getByTestId('reset-step').getAttribute('data-step')).toBe('SENT');
    const link = await resetLinkFromOutbox(dataDir, account.email);
    expect(link.startsWith(`${baseURL()}/forgot-password?token=`)).toBe(true);

    await page.goto(link, { waitUntil: 'networkidle' });
    expect(await page.getByTestId('reset-step').getAttribute('data-step')).toBe('SUBMIT');
    await expectNoSeriousViolations(page);
    await page.getByLabel('New Password').fill('weak');
    await page.getByLabel('Repeat Password').fill('weak2');
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByText('Field must have between 8 and 256 characters.').waitFor();
    await page.getByText("Field doesn't match password.").waitFor();
    // The link works once.
    await resetWithLinkOnce(page, link, 'Comet2025Z', 'Comet2026Z');

    await page.getByRole('link', { name: 'Return to login' }).click();
    await page.waitForURL('**/login');
    await login(page, { username: account.username, password: 'Comet2025Z' });
    await page.getByRole('button', { name: account.name, exact: true }).waitFor();
    expect(watch.problems()).toEqual([]);
  });
});
