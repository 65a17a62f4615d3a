import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { E2E_ACCOUNTS } from './support/accounts';
import {
  type Account,
  apiSession,
  expectNoSeriousViolations,
  firstLocusIds,
  login,
  logoutThroughMenu,
  open,
  registerAccount,
  storedSession,
} from './support/app';
import { launchBrowser, requireChromium } from './support/chromium';
import { type PageWatch, usePage } from './support/page';

const enabled = requireChromium();
const admin = E2E_ACCOUNTS.admin;

const ADMIN_TOOLS: Record<string, string> = {
  'Filters Management': '/admin/filters',
  'Filter Runner Management': '/admin/filter_runner',
  'User Management': '/admin/user-management',
  'Announcement Management': '/admin/announcements',
};

/** Opens an Admin Tools menu item (checking the menu's four entries) and waits for its page. */
async function openAdminTool(page: Page, item: keyof typeof ADMIN_TOOLS & string): Promise<void> {
  await page.getByRole('button', { name: 'Admin Tools' }).click();
  const items = page.locator('[aria-labelledby=admin-tools-menu] a');
  expect(await items.allTextContents()).toEqual([
    'Filters Management',
    'Filter Runner Management',
    'User Management',
    'Announcement Management',
  ]);
  await page.getByRole('link', { name: item }).click();
  await page.waitForURL((url) => url.pathname === ADMIN_TOOLS[item]);
  await page.waitForLoadState('networkidle');
}

describe.skipIf(!enabled)('user management', () => {
  let page: Page;
  let watch: PageWatch;
  let target: Account;

  usePage(async (opened) => {
    ({ page, watch } = opened);
    // 'zz_' sorts first when the table is sorted by username descending, however many runs came before.
    target = await registerAccount('zz_grant_');
  });

  it('opens User Management from the Admin Tools menu', async () => {
    await login(page, admin);
    await openAdminTool(page, 'User Management');
    expect(new URL(page.url()).pathname).toBe('/admin/user-management');
    await expect.poll(() => page.title()).toBe('User Management | ANTARES');
    await page.getByRole('heading', { name: 'User Management' }).waitFor();
    const headers = await page.locator('#user-management-table thead th').allTextContents();
    expect(headers.map((h) => h.replace(/[▲▼↕]/g, '').trim())).toEqual(['Username', 'Email', 'Name', 'Admin', 'Staff']);
    await expectNoSeriousViolations(page);
  });

  it('asks for the typed username with a warning, reverts on cancel and grants on confirm', async () => {
    await page.getByRole('button', { name: 'Username' }).click();
    const toggle = page.getByLabel(`Admin: ${target.username}`);
    await toggle.waitFor();
    expect(await toggle.isChecked()).toBe(false);

    await toggle.click();
    const dialog = page.getByTestId('confirmation-dialog');
    await dialog.waitFor();
    await dialog.getByText('This may be a dangerous operation.').waitFor();
    await dialog.getByRole('heading', { name: `Grant admin to ${target.username}` }).waitFor();
    const confirm = dialog.getByRole('button', { name: 'Grant' });
    expect(await confirm.isDisabled()).toBe(true);
    await dialog.getByLabel(/to confirm/).fill(target.username.slice(0, -1));
    expect(await confirm.isDisabled()).toBe(true);
    await expectNoSeriousViolations(page);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(await toggle.isChecked()).toBe(false);

    await toggle.click();
    await dialog.waitFor();
    await dialog.getByLabel(/to confirm/).fill(target.username);
    expect(await confirm.isEnabled()).toBe(true);
    await confirm.click();
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => toggle.isChecked()).toBe(true);
    // The list was reloaded from the server.
    await page.reload({ waitUntil: 'networkidle' });
    await page.getByRole('button', { name: 'Username' }).click();
    await expect.poll(() => page.getByLabel(`Admin: ${target.username}`).isChecked()).toBe(true);
    expect(await page.getByLabel(`Staff: ${target.username}`).isChecked()).toBe(false);
  });

  it('gives the granted user the Admin Tools menu and the admin pages', async () => {
    await logoutThroughMenu(page, admin.name);
    await login(page, target);
    expect(await storedSession(page)).toMatchObject({ isAuthenticated: true, user: { username: target.username, admin: true } });
    await openAdminTool(page, 'Announcement Management');
    expect(new URL(page.url()).pathname).toBe('/admin/announcements');
    await page.getByRole('heading', { name: 'Announcements' }).waitFor();
    await logoutThroughMenu(page, target.name);
    expect(watch.problems()).toEqual([]);
  });
});

const TEST_MARK = ': the broker pauses for one hour';

/** Deactivates the banners this suite created (also those left by an interrupted run). */
async function deactivateTestAnnouncements(): Promise<void> {
  const call = await apiSession(admin);
  const filter = encodeURIComponent(JSON.stringify([{ field: 'active', op: 'eq', value: true }]));
  const list = (await (await call(`/announcements?filter=${filter}&page[limit]=100`)).json()) as {
    data: { id: string; attributes: { message: string } }[];
  };
  for (const item of list.data.filter((a) => a.attributes.message.includes(TEST_MARK))) {
    await call(`/announcements/${item.id}`, {
      method: 'PATCH',
      body: { data: { type: 'announcement', id: item.id, attributes: { active: false } } },
    });
  }
}

