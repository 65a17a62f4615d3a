import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';

import { E2E_ACCOUNTS } from './support/accounts';
import { downloadBytes, login, open } from './support/app';
import { type BrowserSession, requireChromium } from './support/chromium';
import { BROKEN_CODE, checkA11y, editorText, taggerCode, uploadCode } from './support/filters';
import { type PageWatch, usePage } from './support/page';

const enabled = requireChromium();
const UNSAVED = 'You have unsaved changes, do you really want to leave?';
const NO_VERSIONS = 'This filter does not have submitted versions yet. Remember to submit one when you are ready.';

// A user writes a filter: the form, the editor, a version, the sandbox test, making it public. What an admin
// does with a submitted version, and what an enabled one tags, is in filter-review.e2e.ts.
describe.skipIf(!enabled)('filters: from a new filter to a public one with a version', () => {
  let session: BrowserSession;
  let page: Page;
  let watch: PageWatch;
  const stamp = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4).toString(36)}`;
  const name = `E2E tagger ${stamp}`;
  const tag = `e2e_tag_${stamp}`;
  const code = taggerCode(tag);
  const comment = `First light: tags every locus it sees (${stamp})`;
  let filterPath = '';

  usePage(async (opened) => {
    ({ page, watch, session } = opened);
    await login(page, E2E_ACCOUNTS.user);
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
    const other = await session.context.newPage();
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
    expect(watch.problems()).toEqual([]);
  });
});
