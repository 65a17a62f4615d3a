import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';

import { E2E_ACCOUNTS } from './support/accounts';
import { apiSession, type Call, json, listQuery, login, open, registerAccount } from './support/app';
import { launchBrowser, requireChromium } from './support/chromium';
import { checkA11y, filterWithVersions, uploadCode } from './support/filters';
import { pollUntil } from './support/inbox';
import { type PageWatch, usePage } from './support/page';

// Filter backtests in the browser (issue #19 pt 5): the Backtest panel of the filter detail runs a job
// in the real sandbox with progress streamed from the server, shows its results and links to the loci
// it tagged; a job is cancelled; an admin compares the backtests of two versions.
const enabled = requireChromium();

/** Tags the loci it sees where `condition` holds (every one, or about half by their ids: two versions that differ). */
const EVERY = 'True';
const HALF = 'sum(map(ord, locus.locus_id)) % 2 == 0';
const tagger = (tag: string, condition: string) => `import antares.devkit as dk


class BacktestE2e(dk.Filter):
    OUTPUT_TAGS = [{'name': '${tag}', 'description': 'Backtest end-to-end test.'}]
    OUTPUT_LOCUS_PROPERTIES = [{'name': '${tag}_n', 'type': 'int', 'description': 'Alerts seen.'}]

    def run(self, locus):
        locus.properties['${tag}_n'] = len(locus.alerts)
        if ${condition}:
            locus.tag('${tag}')
`;
/** Slow enough (50 ms a step, hundreds of steps) to be cancelled while it runs. */
const SLOW = `import time
import antares.devkit as dk


class SlowE2e(dk.Filter):
    def run(self, locus):
        time.sleep(0.05)
`;

type BacktestDoc = { data: { id: string; attributes: { state: string; results: { tagged_loci: number } | null } } };

async function backtestUntilDone(call: Call, filterId: string, versionId: string): Promise<BacktestDoc['data']> {
  const started = await json<BacktestDoc>(
    await call(`/filters/${filterId}/versions/${versionId}/backtests`, {
      method: 'POST',
      body: { data: { type: 'backtest', attributes: { max_loci: 60 } } },
    }),
  );
  const last = await pollUntil(
    async () => (await json<BacktestDoc>(await call(`/backtests/${started.data.id}`))).data,
    (job) => job.attributes.state !== 'queued' && job.attributes.state !== 'running',
    110_000,
    `backtest ${started.data.id}`,
  );
  expect(last.attributes.state).toBe('done');
  return last;
}

