import type { Page } from 'playwright-core';

import { apiSession, baseURL, type Call, expectNoSeriousViolations, json } from './app';

/** A devkit filter that tags every locus it sees, sets one property and prints a line. */
export function taggerCode(tag: string): string {
  return `import antares.devkit as dk


class E2eTagger(dk.Filter):
    """Tags every locus (end-to-end test)."""

    OUTPUT_TAGS = [
        {'name': '${tag}', 'description': 'Every locus the end-to-end test filter saw.'},
    ]
    OUTPUT_LOCUS_PROPERTIES = [
        {'name': '${tag}_alerts', 'type': 'int', 'description': 'Alerts of the locus.'},
    ]

    def run(self, locus):
        print('checked', locus.locus_id)
        locus.properties['${tag}_alerts'] = len(locus.alerts)
        locus.tag('${tag}')
`;
}

export const BROKEN_CODE = `import antares.devkit as dk

class Broken(dk.Filter)
    def run(self, locus):
        pass
`;

/** The text of the CodeMirror editor on the page (one .cm-line per line). */
export async function editorText(page: Page): Promise<string> {
  const lines = await page.locator('[data-testid=code-editor] .cm-line').allTextContents();
  return lines.join('\n');
}

/** Uploads code through the Upload code button's file chooser. */
export async function uploadCode(page: Page, code: string, name = 'filter.py'): Promise<void> {
  const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.getByRole('button', { name: 'Upload code' }).click()]);
  await chooser.setFiles({ name, mimeType: 'text/x-python', buffer: Buffer.from(code) });
}

/** The ids of the loci carrying a tag, through the locus search (GET /v1/loci with a terms filter). */
export async function lociWithTag(tag: string): Promise<string[]> {
  const query = JSON.stringify({ query: { bool: { filter: [{ terms: { tags: [tag] } }] } } });
  const url = `${baseURL()}/v1/loci?page%5Blimit%5D=100&elasticsearch_query%5Blocus_listing%5D=${encodeURIComponent(query)}`;
  const response = await fetch(url);
  if (!response.ok) throw new Error(`locus search failed: ${response.status} ${await response.text()}`);
  const body = (await response.json()) as { data: { id: string }[] };
  return body.data.map((locus) => locus.id);
}

/**
 * A filter of the caller with one version per code (commented "version 1", ... unless `comments` are
 * given); returns the filter id and the version ids.
 */
export async function filterWithVersions(
  call: Call,
  name: string,
  codes: string[],
  options: { description?: string; comments?: string[] } = {},
): Promise<{ filterId: string; versionIds: string[] }> {
  const me = await json<{ identity?: string; user?: { id: string } }>(await call('/auth/check'));
  const userId = me.user?.id ?? me.identity;
  const description = options.description ?? 'Made by the end-to-end tests.';
  const created = await json<{ data: { id: string } }>(
    await call(`/users/${userId}/filters`, { method: 'POST', body: { data: { type: 'filter', attributes: { name, description } } } }),
  );
  const filterId = created.data.id;
  const versionIds: string[] = [];
  for (const [i, code] of codes.entries()) {
    const version = await json<{ data: { id: string } }>(
      await call(`/filters/${filterId}/versions`, {
        method: 'POST',
        body: {
          data: {
            type: 'filter_version',
            attributes: { code, comment: options.comments?.[i] ?? `version ${i + 1}` },
            relationships: { filter: { data: { type: 'filter', id: filterId } } },
          },
        },
      }),
    );
    versionIds.push(version.data.id);
  }
  return { filterId, versionIds };
}

/**
 * Disables (with feedback) every enabled version of the filters whose name contains the mark, so that a
 * test filter never keeps running on later ingestions of the kept e2e database.
 */
export async function disableTestFilters(admin: { username: string; password: string }, mark: string): Promise<void> {
  const call = await apiSession(admin);
  const list = (await (await call('/filters?page%5Blimit%5D=100&sort=-created_at')).json()) as {
    data: { id: string; attributes: { name: string; enabled_version: string | null } }[];
  };
  for (const filter of list.data.filter((f) => f.attributes.name.includes(mark) && f.attributes.enabled_version)) {
    await call(`/filters/${filter.id}/versions/${filter.attributes.enabled_version}`, {
      method: 'PATCH',
      body: { data: { type: 'filter_version', attributes: { status: 'DISABLED', feedback: 'End-to-end test finished.' } } },
    });
  }
}

/** Accessibility check once the pointer is out of the way and transitions (modal fades) have ended. */
export async function checkA11y(page: Page): Promise<void> {
  await page.mouse.move(0, 0);
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((animation) => animation.effect?.getTiming().iterations !== Infinity)
        .map((animation) => animation.finished.catch(() => undefined)),
    ),
  );
  await expectNoSeriousViolations(page);
}

/** A table's header texts without sort arrows and help badges. */
export const headerTexts = async (page: Page, table: string) =>
  (await page.locator(`#${table} thead th`).allTextContents()).map((h) =>
    h
      .replace(/[▲▼↕?]/g, '')
      .replace(/Reflects only.*$/, '')
      .trim(),
  );
