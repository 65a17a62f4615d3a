import type { FilterEnvironment } from '@antares/contract';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { baseURL, expectNoSeriousViolations, open } from './support/app';
import { type BrowserSession, launchBrowser, requireChromium } from './support/chromium';

const enabled = requireChromium();

/** The packages issue #15 promises filter authors (the server test checks their versions against Python's). */
const PROMISED = [
  'numpy',
  'scipy',
  'pandas',
  'astropy',
  'statsmodels',
  'scikit-learn',
  'matplotlib',
  'PyTorch',
  'PyYAML',
  'requests',
  'sncosmo',
  'extinction',
  'iminuit',
  'emcee',
  'healpy',
  'scikit-image',
  'xgboost',
];

describe.skipIf(!enabled)('the filter environment on the Filters page and in the FAQ', () => {
  let session: BrowserSession;
  let page: Page;
  let environment: FilterEnvironment;

  beforeAll(async () => {
    session = await launchBrowser();
    page = await session.context.newPage();
    const response = await fetch(`${baseURL()}/v1/filter_environment`);
    expect(response.status).toBe(200);
    environment = ((await response.json()) as { data: { attributes: FilterEnvironment } }).data.attributes;
  });
  afterAll(async () => {
    await session?.close();
  });

  /** Every row as [package, import, version] and the devkit paths, as shown. */
  async function shown(list: Locator) {
    await list.locator('tbody tr').first().waitFor();
    const rows = await list
      .locator('tbody tr')
      .evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].slice(0, 3).map((td) => td.textContent?.trim() ?? '')));
    const modules = await list.locator('p code').allTextContents();
    return { rows, modules, python: await list.getByTestId('filter-environment-python').textContent() };
  }

  function expected() {
    return environment.packages.map((p) => [p.name, `import ${p.import}`, p.version ?? 'not installed on this server']);
  }

  it('lists the Python version, every package with its installed version, and the devkit module paths on the Filters page', async () => {
    await open(page, '/filters');
    await page.getByRole('heading', { name: 'Find Objects of Interest' }).waitFor();
    const list = page.getByTestId('filter-environment');
    const { rows, modules, python } = await shown(list);
    expect(rows.map(([name]) => name)).toEqual(PROMISED);
    expect(rows).toEqual(expected());
    expect(python).toBe(`Python ${environment.python}`);
    for (const module of ['antares.devkit', 'antares.dev_kit', 'antares_devkit', 'antares_devkit.models', 'devkit2_poc.models'])
      expect(modules).toContain(module);
    await list.getByText('CPU only').waitFor();
    await expectNoSeriousViolations(page);
  });

  it('shows the same list in the FAQ', async () => {
    await open(page, '/faq');
    await page.getByRole('button', { name: 'Which Python packages can a filter import?' }).click();
    const list = page.getByTestId('filter-environment');
    await list.waitFor();
    const { rows, python } = await shown(list);
    expect(rows).toEqual(expected());
    expect(python).toBe(`Python ${environment.python}`);
    await expectNoSeriousViolations(page);
  });
});
