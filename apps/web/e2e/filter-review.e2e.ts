import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';

import { E2E_ACCOUNTS } from './support/accounts';
import { apiSession, json, listQuery, login, open } from './support/app';
import { requireChromium } from './support/chromium';
import {
  BROKEN_CODE,
  checkA11y,
  disableTestFilters,
  editorText,
  filterWithVersions,
  headerTexts,
  lociWithTag,
  taggerCode,
  uploadCode,
} from './support/filters';
import { dropSimulatedAlerts, inboxStates, pollUntil } from './support/inbox';
import { type PageWatch, usePage } from './support/page';

const enabled = requireChromium();
const { admin, user } = E2E_ACCOUNTS;
/** Every filter this suite enables has this in its name (clean-up finds them by it). */
const MARK = 'E2E tagger';

// An admin reviews and enables a user's public filter, which then tags the loci ingested next; its owner
// sees the admin's feedback. The filter and its version are made through the API (the author's side in the
// browser is filters.e2e.ts).
describe.skipIf(!enabled)('filters: from a submitted version to tagged loci', () => {
  let page: Page;
  let adminPage: Page;
  let watch: PageWatch;
  let adminWatch: PageWatch;
  const stamp = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4).toString(36)}`;
  const name = `${MARK} ${stamp}`;
  const tag = `e2e_tag_${stamp}`;
  const code = taggerCode(tag);
  const comment = `First light: tags every locus it sees (${stamp})`;
  let filterPath = '';
  let filterId = '';
  let versionId = '';

  beforeAll(async () => {
    await disableTestFilters(admin, MARK);
    const call = await apiSession(user);
    let versionIds: string[];
    ({ filterId, versionIds } = await filterWithVersions(call, name, [code], {
      description: 'Tags every locus it sees; made by the end-to-end tests.',
      comments: [comment],
    }));
    [versionId] = versionIds;
    filterPath = `/filters/${filterId}`;
    await json(await call(filterPath, { method: 'PATCH', body: { data: { type: 'filter', attributes: { public: true } } } }));
  });
  usePage(async (opened) => {
    ({ page, watch } = opened);
    await login(page, user);
  });
  usePage(async (opened) => {
    ({ page: adminPage, watch: adminWatch } = opened);
    await login(adminPage, admin);
  });
  afterAll(async () => {
    await disableTestFilters(admin, MARK);
  });

  it('lets an admin review the version (feedback modal) and enable it', async () => {
    await open(adminPage, '/loci');
    await adminPage.getByRole('button', { name: 'Admin Tools' }).click();
    await adminPage.getByRole('link', { name: 'Filters Management' }).click();
    await adminPage.waitForURL((url) => url.pathname === '/admin/filters');
    await expect.poll(() => adminPage.title()).toBe('Available Filters | ANTARES');
    await adminPage.getByRole('heading', { name: 'Available filters' }).waitFor();
    expect(await headerTexts(adminPage, 'admin-filter-table')).toEqual([
      'Name',
      'Author',
      'Public',
      'Description',
      'Created At (UTC)',
      'Updated At (UTC)',
      'Enabled',
    ]);
    expect(await adminPage.locator('#admin-filter-table thead th[aria-sort=descending]').textContent()).toContain('Created At');
    const row = adminPage.locator('#admin-filter-table tbody tr', { hasText: name });
    expect(await row.getByRole('link', { name: user.name }).getAttribute('href')).toBe(`mailto:${user.email}`);
    expect(await row.getByLabel(`Public: ${name}`).isChecked()).toBe(true);
    expect(await row.locator('td').last().textContent()).toBe('No');
    await checkA11y(adminPage);

    await row.getByRole('link', { name }).click();
    await adminPage.waitForURL((url) => url.pathname === `/admin/filters/${filterId}`);
    await expect.poll(() => adminPage.title()).toBe('Filter detail (Admin view) | ANTARES');
    const sidebar = adminPage.getByTestId('versions-sidebar');
    await sidebar.getByText(comment.slice(0, 30)).waitFor();
    const buttons = adminPage.getByTestId('transition-buttons');
    expect(await buttons.getByRole('button').allTextContents()).toEqual(['Mark as reviewed']);

    await buttons.getByRole('button', { name: 'Mark as reviewed' }).click();
    const modal = adminPage.getByTestId('transition-modal');
    await modal.getByLabel('Feedback (optional)').fill('  Readable code, PEP8.  ');
    await checkA11y(adminPage);
    await modal.getByRole('button', { name: 'Mark as reviewed' }).click();
    await modal.waitFor({ state: 'detached' });
    await expect.poll(() => adminPage.getByTestId('version-status').textContent()).toBe('reviewed');
    expect(await adminPage.getByTestId('version-feedback').textContent()).toBe('Readable code, PEP8.');
    expect(await buttons.getByRole('button').allTextContents()).toEqual(['Mark as pending', 'Enable']);

    await buttons.getByRole('button', { name: 'Enable' }).click();
    await modal.getByText(`Are you sure you want to enable this version of the filter "${name}"?`).waitFor();
    expect(await modal.getByRole('textbox').count()).toBe(0);
    await modal.getByRole('button', { name: 'Enable' }).click();
    await modal.waitFor({ state: 'detached' });
    await expect.poll(() => adminPage.getByTestId('version-status').textContent()).toBe('enabled');
    expect(await buttons.getByRole('button').allTextContents()).toEqual(['Disable']);
    await adminPage.getByText(/Enabled: Yes version #\d+/).waitFor();
    await checkA11y(adminPage);
  });

  it('tags ingested loci; the tag is on the tags page and its View Loci link lists them', async () => {
    const dataDir = inject('dataDir');
    if (!dataDir) {
      console.warn('SKIPPED ingestion check: the tests did not start the server, so its inbox is unknown');
      return;
    }
    const before = await lociWithTag(tag);
    expect(before).toEqual([]);
    const files = dropSimulatedAlerts(dataDir, { seed: 100_000 + Math.floor(Math.random() * 1e6), prefix: `e2e-${stamp}` });
    // The server takes every file (moved to inbox/done), then the loci carry the tag.
    const states = await pollUntil(
      () => Promise.resolve(inboxStates(dataDir, files)),
      (s) => !s.includes('waiting'),
      90_000,
      'inbox files',
    );
    expect(states).toEqual(files.map(() => 'done'));
    const tagged = await pollUntil(
      () => lociWithTag(tag),
      (ids) => ids.length > 0,
      30_000,
      `loci tagged ${tag}`,
    );

    await open(page, '/tags');
    await page.getByRole('heading', { name: 'Tags' }).waitFor();
    // Tags of other enabled public filters may come first: show 100 a page.
    await page.locator('#tags-page-size').selectOption('100');
    const row = page.locator('#tags tbody tr', { hasText: tag });
    await row.waitFor();
    await checkA11y(page);
    await row.getByRole('link', { name: 'View Loci' }).click();
    await page.waitForURL((url) => url.pathname === '/loci');
    expect(listQuery(page).filters).toEqual([{ type: 'terms', field: 'tags', value: [tag], text: `Tags: ${tag}` }]);
    await page.locator('[data-testid=locus-row]').first().waitFor();
    const shown = await page.locator('[data-testid=locus-row] td:first-child a').allTextContents();
    expect(shown.length).toBeGreaterThan(0);
    for (const id of shown) expect(tagged).toContain(id);
  });

  it('shows the enabled filter on the pipeline page and loads its source on first open', async () => {
    const versionCalls: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes(`/v1/filters/${filterId}/versions/`)) versionCalls.push(request.url());
    });
    await open(page, '/pipeline');
    const card = page.getByRole('button', { name, exact: true });
    await card.waitFor();
    expect(versionCalls).toEqual([]);
    await card.click();
    await page.getByLabel(`Python source of ${name}`).getByText(`locus.tag('${tag}')`).waitFor();
    expect(versionCalls.length).toBe(1);
    await checkA11y(page);
  });

  it('lists the filter in the filter runner, where the admin can pause and resume it', async () => {
    await open(adminPage, '/admin/filter_runner');
    await expect.poll(() => adminPage.title()).toBe('Available Filters in the Filter Runner | ANTARES');
    await adminPage.getByRole('heading', { name: 'Available filters' }).waitFor();
    expect(await headerTexts(adminPage, 'filter-runner-table')).toEqual([
      'Name',
      'Enabled',
      'State',
      'Share of the budget',
      'Time per locus (p50 / p99)',
      'Passing alerts',
    ]);
    await adminPage.getByTestId('runner-limits').getByText('Budget: 30 s per 10,000 alerts', { exact: false }).waitFor();
    expect(await adminPage.locator('#filter-runner-table thead th[aria-sort=descending]').textContent()).toContain('Name');
    await checkA11y(adminPage);
    // Other enabled filters may come first: show 100 a page.
    await adminPage.locator('#filter-runner-table-page-size').selectOption('100');
    const toggle = adminPage.getByLabel(`Enabled: ${name}`);
    expect(await toggle.isChecked()).toBe(true);
    await toggle.uncheck();
    await expect.poll(() => toggle.isDisabled()).toBe(false);
    await adminPage.reload({ waitUntil: 'networkidle' });
    await adminPage.locator('#filter-runner-table-page-size').selectOption('100');
    expect(await adminPage.getByLabel(`Enabled: ${name}`).isChecked()).toBe(false);
    const row = adminPage.locator('#filter-runner-table tbody tr', { has: adminPage.getByLabel(`Enabled: ${name}`) });
    expect(await row.getByTestId('runner-state').textContent()).toBe('Paused');
    // The owner's filter page says so too, with the filter's budget figures.
    await open(page, `/filters/${filterId}`);
    const panel = page.getByTestId('filter-runner-budget');
    await panel.getByTestId('runner-state').filter({ hasText: 'Paused' }).waitFor();
    expect(await panel.locator('tbody tr').count()).toBe(2);
    await adminPage.getByLabel(`Enabled: ${name}`).check();
    await expect.poll(() => adminPage.getByLabel(`Enabled: ${name}`).isChecked()).toBe(true);
  });

  it('requires feedback to disable the version, then shows the feedback to the owner', async () => {
    await open(adminPage, `/admin/filters/${filterId}`);
    const buttons = adminPage.getByTestId('transition-buttons');
    await buttons.getByRole('button', { name: 'Disable' }).click();
    const modal = adminPage.getByTestId('transition-modal');
    await modal.getByLabel('Feedback (required)').waitFor();
    await modal.getByRole('button', { name: 'Disable' }).click();
    await modal.getByText('Feedback is required').waitFor();
    await modal.getByLabel('Feedback (required)').fill('   ');
    await modal.getByRole('button', { name: 'Disable' }).click();
    await modal.getByText('Feedback is required').waitFor();
    await modal.getByLabel('Feedback (required)').fill('The end-to-end test is over.');
    await modal.getByRole('button', { name: 'Disable' }).click();
    await modal.waitFor({ state: 'detached' });
    await expect.poll(() => adminPage.getByTestId('version-status').textContent()).toBe('disabled');
    expect(await buttons.getByRole('button').allTextContents()).toEqual(['Mark as pending', 'Enable']);

    await open(page, filterPath);
    expect(await page.getByTestId('version-feedback').textContent()).toBe('The end-to-end test is over.');
    expect(await page.getByTestId('version-status').textContent()).toBe('disabled');
    expect(watch.problems()).toEqual([]);
    expect(adminWatch.problems()).toEqual([]);
  });

  it('shows the spec error messages: refused code, a stale transition, visibility and versions failures', async () => {
    // The server's sandbox check refuses a version whose code does not load.
    await open(page, filterPath);
    await uploadCode(page, BROKEN_CODE, 'broken.py');
    await page.getByLabel('Comment').fill('Broken on purpose');
    await page.getByRole('button', { name: 'Submit Version' }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: /^Error submitting new version: .*SyntaxError/ })
      .waitFor({ timeout: 60_000 });
    await page.getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => editorText(page)).toBe(code);

    // Another admin moved the version meanwhile: the transition offered by the stale page is refused.
    await open(adminPage, `/admin/filters/${filterId}`);
    const buttons = adminPage.getByTestId('transition-buttons');
    expect(await buttons.getByRole('button').allTextContents()).toEqual(['Mark as pending', 'Enable']);
    const call = await apiSession(admin);
    const moved = await call(`/filters/${filterId}/versions/${versionId}`, {
      method: 'PATCH',
      body: { data: { type: 'filter_version', attributes: { status: 'PENDING_REVIEW' } } },
    });
    expect(moved.status).toBe(200);
    await buttons.getByRole('button', { name: 'Enable' }).click();
    const modal = adminPage.getByTestId('transition-modal');
    await modal.getByRole('button', { name: 'Enable' }).click();
    await buttons
      .getByRole('alert')
      .filter({ hasText: /^Error transitioning version: A PENDING_REVIEW version cannot become ENABLED/ })
      .waitFor();

    // A failed visibility change: the red alert with the error as JSON, and the switch reverts.
    const patchFilter = new RegExp(`/v1/filters/${filterId}$`);
    await page.route(patchFilter, (route) =>
      route.request().method() === 'PATCH'
        ? route.fulfill({
            status: 500,
            contentType: 'application/vnd.api+json',
            body: JSON.stringify({ errors: [{ status: '500', title: 'Internal Server Error', detail: 'the database is unavailable' }] }),
          })
        : route.fallback(),
    );
    const toggle = page.getByLabel('Public', { exact: true });
    expect(await toggle.isChecked()).toBe(true);
    await toggle.click();
    const dialog = page.getByTestId('confirmation-dialog');
    await dialog.getByText(`Are you sure you want to make the filter "${name}" private?`).waitFor();
    await dialog.getByLabel(/to confirm/).fill(name);
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    const failure = page.getByTestId('action-error');
    await failure.getByText('Error changing filter visibility').waitFor();
    await failure.getByText('the database is unavailable').waitFor();
    expect(await toggle.isChecked()).toBe(true);
    await failure.getByRole('button', { name: 'Close' }).click();
    await failure.waitFor({ state: 'detached' });
    await page.unroute(patchFilter);

    // The versions cannot be fetched.
    const versionsList = new RegExp(`/v1/filters/${filterId}/versions\\?`);
    await page.route(versionsList, (route) =>
      route.fulfill({
        status: 503,
        contentType: 'application/vnd.api+json',
        body: JSON.stringify({ errors: [{ status: '503', title: 'Service Unavailable' }] }),
      }),
    );
    await open(page, filterPath);
    await page.getByText('There was an error fetching data. Please try again later.').waitFor();
    await page.unroute(versionsList);
    expect(watch.problems()).toEqual([]);
    expect(adminWatch.problems()).toEqual([]);
  });
});
