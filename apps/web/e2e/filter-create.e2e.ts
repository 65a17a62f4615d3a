import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';

import { E2E_ACCOUNTS } from './support/accounts';
import { login, open } from './support/app';
import { requireChromium } from './support/chromium';
import { usePage } from './support/page';

// New Filter Submission's Cancel: the spec's unsaved-changes question when something was typed, as the
// navigation links ask it; straight back to the list otherwise.
const enabled = requireChromium();
const UNSAVED = 'You have unsaved changes, do you really want to leave?';

describe.skipIf(!enabled)('leaving New Filter Submission', () => {
  let page: Page;

  usePage(async (opened) => {
    ({ page } = opened);
    await login(page, E2E_ACCOUNTS.user);
  });

  it('Cancel asks only when something was typed, like the navigation links', async () => {
    const dialogs: string[] = [];
    const record = (dialog: { message(): string; dismiss(): Promise<void> }) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    };
    page.on('dialog', record);
    try {
      await open(page, '/filters/create');
      await page.getByRole('link', { name: 'Cancel' }).click();
      await page.waitForURL((url) => url.pathname === '/filters');
      expect(dialogs).toEqual([]);
      // Typed into the description alone, then a navigation link and Cancel: each asks; dismissing stays.
      await open(page, '/filters/create');
      await page.getByLabel('Filter Description').fill('Half a thought');
      await page.getByRole('link', { name: 'Tags', exact: true }).click();
      await page.getByRole('link', { name: 'Cancel' }).click();
      await expect.poll(() => dialogs.length).toBe(2);
      expect(dialogs).toEqual([UNSAVED, UNSAVED]);
      expect(new URL(page.url()).pathname).toBe('/filters/create');
      expect(await page.getByLabel('Filter Description').inputValue()).toBe('Half a thought');
    } finally {
      page.off('dialog', record);
    }
    // Emptied again: nothing unsaved, Cancel leaves without asking.
    await page.getByLabel('Filter Description').fill('');
    await page.getByRole('link', { name: 'Cancel' }).click();
    await page.waitForURL((url) => url.pathname === '/filters');
    expect(dialogs).toHaveLength(2);
  });
});
