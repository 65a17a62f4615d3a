import type { FilterEnvironment } from '@antares/contract';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';

import { PROMISED_PACKAGES } from '../../server/src/testing/promised-packages';
import { baseURL, expectNoSeriousViolations, open } from './support/app';
import { requireChromium } from './support/chromium';
import { usePage } from './support/page';

const enabled = requireChromium();

describe.skipIf(!enabled)('the filter environment on the Filters page and in the FAQ', () => {
  let page: Page;
  let environment: FilterEnvironment;

  usePage(async (opened) => {
    ({ page } = opened);
    const response = await fetch(`${baseURL()}/v1/filter_environment`);
    expect(response.status).toBe(200);
    environment = ((await response.json()) as { data: { attributes: FilterEnvironment } }).data.attributes;
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
    expect(rows.map(([name]) => name)).toEqual(PROMISED_PACKAGES);
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
