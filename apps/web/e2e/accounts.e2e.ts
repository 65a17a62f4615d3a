import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';

import { E2E_ACCOUNTS } from './support/accounts';
import { type Account, expectNoSeriousViolations, firstLocusIds, login, logoutThroughMenu, open, storedSession } from './support/app';
import { requireChromium } from './support/chromium';
import { type PageWatch, usePage } from './support/page';

// One new account from registration to logout; sessions, guards and password resets are in
// account-sessions.e2e.ts, mail over SMTP and short sessions in account-mail.e2e.ts.
const enabled = requireChromium();
const UNSAVED = 'You have unsaved changes, do you really want to leave?';

describe.skipIf(!enabled)('register, login, favorite, comment, favorites, settings, logout', () => {
  let page: Page;
  let watch: PageWatch;
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

  usePage((opened) => ({ page, watch } = opened));

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
