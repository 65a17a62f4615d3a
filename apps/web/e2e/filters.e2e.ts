import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';

import { E2E_ACCOUNTS } from './support/accounts';
import { apiSession, downloadBytes, listQuery, login, open, watchPage } from './support/app';
import { type BrowserSession, launchBrowser, requireChromium } from './support/chromium';
import {
  BROKEN_CODE,
  checkA11y,
  disableTestFilters,
  editorText,
  headerTexts,
  lociWithTag,
  taggerCode,
  uploadCode,
} from './support/filters';
import { dropSimulatedAlerts, inboxStates, pollUntil } from './support/inbox';

const enabled = requireChromium();
const { admin, user } = E2E_ACCOUNTS;
const UNSAVED = 'You have unsaved changes, do you really want to leave?';
const NO_VERSIONS = 'This filter does not have submitted versions yet. Remember to submit one when you are ready.';
/** Every filter this suite creates has this in its name (clean-up finds them by it). */
const MARK = 'E2E tagger';

describe.skipIf(!enabled)('filters: from a new filter to tagged loci', () => {
  let userSession: BrowserSession;
  let adminSession: BrowserSession;
  let page: Page;
  let adminPage: Page;
  let watch: ReturnType<typeof watchPage>;
  let adminWatch: ReturnType<typeof watchPage>;
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
    userSession = await launchBrowser();
    adminSession = await launchBrowser();
    page = await userSession.context.newPage();
    adminPage = await adminSession.context.newPage();
    watch = watchPage(page);
    adminWatch = watchPage(adminPage);
    await login(page, user);
    await login(adminPage, admin);
  });
  afterAll(async () => {
    await userSession?.close();
    await adminSession?.close();
    await disableTestFilters(admin, MARK);
  });

  it('validates the new filter form and asks before leaving with unsaved edits', async () => {
    await open(page, '/filters');
    await page.getByRole('link', { name: /New Filter|Create your first Filter/ }).click();
    await page.waitForURL((url) => url.pathname === '/filters/create');
    await page.getByRole('heading', { name: 'New Filter Submission' }).waitFor();
    const nameField = page.getByLabel('Filter Name');
    await nameField.focus();
    await page.getByLabel('Filter Description').focus();
    await nameField.focus();
    expect(await page.locator('.invalid-feedback:visible').allTextContents()).toEqual(['Field is required.', 'Field is required.']);
    await nameField.fill('9 lives');
    await page.getByText('Field contains invalid characters.').waitFor();
    await nameField.fill(`A${'b'.repeat(64)}`);
    await page.getByText('Field may not have more than 64 characters.').waitFor();
    await page.getByLabel('Filter Description').fill('d'.repeat(2049));
    await page.getByText('Field may not have more than 2048 characters.').waitFor();
    // Continue with invalid fields sends nothing.
    await page.getByRole('button', { name: 'Continue' }).click();
    expect(new URL(page.url()).pathname).toBe('/filters/create');
    await checkA11y(page);

    // Cancel with unsaved edits asks first; dismissing stays, accepting leaves.
    const first = page.waitForEvent('dialog');
    void page.getByRole('link', { name: 'Cancel' }).click();
    const stay = await first;
    expect(stay.message()).toBe(UNSAVED);
    await stay.dismiss();
    await page.getByRole('heading', { name: 'New Filter Submission' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/filters/create');
    expect(await nameField.inputValue()).toBe(`A${'b'.repeat(64)}`);
    const second = page.waitForEvent('dialog');
    void page.getByRole('link', { name: 'Cancel' }).click();
    const leave = await second;
    expect(leave.message()).toBe(UNSAVED);
    await leave.accept();
    await page.waitForURL((url) => url.pathname === '/filters');
  });

  it('creates a filter that opens in the editor with the starter code and the no-versions warning', async () => {
    await open(page, '/filters/create');
    await page.getByLabel('Filter Name').fill(name);
    await page.getByLabel('Filter Description').fill('Tags every locus it sees; made by the end-to-end tests.');
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL((url) => /^\/filters\/\d+$/.test(url.pathname));
    filterPath = new URL(page.url()).pathname;
    filterId = filterPath.split('/').pop()!;
    await page.getByRole('heading', { name, level: 1 }).waitFor();
    await page.getByText(/^Created at \d{4}-\d\d-\d\d \d\d:\d\d:\d\d \(UTC\)/).waitFor();
    await page.getByText(NO_VERSIONS).waitFor();
    await page.locator('[data-testid=code-editor] .cm-content').waitFor();
    expect(await editorText(page)).toContain('class MyFilter(dk.Filter):');
    // Python mode, tab size 4, line numbers.
    const content = page.locator('[data-testid=code-editor] .cm-content');
    expect(await content.getAttribute('data-language')).toBe('python');
    expect(await content.evaluate((el) => getComputedStyle(el).tabSize)).toBe('4');
    const gutter = await page.locator('[data-testid=code-editor] .cm-lineNumbers .cm-gutterElement').allTextContents();
    expect(gutter).toContain('1');
    expect(gutter).toContain('10');
    // Python indentation: a new line after a colon is indented by four spaces.
    await content.click();
    await page.keyboard.press('Control+End');
    await page.keyboard.type('\nif True:');
    await page.keyboard.press('Enter');
    await page.keyboard.type('pass');
    const lines = (await editorText(page)).split('\n');
    const at = lines.findIndex((line) => line.trim() === 'if True:');
    expect(at).toBeGreaterThan(0);
    expect(lines[at + 1]).toBe(`${lines[at].replace('if True:', '')}    pass`);
    await checkA11y(page);
  });

  it('refuses a name already in use', async () => {
    const other = await userSession.context.newPage();
    try {
      await open(other, '/filters/create');
      await other.getByLabel('Filter Name').fill(name.toUpperCase());
      await other.getByLabel('Filter Description').fill('Same name, other case.');
      await other.getByRole('button', { name: 'Continue' }).click();
      await other.getByRole('alert').filter({ hasText: 'This name is already in use, please choose another.' }).waitFor();
      expect(new URL(other.url()).pathname).toBe('/filters/create');
    } finally {
      await other.close();
    }
  });

  it('adds a version from an uploaded file; the dropdown truncates its comment and the code downloads as {name}.py', async () => {
    await uploadCode(page, code, 'tagger.py');
    await expect.poll(() => editorText(page)).toBe(code);
    const submit = page.getByRole('button', { name: 'Submit Version' });
    await submit.click();
    await page.getByText('Field is required.').waitFor();
    await page.getByLabel('Comment').fill('c'.repeat(256));
    await page.getByText('Field may not have more than 255 characters.').waitFor();
    await page.getByLabel('Comment').fill(comment);
    await submit.click();

    const select = page.getByLabel('Version', { exact: true });
    await select.waitFor();
    versionId = await select.inputValue();
    const label = (await select.locator('option:checked').textContent()) ?? '';
    expect(label).toContain(`${comment.slice(0, 30)}...`);
    expect(label).not.toContain(comment.slice(0, 31));
    expect(await page.getByTestId('version-status').textContent()).toBe('pending review');
    expect(await page.getByText(NO_VERSIONS).count()).toBe(0);
    await expect.poll(() => editorText(page)).toBe(code);
    expect(await page.locator('[data-testid=code-editor] .cm-content').getAttribute('contenteditable')).toBe('false');

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: `Download ${name}.py` }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`${name}.py`);
    expect((await downloadBytes(download)).toString('utf8')).toBe(code);
    await checkA11y(page);
  });

  it('tests the code in the sandbox: a dry-run report of the recent loci, and the load error of broken code', async () => {
    await page.getByRole('button', { name: 'Test', exact: true }).click();
    const report = page.getByTestId('test-report');
    await report.waitFor({ timeout: 90_000 });
    const summary = (await page.getByTestId('test-summary').textContent()) ?? '';
    const match = /Ran on (\d+) loci: (\d+) ok, (\d+) skipped, (\d+) failed; (\d+) tagged\./.exec(summary);
    expect(match, summary).not.toBeNull();
    const [, loci, ok, , failed, tagged] = match!.map(Number);
    expect(loci).toBe(20);
    expect(failed).toBe(0);
    expect(tagged).toBe(ok);
    expect(ok).toBeGreaterThan(0);
    const okRow = page.getByTestId('test-locus-row').filter({ hasText: tag }).first();
    await okRow.getByText('ok', { exact: true }).waitFor();
    await okRow.getByText(/^checked ANT/).waitFor();
    await okRow.getByText(`${tag}_alerts`).waitFor();
    await checkA11y(page);

    // Broken code: uploading starts a new version; the test says the code did not load.
    await uploadCode(page, BROKEN_CODE, 'broken.py');
    await page.getByRole('heading', { name: 'New Version' }).waitFor();
    await page.getByRole('button', { name: 'Test', exact: true }).click();
    await report.getByText('The code did not load').waitFor({ timeout: 90_000 });
    await report
      .getByText(/SyntaxError/)
      .first()
      .waitFor();
    await page.getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => editorText(page)).toBe(code);
  });

  it('runs the last filter class of code that defines several, or the one typed in the Filter class field', async () => {
    const twoClasses = `import antares.devkit as dk


class Helper:
    prefix = 'seen'


class First(dk.Filter):
    OUTPUT_TAGS = [{'name': '${tag}_first', 'description': 'a draft'}]

    def run(self, locus):
        print(Helper.prefix, 'by First')


class Second(dk.Filter):
    OUTPUT_TAGS = [{'name': '${tag}_second', 'description': 'the filter meant'}]

    def run(self, locus):
        print(Helper.prefix, 'by Second')
`;
    await uploadCode(page, twoClasses, 'notebook.py');
    await page.getByRole('heading', { name: 'New Version' }).waitFor();
    const field = page.getByLabel('Filter class');
    expect(await field.inputValue()).toBe('');
    const report = page.getByTestId('test-report');
    const ran = page.getByTestId('test-filter-class');
    await page.getByLabel('Number of recent loci').fill('2');
    await page.getByRole('button', { name: 'Test', exact: true }).click();
    await report.waitFor({ timeout: 90_000 });
    expect(await ran.textContent()).toBe('Ran Second of the filters the code defines: First, Second.');
    await report.getByText('seen by Second').first().waitFor();
    // The classes found are offered; the field says which one a blank runs.
    expect(await field.getAttribute('placeholder')).toBe('Second (the last one defined)');
    await page.getByText('The code defines 2 filters: First, Second.').waitFor();
    await field.fill('First');
    await page.getByRole('button', { name: 'Test', exact: true }).click();
    await expect.poll(() => ran.textContent(), { timeout: 90_000 }).toBe('Ran First of the filters the code defines: First, Second.');
    await report.getByText('seen by First').first().waitFor();
    await checkA11y(page);
    await field.fill('not a class');
    await page.getByText('Field contains invalid characters.').waitFor();
    expect(await page.getByRole('button', { name: 'Test', exact: true }).isDisabled()).toBe(true);
    await page.getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => editorText(page)).toBe(code);
  });

  it('makes the filter public only after its name is typed; cancel reverts the switch', async () => {
    const toggle = page.getByLabel('Public', { exact: true });
    expect(await toggle.isChecked()).toBe(false);
    await toggle.click();
    const dialog = page.getByTestId('confirmation-dialog');
    await dialog.getByText(`Are you sure you want to make the filter "${name}" public?`).waitFor();
    const confirm = dialog.getByRole('button', { name: 'Confirm' });
    expect(await confirm.isDisabled()).toBe(true);
    await dialog.getByLabel(/to confirm/).fill(name.slice(0, -1));
    expect(await confirm.isDisabled()).toBe(true);
    await checkA11y(page);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(await toggle.isChecked()).toBe(false);

    await toggle.click();
    await dialog.getByLabel(/to confirm/).fill(name);
    await confirm.click();
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => toggle.isChecked()).toBe(true);
    await page.reload({ waitUntil: 'networkidle' });
    expect(await page.getByLabel('Public', { exact: true }).isChecked()).toBe(true);

    // The user's list shows it, with its switch.
    await open(page, '/filters');
    const row = page.locator('#filter-table tbody tr', { hasText: name });
    expect(await row.getByRole('link', { name }).getAttribute('href')).toBe(filterPath);
    expect(await row.getByLabel(`Public: ${name}`).isChecked()).toBe(true);
    await checkA11y(page);
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
    expect(await headerTexts(adminPage, 'filter-runner-table')).toEqual(['Name', 'Enabled']);
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
