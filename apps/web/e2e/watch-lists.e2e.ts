import { randomBytes } from 'node:crypto';

import type { Page, Request } from 'playwright-core';
import { describe, expect, it } from 'vitest';

import { type Account, apiSession, type Call, expectNoSeriousViolations, json, login, open, registerAccount } from './support/app';
import { requireChromium } from './support/chromium';
import { pollUntil } from './support/inbox';
import { type PageWatch, usePage } from './support/page';
import { chooseCsv, createThroughApi, sessionUserId, userWatchLists, type WatchListDocument } from './support/watch-lists';

// Making watch lists: the form and its checks, a CSV of 100,000 objects, deleting several at once. How
// lists match loci is in watch-list-matching.e2e.ts.
const enabled = requireChromium();
const INVALID_CSV = 'Invalid CSV file. Please make sure that your file meets the requirements.';
const BIG = 100_000;

describe.skipIf(!enabled)('watch lists', () => {
  let page: Page;
  let watch: PageWatch;
  let account: Account;
  let call: Call;
  let userId: string;
  const posts: Request[] = [];

  usePage(async (opened) => {
    ({ page, watch } = opened);
    page.on('request', (request) => {
      if (request.method() === 'POST' && /\/v1\/users\/[^/]+\/watch_lists/.test(request.url())) posts.push(request);
    });
    account = await registerAccount('e2e_watch_');
    call = await apiSession(account);
  });

  it('asks logged-out users to log in, and a user without lists to create one', async () => {
    await open(page, '/watch-lists');
    await page.getByRole('heading', { name: 'Track Objects of Interest' }).waitFor();
    await expect(page.getByRole('link', { name: 'Login to create your first Watch List' }).getAttribute('href')).resolves.toBe(
      '/login?redirect=%2Fwatch-lists',
    );

    await login(page, account, '/watch-lists');
    expect(new URL(page.url()).pathname).toBe('/watch-lists');
    userId = await sessionUserId(page);
    expect(userId).not.toBe('');
    await page.getByRole('heading', { name: 'Track Objects of Interest' }).waitFor();
    await page.getByRole('link', { name: 'Create your first Watch List' }).click();
    await page.waitForURL((url) => url.pathname === '/watch-lists/create');
    await page.getByRole('heading', { name: 'New Watch List' }).waitFor();
    await expectNoSeriousViolations(page);
  });

  it('checks the fields with the spec messages and keeps Submit disabled while invalid', async () => {
    const submit = page.getByRole('button', { name: 'Submit' });
    expect(await submit.isDisabled()).toBe(true);
    await page.getByLabel('Name', { exact: true }).focus();
    await page.getByLabel('Description', { exact: true }).focus();
    await page.getByLabel('Slack Channel (optional)').focus();
    await expect(page.locator('.invalid-feedback:visible').allTextContents()).resolves.toEqual([
      'Field is required.',
      'Field is required.',
    ]);
    await page.getByLabel('Slack Channel (optional)').fill(`#${'c'.repeat(100)}`);
    await page.getByText('Field may not have more than 100 characters.').waitFor();
    await page.getByLabel('Slack Channel (optional)').fill('#e2e-watch');
    await page.getByLabel('Name', { exact: true }).fill('E2E rejected files');
    await page.getByLabel('Description', { exact: true }).fill('Nothing of this may be stored.');
    await page.getByText(/Notifications will not begin until processing of the survey's whole alert history finishes/).waitFor();
    expect(await page.locator('.invalid-feedback:visible').count()).toBe(0);
    // Everything is valid but the file: still disabled.
    expect(await submit.isDisabled()).toBe(true);
  });

  const malformed: [string, string | (() => Buffer), RegExp][] = [
    ['a header row', 'right_ascension,declination,radius\n10,20,0.001\n', /^Line 1: right_ascension is not a number/],
    ['a missing field', '10,20,0.001\n11,21\n', /^Line 2: radius missing/],
    ['an empty number', '10,20,0.001\n11,,0.001\n', /^Line 2: declination is required/],
    ['text in a number', '10,20,0.001\n\n11,21,wide\n', /^Line 3: radius is not a number: "wide"/],
    ['a right ascension out of range', '360.5,20,0.001\n', /^Line 1: right_ascension must be between 0.0 and 360.0/],
    ['a declination out of range', '10,20,0.001\n10,-91,0.001\n', /^Line 2: declination must be between -90.0 and 90.0/],
    ['a radius out of range', '10,20,0.02,too wide\n', /^Line 1: radius must be between 0.0 and 0.01/],
    ['only empty lines', '\n\n   \n\r\n', /^Problem: the file holds no objects/],
    ['an unclosed quote', '10,20,0.001,"open\n', /^Line 1: a quoted field is not closed properly/],
    ['10 MB of garbage', () => randomBytes(10 * 1024 * 1024), /^(Line \d+|Problem): /],
  ];
  for (const [what, content, problem] of malformed) {
    it(`refuses a CSV with ${what} with the spec message, sending nothing`, async () => {
      await chooseCsv(page, `${what.replace(/\W+/g, '-')}.csv`, typeof content === 'function' ? content() : content);
      const invalid = page.getByTestId('objects-file-invalid');
      await invalid.waitFor();
      const [message, detail] = await invalid.locator('p').allTextContents();
      expect(message).toBe(INVALID_CSV);
      expect(detail).toMatch(problem);
      // The format rules follow the message.
      await page.getByText('The file is CSV with no header row.').waitFor();
      expect(await page.getByRole('button', { name: 'Submit' }).isDisabled()).toBe(true);
      // Enter in a field submits the form: still nothing is sent.
      await page.getByLabel('Name', { exact: true }).press('Enter');
      expect(posts).toHaveLength(0);
    });
  }

  it('stored none of the rejected lists; the invalid form has no serious accessibility violations', async () => {
    await expectNoSeriousViolations(page);
    const lists = await userWatchLists(call, userId);
    expect(lists.meta.count).toBe(0);
    expect(posts).toHaveLength(0);
  });

  it('shows the spec message when the server refuses a list, and keeps the form', async () => {
    await chooseCsv(page, 'one.csv', '10,20,0.001,one\n');
    await page.getByTestId('objects-file-valid').getByText('1 object read from one.csv.').waitFor();
    await page.route('**/v1/users/*/watch_lists', (route) =>
      route.fulfill({
        status: 400,
        contentType: 'application/vnd.api+json',
        body: JSON.stringify({
          errors: [{ status: '400', title: 'Bad Request', detail: 'objects[0].radius: Field must be between 0 and 0.01.' }],
        }),
      }),
    );
    try {
      await page.getByRole('button', { name: 'Submit' }).click();
      const alert = page.getByTestId('watch-list-create-error');
      await alert.waitFor();
      expect(await alert.textContent()).toMatch(
        /^There was an error creating your watch list: objects\[0\]\.radius: Field must be between 0 and 0\.01\. Please wait a little while and try again\. If you still encounter this issue, email \S+@\S+ with a copy of your CSV file and we'll help you sort it out!$/,
      );
      expect(new URL(page.url()).pathname).toBe('/watch-lists/create');
      await expect(page.getByLabel('Name', { exact: true }).inputValue()).resolves.toBe('E2E rejected files');
      await alert.getByRole('button', { name: 'Close' }).click();
      await alert.waitFor({ state: 'detached' });
    } finally {
      await page.unroute('**/v1/users/*/watch_lists');
    }
    posts.length = 0;
  });

  const bigRows = Array.from({ length: BIG }, (_, i) => ({
    right_ascension: Number(((i * 0.0037) % 360).toFixed(6)),
    declination: Number((((i * 0.0019) % 180) - 90).toFixed(6)),
    radius: i % 2 === 0 ? 0.001 : 0.0005,
    comment: `object ${i}`,
  }));
  let bigId = '';

  it('uploads a CSV with 100,000 rows and stores exactly its objects', async () => {
    // Empty lines here and there are skipped.
    const csv = bigRows
      .map((o, i) => `${o.right_ascension},${o.declination},${o.radius},${o.comment}${i % 10_000 === 0 ? '\n' : ''}`)
      .join('\n');
    await page.getByLabel('Name', { exact: true }).fill('E2E hundred thousand');
    await page.getByLabel('Description', { exact: true }).fill('One hundred thousand objects from one CSV file.');
    await chooseCsv(page, 'big.csv', `${csv}\n`);
    await page.getByTestId('objects-file-valid').getByText('100,000 objects read from big.csv.').waitFor({ timeout: 60_000 });
    const submit = page.getByRole('button', { name: 'Submit' });
    expect(await submit.isEnabled()).toBe(true);
    await submit.click();
    await page.waitForURL((url) => url.pathname === '/watch-lists', { timeout: 90_000 });
    expect(posts).toHaveLength(1);

    const lists = await userWatchLists(call, userId);
    expect(lists.data.map((l) => [l.attributes.name, l.attributes.object_count])).toEqual([['E2E hundred thousand', BIG]]);
    bigId = lists.data[0].id;
    const stored = await json<{ data: WatchListDocument }>(await call(`/watch_lists/${bigId}`));
    const objects = stored.data.attributes.objects ?? [];
    expect(objects).toHaveLength(BIG);
    const byComment = new Map(objects.map((o) => [o.comment, o]));
    expect(byComment.size).toBe(BIG);
    for (const row of bigRows) {
      const got = byComment.get(row.comment);
      if (!got || got.right_ascension !== row.right_ascension || got.declination !== row.declination || got.radius !== row.radius) {
        throw new Error(`stored object differs: ${JSON.stringify(row)} -> ${JSON.stringify(got)}`);
      }
    }
  });

  it('lists it and shows its objects paged in the detail page', async () => {
    const row = page.getByTestId('watch-list-row').filter({ hasText: 'E2E hundred thousand' });
    await row.waitFor();
    expect((await row.locator('td').allTextContents()).slice(1, 5)).toEqual([
      'E2E hundred thousand',
      'One hundred thousand objects from one CSV file.',
      '#e2e-watch',
      '100,000',
    ]);
    await expectNoSeriousViolations(page);
    await row.getByRole('link', { name: 'E2E hundred thousand' }).click();
    await page.waitForURL((url) => url.pathname === `/watch-lists/${bigId}`);
    await page.getByRole('heading', { name: 'E2E hundred thousand' }).waitFor();
    await page.getByText('One hundred thousand objects from one CSV file.').waitFor();
    const table = page.locator('#watch-list-objects');
    await page.getByText('Showing 1 to 5 of 100000 entries').waitFor({ timeout: 30_000 });
    expect(await table.locator('tbody tr').count()).toBe(5);
    await page.getByRole('button', { name: 'Last page' }).click();
    await page.getByText('Showing 99996 to 100000 of 100000 entries').waitFor();
    await page.getByLabel('Show', { exact: true }).selectOption('25');
    await page.getByText('Showing 1 to 25 of 100000 entries').waitFor();
    const comments = (await table.locator('tbody tr td:nth-child(4)').allTextContents()).filter(Boolean);
    expect(comments).toHaveLength(25);
    for (const comment of comments) expect(comment).toMatch(/^object \d+$/);
    await expectNoSeriousViolations(page);
  });

  it('selects rows in range mode and, once confirmed, deletes the selected lists in parallel', async () => {
    const ids: Record<string, string> = {};
    for (const name of ['E2E range A', 'E2E range B', 'E2E range C']) {
      ids[name] = await createThroughApi(call, userId, name, [{ right_ascension: 1, declination: 1, radius: 0.001 }]);
    }
    await open(page, '/watch-lists');
    const rows = page.getByTestId('watch-list-row');
    await rows.nth(3).waitFor();
    expect(await rows.locator('td:nth-child(2)').allTextContents()).toEqual([
      'E2E range C',
      'E2E range B',
      'E2E range A',
      'E2E hundred thousand',
    ]);
    const del = page.getByRole('button', { name: 'Delete Watch List(s)' });
    expect(await del.isDisabled()).toBe(true);
    const selected = async () => await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('aria-selected') === 'true'));

    await rows.nth(0).locator('td:nth-child(3)').click();
    expect(await selected()).toEqual([true, false, false, false]);
    await rows
      .nth(2)
      .locator('td:nth-child(3)')
      .click({ modifiers: ['Shift'] });
    expect(await selected()).toEqual([true, true, true, false]);
    await rows
      .nth(1)
      .locator('td:nth-child(3)')
      .click({ modifiers: ['Control'] });
    expect(await selected()).toEqual([true, false, true, false]);
    // A plain click selects one row alone; the checkboxes toggle.
    await rows.nth(3).locator('td:nth-child(3)').click();
    expect(await selected()).toEqual([false, false, false, true]);
    await page.getByLabel('Select E2E hundred thousand').uncheck();
    await page.getByLabel('Select E2E range C').check();
    await page.getByLabel('Select E2E range A').check();
    expect(await selected()).toEqual([true, false, true, false]);
    expect(await del.isEnabled()).toBe(true);

    // Both DELETE calls must be under way at once: each is held until the other has been sent.
    const held: { url: string; release: () => void }[] = [];
    let bothSent: () => void = () => undefined;
    const sent = new Promise<void>((resolve) => (bothSent = resolve));
    await page.route('**/v1/watch_lists/*', async (route) => {
      if (route.request().method() !== 'DELETE') return route.continue();
      await new Promise<void>((resolve) => {
        held.push({ url: route.request().url(), release: resolve });
        if (held.length === 2) bothSent();
      });
      await route.continue();
    });
    try {
      // Deleting asks first, naming the lists; Cancel deletes nothing.
      await del.click();
      const dialog = page.getByTestId('delete-watch-lists-dialog');
      await dialog.getByRole('heading', { name: 'Delete 2 watch lists?' }).waitFor();
      expect(await dialog.locator('li').allTextContents()).toEqual(['E2E range C', 'E2E range A']);
      await expectNoSeriousViolations(page);
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await dialog.waitFor({ state: 'detached' });
      expect(held).toHaveLength(0);
      expect(await selected()).toEqual([true, false, true, false]);
      expect((await userWatchLists(call, userId)).meta.count).toBe(4);
      await del.click();
      await page.getByTestId('delete-watch-lists-dialog').getByRole('button', { name: 'Delete 2 Watch Lists' }).click();
      // Not a timing check: sequential deletions would wait here for ever.
      await Promise.race([
        sent,
        new Promise((_, reject) =>
          setTimeout(() => reject(new Error(`only ${held.length} DELETE call(s) under way at once: not in parallel`)), 30_000),
        ),
      ]);
      held.forEach((h) => h.release());
      expect(held.map((h) => h.url.split('/').at(-1)).sort()).toEqual([ids['E2E range A'], ids['E2E range C']].sort());
      await pollUntil(
        () => rows.locator('td:nth-child(2)').allTextContents(),
        (names) => names.length === 2,
        30_000,
        'rows after deletion',
      );
    } finally {
      held.forEach((h) => h.release());
      await page.unroute('**/v1/watch_lists/*');
    }
    expect(await rows.locator('td:nth-child(2)').allTextContents()).toEqual(['E2E range B', 'E2E hundred thousand']);
    expect(await selected()).toEqual([false, false]);
    expect(await del.isDisabled()).toBe(true);
    const lists = await userWatchLists(call, userId);
    expect(lists.data.map((l) => l.attributes.name)).toEqual(['E2E range B', 'E2E hundred thousand']);
    expect(watch.problems()).toEqual([]);
  });
});
