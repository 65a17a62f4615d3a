import { createHash } from 'node:crypto';

import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';

import { E2E_ACCOUNTS } from './support/accounts';
import { apiSession, downloadBytes, login, open } from './support/app';
import { requireChromium } from './support/chromium';
import { checkA11y, filterWithVersions } from './support/filters';
import { type PageWatch, usePage } from './support/page';

const enabled = requireChromium();

// A filter's data files (REQUIRES_FILES) on its page: upload with a progress bar, the list with size
// and sha256, download, delete after a confirmation; and the admin review listing a version's files.
describe.skipIf(!enabled)('filter data files', () => {
  let page: Page;
  let watch: PageWatch;
  const stamp = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4).toString(36)}`;
  const code = `import antares.devkit as dk


class E2eFiles(dk.Filter):
    REQUIRES_FILES = ['e2e_weights.txt']

    def setup(self):
        self.weights = self.files['e2e_weights.txt']

    def run(self, locus):
        pass
`;
  // 3 MB: large enough for the progress bar to show on its way.
  const bytes = Buffer.alloc(3 << 20, 'weights ');
  const digest = createHash('sha256').update(bytes).digest('hex');
  let filterId = '';

  usePage(async (opened) => {
    ({ page, watch } = opened);
    await login(page, E2E_ACCOUNTS.user);
  });

  it('uploads a file with progress, lists it with its size and sha256, downloads it and deletes it after asking', async () => {
    const call = await apiSession(E2E_ACCOUNTS.user);
    ({ filterId } = await filterWithVersions(call, `E2E files ${stamp}`, [code]));
    await open(page, `/filters/${filterId}`);
    const panel = page.getByTestId('filter-files');
    await panel.getByText('No files uploaded.').waitFor();

    await panel.getByLabel(/Upload a file/).setInputFiles({ name: 'e2e_weights.txt', mimeType: 'text/plain', buffer: bytes });
    await panel.getByText('Uploaded e2e_weights.txt.').waitFor();
    const row = panel.getByTestId('filter-file-row');
    expect(await row.count()).toBe(1);
    expect(await row.locator('td').allTextContents()).toEqual(expect.arrayContaining(['e2e_weights.txt', '3.0 MB', digest]));
    await checkA11y(page);

    const [download] = await Promise.all([page.waitForEvent('download'), row.getByRole('link', { name: 'e2e_weights.txt' }).click()]);
    expect(download.suggestedFilename()).toBe('e2e_weights.txt');
    expect(
      createHash('sha256')
        .update(await downloadBytes(download))
        .digest('hex'),
    ).toBe(digest);

    // A name the code does not list is refused, with the server's reason.
    await panel.getByLabel(/Upload a file/).setInputFiles({ name: 'other.txt', mimeType: 'text/plain', buffer: Buffer.from('x') });
    await panel.getByText(/other\.txt: No version of filter \d+ lists "other\.txt" in REQUIRES_FILES/).waitFor();

    await row.getByRole('button', { name: 'Delete e2e_weights.txt' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete e2e_weights.txt?' });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(await row.count()).toBe(1);
    await row.getByRole('button', { name: 'Delete e2e_weights.txt' }).click();
    await page.getByRole('dialog', { name: 'Delete e2e_weights.txt?' }).getByRole('button', { name: 'Delete File' }).click();
    await panel.getByText('No files uploaded.').waitFor();
    expect((await call(`/filters/${filterId}/files`).then((r) => r.json())).meta.count).toBe(0);
    expect(watch.problems()).toEqual([]);
  }, 120_000);

  it('shows the admin the files the version was submitted with, and what it lacks', async () => {
    await login(page, E2E_ACCOUNTS.admin);
    await open(page, `/admin/filters/${filterId}`);
    const files = page.getByTestId('version-files');
    await files.getByText('Missing (REQUIRES_FILES), so it cannot be enabled: e2e_weights.txt').waitFor();
    // An admin may upload too; the version, waiting for review, takes the file.
    const panel = page.getByTestId('filter-files');
    await panel
      .getByLabel(/Upload a file/)
      .setInputFiles({ name: 'e2e_weights.txt', mimeType: 'text/plain', buffer: Buffer.from('small') });
    await panel.getByText('Uploaded e2e_weights.txt.').waitFor();
    await files.getByTestId('filter-file-row').getByText('e2e_weights.txt').waitFor();
    expect(await files.getByText(/^Missing/).count()).toBe(0);
    await checkA11y(page);
    expect(watch.problems()).toEqual([]);
  }, 120_000);
});
