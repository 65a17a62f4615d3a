import type { Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';

import { apiSession, baseURL, type Call, expectNoSeriousViolations, json, listQuery, login, open, registerAccount } from './support/app';
import { requireChromium } from './support/chromium';
import { dropSimulatedAlerts, pollUntil } from './support/inbox';
import { type PageWatch, usePage } from './support/page';
import { chooseCsv, createThroughApi, sessionUserId, simulatedObjects } from './support/watch-lists';

const enabled = requireChromium();

// Watch lists matched against loci: alerts that arrive after a list is made, and loci already known.
describe.skipIf(!enabled)('watch lists matching loci', () => {
  let page: Page;
  let watch: PageWatch;
  let call: Call;
  let userId: string;

  usePage(async (opened) => {
    ({ page, watch } = opened);
    const account = await registerAccount('e2e_watch_');
    call = await apiSession(account);
    await login(page, account);
    userId = await sessionUserId(page);
    expect(userId).not.toBe('');
  });

  it('View Loci shows the loci whose new alerts fell within the list', async () => {
    const dataDir = inject('dataDir');
    if (!dataDir) return; // a server we did not start: no inbox to drop alerts into
    const seed = 40_000 + Math.floor(Math.random() * 10_000);
    const planned = simulatedObjects(20, 3, seed);
    const name = `E2E matched ${seed}`;
    const id = await createThroughApi(
      call,
      userId,
      name,
      planned.map((o, i) => ({ right_ascension: o.ra, declination: o.dec, radius: 0.003, comment: `simulated object ${i}` })),
    );
    // Objects where no locus was yet: the alerts dropped after the list was made are matched as they arrive.
    dropSimulatedAlerts(dataDir, { seed, prefix: `watch-${seed}`, objects: 20, nights: 3 });
    const query = JSON.stringify({ query: { bool: { filter: [{ term: { watch_list_ids: id } }] } } });
    const search = `/loci?page%5Blimit%5D=100&elasticsearch_query%5Blocus_listing%5D=${encodeURIComponent(query)}`;
    const matched = await pollUntil(
      async () => (await json<{ data: { id: string }[] }>(await fetch(`${baseURL()}/v1${search}`))).data.map((l) => l.id),
      (ids) => ids.length > 0,
      300_000,
      `loci matched by watch list ${id}`,
    );

    await open(page, '/watch-lists');
    const row = page.getByTestId('watch-list-row').filter({ hasText: name });
    await row.getByRole('link', { name: 'View Loci' }).click();
    await page.waitForURL((url) => url.pathname === '/loci');
    expect(listQuery(page).filters).toEqual([{ type: 'term', field: 'watch_list_ids', value: id, text: `Watch List: ${name}` }]);
    await page.getByText(`Watch List: ${name}`).first().waitFor();
    await page.locator('[data-testid=locus-row]').first().waitFor();
    const shown = await page.locator('[data-testid=locus-row] td:first-child a').allTextContents();
    // The list may have grown while the inbox was still being ingested: every shown locus was matched.
    const now = (await json<{ data: { id: string }[] }>(await fetch(`${baseURL()}/v1${search}`))).data.map((l) => l.id);
    expect(shown.length).toBeGreaterThan(0);
    for (const locusId of shown) expect(now).toContain(locusId);
    expect(now).toEqual(expect.arrayContaining(matched));
  }, 420_000);

  it('matches a new list against the loci already known: View Loci shows them at once', async () => {
    // A locus of the seeded survey and the position of one of its detections.
    const loci = await json<{ data: { id: string }[] }>(await fetch(`${baseURL()}/v1/loci?page%5Blimit%5D=5`));
    const locusId = loci.data[0].id;
    const alerts = await json<{ data: { attributes: { properties: Record<string, unknown> } }[] }>(
      await fetch(`${baseURL()}/v1/loci/${locusId}/alerts`),
    );
    const detection = alerts.data
      .map((a) => a.attributes.properties)
      .find((p) => typeof p.ant_ra === 'number' && typeof p.ant_dec === 'number')!;
    const name = `E2E known source ${Date.now().toString(36)}`;

    await open(page, '/watch-lists/create');
    await page.getByLabel('Name', { exact: true }).fill(name);
    await page.getByLabel('Description', { exact: true }).fill('A source that already has alerts.');
    await chooseCsv(page, 'known.csv', `${detection.ant_ra},${detection.ant_dec},0.0005,known source\n`);
    await page.getByTestId('objects-file-valid').getByText('1 object read from known.csv.').waitFor();
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.waitForURL((url) => url.pathname === '/watch-lists');
    const row = page.getByTestId('watch-list-row').filter({ hasText: name });
    await row.getByRole('link', { name }).click();
    await page.getByRole('heading', { name }).waitFor();
    // "Matching history..." while the server works, then the count.
    const state = page.getByTestId('watch-list-matching');
    await state.waitFor();
    expect(await state.textContent()).toMatch(/^(Matching history\.\.\.|\d+ loc(us|i) matched)$/);
    await page.getByText(/^\d+ loc(us|i) matched$/).waitFor({ timeout: 60_000 });
    const matched = Number(/^(\d+)/.exec((await state.textContent()) ?? '')![1]);
    expect(matched).toBeGreaterThanOrEqual(1);
    await expectNoSeriousViolations(page);

    await page.getByRole('link', { name: 'View Loci' }).click();
    await page.waitForURL((url) => url.pathname === '/loci');
    await page.getByText(`Watch List: ${name}`).first().waitFor();
    await page.locator('[data-testid=locus-row]').first().waitFor();
    const shown = await page.locator('[data-testid=locus-row] td:first-child a').allTextContents();
    expect(shown).toContain(locusId);
    expect(shown).toHaveLength(matched);
    expect(watch.problems()).toEqual([]);
  });
});
