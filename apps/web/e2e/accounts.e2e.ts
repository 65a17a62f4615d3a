import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

import type { Page, Response } from 'playwright-core';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';

import { E2E_ACCOUNTS } from './support/accounts';
import {
  type Account,
  baseURL,
  expectNoSeriousViolations,
  firstLocusIds,
  login,
  logoutThroughMenu,
  open,
  registerAccount,
  resetLinkFromOutbox,
  storedSession,
  watchPage,
} from './support/app';
import { type BrowserSession, launchBrowser, requireChromium } from './support/chromium';
import { WEB_ROOT } from './support/server';

const enabled = requireChromium();
const UNSAVED = 'You have unsaved changes, do you really want to leave?';

/** A JWT-shaped token with the given payload (unsigned: the page only reads the exp claim). */
function fakeToken(payload: object): string {
  const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${encode({ alg: 'HS256' })}.${encode(payload)}.signature`;
}

describe.skipIf(!enabled)('register, login, favorite, comment, favorites, settings, logout', () => {
  let session: BrowserSession;
  let page: Page;
  let watch: ReturnType<typeof watchPage>;
  const stamp = Date.now().toString(36);
  const account: Account = {
    username: `e2e_reg_${stamp}`,
    password: 'Galaxy42X',
    email: `e2e_reg_${stamp}@example.org`,
    name: `Ada ${stamp}`,
  };
  let listPath = '';
  let listLocus = '';
  let detailLocus = '';

  beforeAll(async () => {
    session = await launchBrowser();
    page = await session.context.newPage();
    watch = watchPage(page);
  });
  afterAll(async () => {
    await session?.close();
  });

  it('goes from the list to register and back to login keeping the query', async () => {
    await open(page, '/loci');
    [listLocus, detailLocus] = await firstLocusIds(page);
    listPath = new URL(page.url()).pathname + new URL(page.url()).search;
    await page.getByRole('link', { name: 'Register', exact: true }).click();
    await page.waitForURL('**/register?**');
    expect(new URL(page.url()).searchParams.get('redirect')).toBe(listPath);
    await page.getByRole('heading', { name: 'Register' }).waitFor();
    await expectNoSeriousViolations(page);
    // Register -> login -> 'Need an account?' -> register: the query travels both ways.
    await page.getByRole('link', { name: /Already have an account/ }).click();
    await page.waitForURL('**/login?**');
    expect(new URL(page.url()).searchParams.get('redirect')).toBe(listPath);
    await page.getByRole('link', { name: 'Need an account?' }).click();
    await page.waitForURL('**/register?**');
    expect(new URL(page.url()).searchParams.get('redirect')).toBe(listPath);
  });

  it('shows the spec validation messages and asks before leaving with unsaved edits', async () => {
    await page.getByRole('button', { name: 'Register', exact: true }).click();
    await expect.poll(() => page.getByText('Field is required.').filter({ visible: true }).count()).toBe(5);
    await page.getByLabel('Username').fill('abc');
    await page.getByLabel('Email').fill('not-an-address');
    await page.getByLabel('Password', { exact: true }).fill('short');
    await page.getByLabel('Repeat Password').fill('other');
    await page.getByText('Field must have between 4 and 64 characters.').waitFor();
    await page.getByText('Field must be a valid email address.').waitFor();
    await page.getByText('Field must have between 8 and 256 characters.').waitFor();
    await page.getByText("Field doesn't match password.").waitFor();
    await page.getByLabel('Password', { exact: true }).fill('longenough');
    await page.getByText('Field must contain at least one number and one uppercase letter.').waitFor();
    await page.getByText('Your password must contain at least 8 characters.').waitFor();

    const dialog = page.waitForEvent('dialog');
    void page.getByRole('link', { name: 'Explore', exact: true }).click();
    const prompt = await dialog;
    expect(prompt.message()).toBe(UNSAVED);
    await prompt.dismiss();
    await page.waitForTimeout(200);
    expect(new URL(page.url()).pathname).toBe('/register');
  });

  it('registers, refuses a taken username, and lands on login with the same query', async () => {
    await page.getByLabel('Name', { exact: true }).fill(account.name);
    await page.getByLabel('Username').fill(E2E_ACCOUNTS.user.username);
    await page.getByLabel('Email').fill(account.email);
    await page.getByLabel('Password', { exact: true }).fill(account.password);
    await page.getByLabel('Repeat Password').fill(account.password);
    await page.getByRole('button', { name: 'Register', exact: true }).click();
    await page.getByText('This username is already in use, please choose a different one.').waitFor();
    await page.getByLabel('Username').fill(account.username);
    await page.getByRole('button', { name: 'Register', exact: true }).click();
    await page.waitForURL('**/login?**');
    expect(new URL(page.url()).searchParams.get('redirect')).toBe(listPath);
    await page.getByText(`Your account ${account.username} was created.`).waitFor();
  });

  it('refuses a wrong password, then logs in and returns to the list', async () => {
    await expectNoSeriousViolations(page);
    await page.getByLabel('Username').fill(account.username);
    await page.getByLabel('Password').fill('Wrong1234');
    await page.getByRole('button', { name: 'Login', exact: true }).click();
    await page.getByText('Incorrect username or password. Please try again.').waitFor();
    // Leaving the login form with what was typed asks first.
    const dialog = page.waitForEvent('dialog');
    void page.getByRole('link', { name: 'Need an account?' }).click();
    const prompt = await dialog;
    expect(prompt.message()).toBe(UNSAVED);
    await prompt.dismiss();
    await page.waitForTimeout(200);
    expect(new URL(page.url()).pathname).toBe('/login');
    await page.getByLabel('Password').fill(account.password);
    await page.getByRole('button', { name: 'Login', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/loci');
    expect(new URL(page.url()).pathname + new URL(page.url()).search).toBe(listPath);
    await page.getByRole('button', { name: account.name, exact: true }).waitFor();
    expect(await page.getByRole('button', { name: 'Admin Tools' }).count()).toBe(0);
    const stored = await storedSession(page);
    expect(stored).toMatchObject({ version: '0.1.0', isAuthenticated: true, user: { username: account.username, admin: false } });
  });

  it('favorites a locus from the list hover actions', async () => {
    const row = page.locator('[data-testid=locus-row]', { has: page.getByRole('link', { name: listLocus, exact: true }) });
    await row.hover();
    const star = row.getByRole('button', { name: 'Add to favorites' });
    await star.click();
    await row.getByRole('button', { name: 'Remove from favorites' }).waitFor();
    expect(await row.getByRole('button', { name: 'Remove from favorites' }).getAttribute('aria-pressed')).toBe('true');
  });

  it('favorites and comments a locus on its page, with a green border', async () => {
    await open(page, `/loci/${detailLocus}`);
    const header = page.getByTestId('locus-header');
    expect(await header.getAttribute('data-favorited')).toBe('false');
    const star = header.getByRole('button', { name: 'Add to favorites' });
    await star.hover();
    await page.getByRole('tooltip').getByText('Add to favorites').waitFor();
    await star.click();
    await header.getByRole('button', { name: 'Remove from favorites' }).waitFor();
    await expect.poll(() => header.getAttribute('data-favorited')).toBe('true');
    const border = await header.evaluate((el) => getComputedStyle(el).borderTopColor);
    expect(border).toBe('rgb(25, 135, 84)');

    const comment = page.getByLabel('Comment for this locus', { exact: true });
    expect(await comment.getAttribute('placeholder')).toBe('Enter a comment for this locus');
    await comment.fill('Rising fast, follow up with spectroscopy');
    await comment.press('Enter');
    await page.getByRole('button', { name: 'Save' }).waitFor({ state: 'detached' });
    await page.reload({ waitUntil: 'networkidle' });
    await expect
      .poll(() => page.getByLabel('Comment for this locus', { exact: true }).inputValue())
      .toBe('Rising fast, follow up with spectroscopy');
    await expectNoSeriousViolations(page);
  });

  it('lists both favorites with the comment on the favorites page', async () => {
    await page.getByRole('link', { name: 'Favorites', exact: true }).click();
    await page.waitForURL('**/favorite-loci');
    await page.getByRole('heading', { name: 'Favorites', exact: true }).waitFor();
    const cards = page.getByTestId('favorite-locus');
    await expect.poll(() => cards.count()).toBe(2);
    await page.getByText('Showing 1 to 2 of 2 entries').waitFor();
    const detailCard = cards.filter({ hasText: detailLocus });
    expect(await detailCard.getAttribute('data-favorited')).toBe('true');
    expect(await detailCard.getByLabel('Comment for this locus', { exact: true }).inputValue()).toBe(
      'Rising fast, follow up with spectroscopy',
    );
    await expectNoSeriousViolations(page);
    // Unfavoriting here keeps the card (no longer highlighted) so it can be undone.
    const listCard = cards.filter({ hasText: listLocus });
    await listCard.getByRole('button', { name: 'Remove from favorites' }).click();
    await listCard.getByRole('button', { name: 'Add to favorites' }).waitFor();
    expect(await listCard.getAttribute('data-favorited')).toBe('false');
    await listCard.getByRole('button', { name: 'Add to favorites' }).click();
    await listCard.getByRole('button', { name: 'Remove from favorites' }).waitFor();
  });

  it('changes the password in the settings after checking the current one', async () => {
    await page.getByRole('button', { name: account.name, exact: true }).click();
    await page.getByRole('link', { name: 'Settings' }).click();
    await page.waitForURL('**/user/settings');
    await page.getByRole('heading', { name: 'Account Settings' }).waitFor();
    await expectNoSeriousViolations(page);
    await page.getByLabel('Current Password').fill('NotMine99');
    await page.getByLabel('New Password', { exact: true }).fill('Nebula77Q');
    await page.getByLabel('Repeat New Password').fill('Nebula77Q');
    await page.getByRole('button', { name: 'Change Password' }).click();
    await page.getByText('You entered an incorrect password. Please try again.').waitFor();
    await page.getByLabel('Current Password').fill(account.password);
    await page.getByRole('button', { name: 'Change Password' }).click();
    await page.getByText('Successfully changed password.').waitFor();
    expect(await page.getByLabel('Current Password').inputValue()).toBe('');
    account.password = 'Nebula77Q';
  });

  it('logs out from the user menu (the page reloads) and the annotations become disabled', async () => {
    await open(page, `/loci/${detailLocus}`);
    await logoutThroughMenu(page, account.name);
    expect(await storedSession(page)).toMatchObject({ isAuthenticated: false, user: null });
    const header = page.getByTestId('locus-header');
    expect(await header.getAttribute('data-favorited')).toBe('false');
    const star = header.getByRole('button', { name: 'Login to save this locus' });
    expect(await star.isDisabled()).toBe(true);
    await page.getByTestId('comment-line').hover();
    await page.getByRole('tooltip').getByText('Login to annotate this locus').waitFor();
    // The session is really gone on the server: an authenticated call is refused.
    const status = await page.evaluate(async () => (await fetch('/v1/auth/check', { credentials: 'include' })).status);
    expect(status).toBe(401);
  });

  it('logs in with the new password', async () => {
    await login(page, account, '/favorite-loci');
    expect(new URL(page.url()).pathname).toBe('/favorite-loci');
    await expect.poll(() => page.getByTestId('favorite-locus').count()).toBe(2);
    await logoutThroughMenu(page, account.name);
    expect(watch.problems()).toEqual([]);
  });
});

describe.skipIf(!enabled)('sessions and guards', () => {
  let session: BrowserSession;
  let page: Page;
  let watch: ReturnType<typeof watchPage>;

  beforeAll(async () => {
    session = await launchBrowser();
    page = await session.context.newPage();
    watch = watchPage(page);
  });
  afterAll(async () => {
    await session?.close();
  });

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
  let session: BrowserSession;
  let page: Page;
  let watch: ReturnType<typeof watchPage>;
  const dataDir = inject('dataDir');

  beforeAll(async () => {
    session = await launchBrowser();
    page = await session.context.newPage();
    watch = watchPage(page);
  });
  afterAll(async () => {
    await session?.close();
  });

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
    await submitNewPassword(page, 'Comet2025Z');
    await page.getByText('Your password has been successfully changed.').waitFor();
    expect(await page.getByTestId('reset-step').getAttribute('data-step')).toBe('FINISHED');

    // The link works once.
    await page.goto(link, { waitUntil: 'networkidle' });
    await submitNewPassword(page, 'Comet2026Z');
    await page.getByText('This reset link has already been used').waitFor();

    await page.getByRole('link', { name: 'Return to login' }).click();
    await page.waitForURL('**/login');
    await login(page, { username: account.username, password: 'Comet2025Z' });
    await page.getByRole('button', { name: account.name, exact: true }).waitFor();
    expect(watch.problems()).toEqual([]);
  });
});

/**
 * A server of its own for the flows that need other settings than the shared one: password reset mail
 * over a real SMTP server on loopback (smtp-server), and access tokens that expire after ten seconds so
 * that the app's refresh-once-then-retry runs in the browser. `antares serve` over a fresh database
 * with the shared sample alerts ingested.
 */
const ACCESS_TOKEN_SECONDS = 10;
const REPO_ROOT = path.resolve(WEB_ROOT, '../..');

interface OwnServer {
  url: string;
  mails: string[];
  stop(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

async function startOwnServer(): Promise<OwnServer> {
  const mails: string[] = [];
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, _session, callback) {
      let text = '';
      stream.on('data', (chunk: Buffer) => {
        text += chunk.toString();
      });
      stream.on('end', () => {
        mails.push(text);
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const smtpPort = (smtp.server.address() as { port: number }).port;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'antares-e2e-smtp-'));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ANTARES_DATA_DIR: dataDir,
    ANTARES_WEB_DIST: path.join(WEB_ROOT, 'dist'),
    ANTARES_INBOX_DIR: 'off',
    ANTARES_HOST: '127.0.0.1',
    ANTARES_SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
    // Mail goes out over SMTP: reset links are built from the configured address only.
    ANTARES_PUBLIC_URL: url,
    ANTARES_MAIL_FROM: 'ANTARES <no-reply@antares.test>',
    ANTARES_ACCESS_TOKEN_MINUTES: String(ACCESS_TOKEN_SECONDS / 60),
    DATABASE_URL: '',
  };
  const ingest = spawnSync(
    'npx',
    ['tsx', 'apps/cli/src/main.ts', 'ingest', path.resolve(REPO_ROOT, '../shared/data/ztf-avro-alert/samples')],
    { cwd: REPO_ROOT, env, encoding: 'utf8' },
  );
  if (ingest.status !== 0) throw new Error(`antares ingest failed: ${ingest.stdout}${ingest.stderr}`);
  const child: ChildProcess = spawn('npx', ['tsx', 'apps/cli/src/main.ts', 'serve', '--port', String(port)], {
    cwd: REPO_ROOT,
    env,
    stdio: ['ignore', 'ignore', 'inherit'],
    detached: true,
  });
  const stop = async () => {
    if (child.pid && child.exitCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      process.kill(-child.pid, 'SIGTERM');
      await exited;
    }
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
    rmSync(dataDir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`antares serve exited with status ${child.exitCode}`);
    if (
      await fetch(`${url}/v1/loci?page%5Blimit%5D=1`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`antares serve did not answer at ${url}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
  return { url, mails, stop };
}

/** The text of a mail as received, quoted-printable undone (nodemailer folds long lines). */
function decodeMail(raw: string): string {
  return raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

describe.skipIf(!enabled)('a server with SMTP and short sessions', () => {
  let own: OwnServer;
  let session: BrowserSession;
  let page: Page;
  let watch: ReturnType<typeof watchPage>;
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
    session = await launchBrowser();
    page = await session.context.newPage();
    page.on('response', record);
    watch = watchPage(page);
  });
  afterAll(async () => {
    await session?.close();
    await own?.stop();
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
    await submitNewPassword(page, 'Comet2025Z');
    await page.getByText('Your password has been successfully changed.').waitFor();
    expect(await page.getByTestId('reset-step').getAttribute('data-step')).toBe('FINISHED');
    await page.goto(link, { waitUntil: 'networkidle' });
    await submitNewPassword(page, 'Comet2026Z');
    await page.getByText('This reset link has already been used').waitFor();
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

/** The SUBMIT step of the password reset wizard: the new password twice, then the button. */
async function submitNewPassword(page: Page, password: string): Promise<void> {
  await page.getByLabel('New Password').fill(password);
  await page.getByLabel('Repeat Password').fill(password);
  await page.getByRole('button', { name: 'Change password' }).click();
}