describe.skipIf(!enabled)('announcements', () => {
  let page: Page;
  let watch: PageWatch;
  let locusId: string;
  const message = `Scheduled maintenance ${Date.now().toString(36)}${TEST_MARK}`;

  const banner = (p: Page) => p.getByTestId('announcement-banner').filter({ hasText: message });

  beforeAll(async () => {
    await deactivateTestAnnouncements();
  });
  usePage((opened) => ({ page, watch } = opened));
  afterAll(async () => {
    await deactivateTestAnnouncements();
  });

  it('lists announcements and validates the New Announcement form', async () => {
    await open(page, '/loci');
    [locusId] = await firstLocusIds(page);
    await login(page, admin);
    await openAdminTool(page, 'Announcement Management');
    await expect.poll(() => page.title()).toBe('Announcements | ANTARES');
    const headers = await page.locator('#announcement-table thead th').allTextContents();
    expect(headers.map((h) => h.replace(/[▲▼↕]/g, '').trim())).toEqual(['Created At (UTC)', 'Active', 'Message', 'Type']);
    expect(await page.locator('#announcement-table thead th[aria-sort=descending]').textContent()).toContain('Active');
    await expectNoSeriousViolations(page);

    await page.getByRole('link', { name: 'New Announcement' }).click();
    await page.waitForURL('**/admin/announcements/create');
    await expect.poll(() => page.title()).toBe('New Announcement | ANTARES');
    await page.getByRole('heading', { name: 'New Announcement' }).waitFor();
    const submit = page.getByRole('button', { name: 'Submit' });
    expect(await submit.isDisabled()).toBe(true);
    expect(await page.getByLabel('Display Type').inputValue()).toBe('info');
    expect(await page.getByLabel('Display Type').locator('option').allTextContents()).toEqual([
      'primary',
      'secondary',
      'success',
      'danger',
      'warning',
      'info',
      'light',
      'dark',
    ]);
    expect(await page.getByLabel('Make Active Immediately').isChecked()).toBe(false);
    expect(await page.getByLabel('Message').getAttribute('rows')).toBe('3');
    await page.getByLabel('Message').focus();
    await page.getByLabel('Display Type').focus();
    await page.getByText('Field is required.').waitFor();
    await page.getByLabel('Message').fill('x'.repeat(2049));
    await page.getByText('Field may not have more than 2048 characters.').waitFor();
    expect(await submit.isDisabled()).toBe(true);
    await expectNoSeriousViolations(page);
    // Cancel goes back to the list.
    await page.getByRole('link', { name: 'Cancel' }).click();
    await page.waitForURL((url) => url.pathname === '/admin/announcements');
  });

  it('creates an active announcement that shows as a banner on every page', async () => {
    await page.getByRole('link', { name: 'New Announcement' }).click();
    await page.getByLabel('Message').fill(message);
    await page.getByLabel('Display Type').selectOption('warning');
    await page.getByLabel('Make Active Immediately').check();
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.waitForURL((url) => url.pathname === '/admin/announcements');
    await banner(page).waitFor();
    expect(await banner(page).getAttribute('class')).toContain('alert-warning');
    const row = page.locator('#announcement-table tbody tr', { hasText: message });
    expect(await row.locator('input[type=checkbox]').isChecked()).toBe(true);
    expect(await row.locator('td').last().textContent()).toBe('warning');

    for (const path of [
      '/loci',
      `/loci/${locusId}`,
      '/favorite-loci',
      '/filters',
      '/watch-lists',
      '/tags',
      '/catalogs',
      '/properties',
      '/pipeline',
      '/faq',
      '/support',
      '/team',
      '/user/settings',
      '/admin/user-management',
      '/no/such/page',
    ]) {
      await open(page, path);
      await banner(page).waitFor({ timeout: 10_000 });
    }
    // In-app navigation refetches them too, and visitors see them.
    await page.getByRole('link', { name: 'Tags', exact: true }).click();
    await banner(page).waitFor();
    const visitor = await launchBrowser();
    try {
      const anonymous = await visitor.context.newPage();
      for (const path of ['/login', '/register', '/forgot-password', '/loci']) {
        await open(anonymous, path);
        await banner(anonymous).waitFor({ timeout: 10_000 });
      }
      await expectNoSeriousViolations(anonymous);
    } finally {
      await visitor.close();
    }
  });

  it('deactivates it from the list and the banner goes away', async () => {
    await open(page, '/admin/announcements');
    const row = page.locator('#announcement-table tbody tr', { hasText: message });
    const active = row.locator('input[type=checkbox]');
    await active.uncheck();
    await expect.poll(() => banner(page).count()).toBe(0);
    await open(page, '/loci');
    expect(await banner(page).count()).toBe(0);
    expect(watch.problems()).toEqual([]);
  });
});
