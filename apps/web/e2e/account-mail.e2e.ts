import type { Page, Response } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { resetWithLinkOnce } from './support/accounts';
import { type Account, firstLocusIds, storedSession } from './support/app';
import { type BrowserSession, requireChromium } from './support/chromium';
import { ACCESS_TOKEN_SECONDS, decodeMail, type OwnServer, startOwnServer } from './support/own-server';
import { type PageWatch, usePage } from './support/page';

// Password reset mail over SMTP and sessions that expire in seconds, on a server started for this file.
const enabled = requireChromium();

describe.skipIf(!enabled)('a server with SMTP and short sessions', () => {
  let own: OwnServer;
  let session: BrowserSession;
  let page: Page;
  let watch: PageWatch;
  const stamp = Date.now().toString(36);
  const account: Account = { username: `smtp_${stamp}`, password: 'Galaxy42X', email: `smtp_${stamp}@example.org`, name: `Mail ${stamp}` };
  /** The API calls the page made, in order, as "METHOD /path status". */
  let calls: string[] = [];
  const record = (response: Response) => {
    const url = new URL(response.url());
    if (url.pathname.startsWith('/v1/')) calls.push(`${response.request().method()} ${url.pathname} ${response.status()}`);
  };

  beforeAll(async () => {
    own = await startOwnServer();
    const registered = await fetch(`${own.url}/v1/users`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/vnd.api+json' },
      body: JSON.stringify({ data: { type: 'user', attributes: account } }),
    });
    expect(registered.status).toBe(201);
  });
  afterAll(async () => {
    await own?.stop();
  });
  usePage((opened) => {
    ({ page, watch, session } = opened);
    page.on('response', record);
  });

  const visit = (p: string) => page.goto(`${own.url}${p}`, { waitUntil: 'networkidle' });

  it('mails the reset link over SMTP, and the link works in the browser (once)', async () => {
    await visit('/forgot-password');
    await page.getByLabel('Username').fill(account.username);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await expect.poll(() => page.getByTestId('reset-step').getAttribute('data-step')).toBe('SENT');
    await expect.poll(() => own.mails.length, { timeout: 15_000 }).toBe(1);
    const mail = decodeMail(own.mails[0]);
    expect(mail).toMatch(new RegExp(`^To: ${account.email}`, 'm'));
    expect(mail).toMatch(/^From: ANTARES <no-reply@antares\.test>/m);
    expect(mail).toMatch(/^Subject: ANTARES password reset/m);
    const link = /https?:\/\/\S+\/forgot-password\?token=[\w.%-]+/.exec(mail)?.[0] ?? '';
    expect(link.startsWith(`${own.url}/forgot-password?token=`)).toBe(true);
    // An unknown username gets the same screen and no mail.
    await visit('/forgot-password');
    await page.getByLabel('Username').fill(`nobody_${stamp}`);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await expect.poll(() => page.getByTestId('reset-step').getAttribute('data-step')).toBe('SENT');

    await page.goto(link, { waitUntil: 'networkidle' });
    expect(await page.getByTestId('reset-step').getAttribute('data-step')).toBe('SUBMIT');
    await resetWithLinkOnce(page, link, 'Comet2025Z', 'Comet2026Z');
    expect(own.mails).toHaveLength(1);
    account.password = 'Comet2025Z';
  });

  it('refreshes an expired session once and retries the call (favoriting a locus)', async () => {
    await visit(`/login?redirect=${encodeURIComponent('/loci')}`);
    await page.getByLabel('Username').fill(account.username);
    await page.getByLabel('Password').fill(account.password);
    await page.getByRole('button', { name: 'Login', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/loci');
    const [locusId] = await firstLocusIds(page);
    await visit(`/loci/${locusId}`);
    const header = page.getByTestId('locus-header');
    await header.getByRole('button', { name: 'Add to favorites' }).waitFor();
    await page.waitForTimeout((ACCESS_TOKEN_SECONDS + 1.5) * 1000);
    calls = [];
    await header.getByRole('button', { name: 'Add to favorites' }).click();
    await header.getByRole('button', { name: 'Remove from favorites' }).waitFor();
    const save = calls.filter((c) => /locus_annotations|auth\//.test(c));
    expect(save.slice(0, 3)).toEqual([
      expect.stringMatching(/^(POST|PATCH) \/v1\/locus_annotations\S* 401$/),
      'POST /v1/auth/refresh 200',
      expect.stringMatching(/^(POST|PATCH) \/v1\/locus_annotations\S* 20[01]$/),
    ]);
    expect(calls.filter((c) => c.startsWith('POST /v1/auth/refresh'))).toHaveLength(1);
    expect(await storedSession(page)).toMatchObject({ isAuthenticated: true, user: { username: account.username } });
    // It was stored: a reload (the start-up check) shows it favorited.
    await page.reload({ waitUntil: 'networkidle' });
    await header.getByRole('button', { name: 'Remove from favorites' }).waitFor();
  });

  it('logs out when the refresh is refused (the session was revoked meanwhile)', async () => {
    const header = page.getByTestId('locus-header');
    await page.waitForTimeout((ACCESS_TOKEN_SECONDS + 1.5) * 1000);
    // Revoke the session on the server (as a logout elsewhere would), but keep the cookies in the browser.
    const cookies = await session.context.cookies();
    const status = await page.evaluate(async () => {
      const csrf =
        document.cookie
          .split('; ')
          .find((c) => c.startsWith('csrf_refresh_token='))
          ?.split('=')[1] ?? '';
      return (await fetch('/v1/auth/logout?type=cookie', { method: 'POST', credentials: 'include', headers: { 'X-CSRF-TOKEN': csrf } }))
        .status;
    });
    expect(status).toBe(200);
    await session.context.addCookies(cookies);
    calls = [];
    await header.getByRole('button', { name: 'Remove from favorites' }).click();
    await page.getByRole('link', { name: 'Login', exact: true }).waitFor();
    expect(calls.filter((c) => c.startsWith('POST /v1/auth/refresh'))).toEqual(['POST /v1/auth/refresh 401']);
    expect(await storedSession(page)).toMatchObject({ isAuthenticated: false, user: null });
    await header.getByRole('button', { name: 'Login to save this locus' }).waitFor();
    expect(watch.problems()).toEqual([]);
  });
});