describe.skipIf(!enabled)('filter backtests in the browser', () => {
  let page: Page;
  let watch: PageWatch;
  let call: Call;
  const stamp = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4).toString(36)}`;
  const tag = `e2e_bt_${stamp}`;

  usePage(async (opened) => {
    ({ page, watch } = opened);
    // A new author per run: one backtest at a time per user, and earlier runs' jobs stay in the kept database.
    const author = await registerAccount('e2e_bt_');
    call = await apiSession(author);
    await login(page, author);
  });

  it('starts a backtest, follows its progress and shows its results with a link to the tagged loci', async () => {
    const { filterId } = await filterWithVersions(call, `Backtest E2E ${stamp}`, [tagger(tag, EVERY)]);
    await open(page, `/filters/${filterId}`);
    const panel = page.getByTestId('backtest-panel');
    await panel.getByRole('heading', { name: 'Backtest this version' }).waitFor();
    await panel.getByLabel('At most loci').fill('40');
    // A bad search is caught before it is sent.
    await panel.getByLabel(/Locus search/).fill('{"query":');
    await panel.getByText('The locus search must be JSON').waitFor();
    expect(await panel.getByRole('button', { name: 'Start backtest' }).isDisabled()).toBe(true);
    await panel.getByLabel(/Locus search/).fill('');
    const events = page.waitForResponse((r) => /\/v1\/backtests\/\d+\/events$/.test(r.url()));
    await panel.getByRole('button', { name: 'Start backtest' }).click();

    // Progress comes from the server-sent events; the bar is labelled and carries its value.
    expect((await events).headers()['content-type']).toContain('text/event-stream');
    const bar = panel.getByRole('progressbar', { name: /Backtest \d+ progress/ });
    await bar.waitFor();
    await panel.getByTestId('backtest-state').filter({ hasText: 'done' }).waitFor({ timeout: 110_000 });
    expect(await bar.getAttribute('aria-valuenow')).toBe('100');
    expect(await panel.getByTestId('backtest-progress-text').textContent()).toMatch(/^40 of 40 loci, [\d,]+ alerts replayed/);

    const summary = await panel.getByTestId('backtest-summary').textContent();
    expect(summary).toMatch(/^Replayed 40 loci \([\d,]+ alerts\): 40 loci tagged\.$/);
    await panel.getByTestId('backtest-nightly-chart').locator('svg[role=img] rect').first().waitFor();
    await panel.getByText('Counts per night').click();
    expect(await panel.getByTestId('backtest-nights').locator('tbody tr').count()).toBeGreaterThan(0);
    expect(await panel.getByTestId('backtest-projection').textContent()).toMatch(/tagged alerts per night/);
    expect(await panel.getByTestId('backtest-cost').textContent()).toMatch(/p50 [\d.]+ ms, p90 [\d.]+ ms, p99 [\d.]+ ms/);
    expect(await panel.getByTestId('backtest-budget').textContent()).toMatch(
      /Projected: [\d.]+ s per 10,000 alerts, [\d.]+ % of the 30 s all enabled filters may take .*Projected yield: [\d,.]+ passing alerts per 10,000 \(asked: 20 on average, 100 at most\)/,
    );
    expect(await panel.getByTestId('backtest-errors').textContent()).toContain('No error or timeout.');
    expect(await panel.getByTestId('backtest-first-tags').locator('tbody tr').count()).toBe(40);
    expect(await panel.getByTestId('backtest-properties').textContent()).toContain(`${tag}_n on 40 loci`);
    await checkA11y(page);

    // The link lists the tagged loci through the backtest_id search term.
    await panel.getByTestId('backtest-tagged-link').click();
    await page.waitForURL((url) => url.pathname === '/loci');
    expect(listQuery(page).filters.map((f) => f.text)).toEqual([expect.stringMatching(/^Tagged by backtest \d+$/)]);
    await page.locator('[data-testid=locus-row]').first().waitFor();
    await page
      .getByText(/^Showing 1-\d+ of 40$/)
      .first()
      .waitFor();
    expect(watch.problems()).toEqual([]);
  });

  it('cancels a running backtest and keeps what it did', async () => {
    const { filterId } = await filterWithVersions(call, `Backtest E2E slow ${stamp}`, [SLOW]);
    await open(page, `/filters/${filterId}`);
    const panel = page.getByTestId('backtest-panel');
    await panel.getByRole('button', { name: 'Start backtest' }).click();
    await panel
      .getByTestId('backtest-state')
      .filter({ hasText: /queued|running/ })
      .waitFor();
    // Only one job at a time: Start waits for this one to end.
    expect(await panel.getByRole('button', { name: 'Start backtest' }).isDisabled()).toBe(true);
    await panel.getByRole('button', { name: 'Cancel backtest' }).click();
    await panel.getByTestId('backtest-state').filter({ hasText: 'cancelled' }).waitFor({ timeout: 60_000 });
    expect(await panel.getByRole('button', { name: 'Cancel backtest' }).count()).toBe(0);
    expect(await panel.getByRole('button', { name: 'Start backtest' }).isDisabled()).toBe(false);
    // The job is over on the server too, and the page shows it again on a reload.
    await open(page, `/filters/${filterId}`);
    await panel.getByTestId('backtest-state').filter({ hasText: 'cancelled' }).waitFor();
  });

  it('backtests the unsaved code of the editor', async () => {
    const { filterId } = await filterWithVersions(call, `Backtest E2E draft ${stamp}`, []);
    await open(page, `/filters/${filterId}`);
    await uploadCode(page, tagger(tag, HALF));
    const panel = page.getByTestId('backtest-panel');
    await panel.getByRole('heading', { name: 'Backtest this code' }).waitFor();
    await panel.getByLabel('Window in').selectOption('mjd');
    await panel.getByLabel('From').fill('0');
    await panel.getByLabel('To').fill('100000');
    await panel.getByLabel('At most loci').fill('30');
    const posted = page.waitForRequest((r) => r.method() === 'POST' && r.url().endsWith('/v1/filters/test/backtests'));
    await panel.getByRole('button', { name: 'Start backtest' }).click();
    const body = (await posted).postDataJSON() as { data: { attributes: Record<string, unknown> } };
    expect(body.data.attributes).toMatchObject({ from_mjd: 0, to_mjd: 100000, max_loci: 30 });
    expect(body.data.attributes.code).toContain(HALF);
    await panel.getByTestId('backtest-state').filter({ hasText: 'done' }).waitFor({ timeout: 110_000 });
    const summary = (await panel.getByTestId('backtest-summary').textContent()) ?? '';
    const tagged = Number(/: (\d+) loci tagged\.$/.exec(summary)?.[1]);
    expect(summary).toMatch(/^Replayed 30 loci /);
    expect(tagged).toBeGreaterThan(0);
    expect(tagged).toBeLessThan(30);
  });

  it('shows an admin the loci two versions tag, both and apart, beside the review buttons', async () => {
    const { filterId, versionIds } = await filterWithVersions(call, `Backtest E2E compare ${stamp}`, [
      tagger(tag, EVERY),
      tagger(tag, HALF),
    ]);
    const first = await backtestUntilDone(call, filterId, versionIds[0]);
    const second = await backtestUntilDone(call, filterId, versionIds[1]);
    const expected = await json<{ data: { attributes: Record<'both' | 'only_first' | 'only_second', { count: number }> } }>(
      await call(`/backtests/${first.id}/comparison/${second.id}`),
    );
    const { both, only_first: onlyFirst, only_second: onlySecond } = expected.data.attributes;
    expect(onlyFirst.count).toBeGreaterThan(0);
    expect(both.count).toBeGreaterThan(0);
    expect(onlySecond.count).toBe(0);

    const adminSession = await launchBrowser();
    try {
      const adminPage = await adminSession.context.newPage();
      await login(adminPage, E2E_ACCOUNTS.admin);
      await open(adminPage, `/admin/filters/${filterId}`);
      const comparison = adminPage.getByTestId('backtest-comparison');
      await adminPage.getByTestId('transition-buttons').waitFor();
      await comparison.getByLabel('First (say the old version)').selectOption(first.id);
      await comparison.getByLabel('Second (say the new version)').selectOption(second.id);
      const table = comparison.getByTestId('backtest-comparison-table');
      await table.waitFor();
      const counts = await table.locator('tbody tr td:nth-child(2)').allTextContents();
      expect(counts).toEqual([String(both.count), String(onlyFirst.count), String(onlySecond.count)]);
      await checkA11y(adminPage);

      await comparison.getByRole('link', { name: new RegExp(`^Only by backtest ${first.id}: the ${onlyFirst.count} loci`) }).click();
      await adminPage.waitForURL((url) => url.pathname === '/loci');
      expect(listQuery(adminPage).filters.map((f) => f.text)).toEqual([`Only by backtest ${first.id} (${first.id} vs ${second.id})`]);
      await adminPage.locator('[data-testid=locus-row]').first().waitFor();
      await adminPage
        .getByText(new RegExp(`^Showing 1-\\d+ of ${onlyFirst.count}$`))
        .first()
        .waitFor();
    } finally {
      await adminSession.close();
    }
  });
});
