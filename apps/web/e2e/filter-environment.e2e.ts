import type { FilterEnvironment } from '@antares/contract';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';

import { PROMISED_PACKAGES } from '../../server/src/testing/promised-packages';
import { E2E_ACCOUNTS } from './support/accounts';
import { baseURL, expectNoSeriousViolations, login, open } from './support/app';
import { requireChromium } from './support/chromium';
import { usePage } from './support/page';

const enabled = requireChromium();

describe.skipIf(!enabled)('the filter environment on its page, the Filters page and in the FAQ', () => {
  let page: Page;
  let environment: FilterEnvironment;

  usePage(async (opened) => {
    ({ page } = opened);
    const response = await fetch(`${baseURL()}/v1/filter_environment`);
    expect(response.status).toBe(200);
    environment = ((await response.json()) as { data: { attributes: FilterEnvironment } }).data.attributes;
  });

  /** The promised packages' rows as [package, import, version], the other modules' and the devkit paths, as shown. */
  async function shown(list: Locator) {
    await list.locator('tbody tr').first().waitFor();
    const cells = (trs: Element[]) => trs.map((tr) => [...tr.querySelectorAll('td')].slice(0, 3).map((td) => td.textContent?.trim() ?? ''));
    const rows = await list.getByTestId('filter-environment-promised').locator('tbody tr').evaluateAll(cells);
    const others = await list.getByTestId('filter-environment-others').locator('tbody tr').evaluateAll(cells);
    const modules = await list.locator('p code').allTextContents();
    return { rows, others, modules, python: await list.getByTestId('filter-environment-python').textContent() };
  }

  const row = (p: FilterEnvironment['packages'][number]) => [
    p.name,
    `import ${p.import}`,
    p.version ?? (p.location ? 'no version' : 'not installed on this server'),
  ];
  const expected = () => environment.packages.filter((p) => p.promised).map(row);
  const expectedOthers = () => environment.packages.filter((p) => !p.promised).map(row);

  it('lists the Python version, every package with its installed version, and the devkit module paths on the Filters page', async () => {
    await open(page, '/filters');
    await page.getByRole('heading', { name: 'Find Objects of Interest' }).waitFor();
    const list = page.getByTestId('filter-environment');
    const { rows, others, modules, python } = await shown(list);
    expect(rows.map(([name]) => name)).toEqual(PROMISED_PACKAGES);
    expect(rows).toEqual(expected());
    // Debian's other modules (the sandbox's launcher needs seccomp, so every server here has it), folded.
    expect(others).toEqual(expectedOthers());
    expect(others.map(([, module]) => module)).toContain('import seccomp');
    expect(await list.getByTestId('filter-environment-others').getAttribute('open')).toBeNull();
    expect(python).toBe(`Python ${environment.python}`);
    for (const module of ['antares.devkit', 'antares.dev_kit', 'antares_devkit', 'antares_devkit.models', 'devkit2_poc.models'])
      expect(modules).toContain(module);
    await list.getByText('CPU only').waitFor();
    await expectNoSeriousViolations(page);
  });

  it('shows the same list in the FAQ, which links to the Filter Environment page', async () => {
    await open(page, '/faq');
    await page.getByRole('button', { name: 'Which Python packages can a filter import?' }).click();
    const list = page.getByTestId('filter-environment');
    await list.waitFor();
    const { rows, python } = await shown(list);
    expect(rows).toEqual(expected());
    expect(python).toBe(`Python ${environment.python}`);
    await expectNoSeriousViolations(page);
    await page.getByRole('link', { name: 'Filter Environment' }).click();
    await page.getByRole('heading', { name: 'Filter Environment' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/filters/environment');
  });

  it('lists every module, unfolded, on the Filter Environment page, which the filter create page links to', async () => {
    await login(page, E2E_ACCOUNTS.user);
    await open(page, '/filters/create');
    const link = page.getByRole('link', { name: 'Filter Environment' });
    expect(await link.getAttribute('href')).toBe('/filters/environment');
    await open(page, '/filters/environment');
    const list = page.getByTestId('filter-environment');
    const { rows, others } = await shown(list);
    expect(rows).toEqual(expected());
    expect(others).toEqual(expectedOthers());
    expect(await list.getByTestId('filter-environment-others').getAttribute('open')).not.toBeNull();
    expect(await page.title()).toBe('Filter Environment | ANTARES');
    await expectNoSeriousViolations(page);
  });
});
