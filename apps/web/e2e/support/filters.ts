import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { apiSession, baseURL, expectNoSeriousViolations } from './app';
import { WEB_ROOT } from './server';

const REPO_ROOT = path.resolve(WEB_ROOT, '../..');

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

/**
 * Drops fresh simulated alerts into the running server's inbox: written as `.avro.part` in the inbox
 * itself, then renamed, so the server never reads a half-written file. Returns the file names.
 */
export function dropSimulatedAlerts(dataDir: string, seed: number, prefix: string): string[] {
  const out = mkdtempSync(path.join(tmpdir(), 'antares-e2e-alerts-'));
  try {
    const result = spawnSync(
      'npx',
      ['tsx', 'apps/cli/src/main.ts', 'simulate', '--out', out, '--objects', '20', '--nights', '4', '--seed', String(seed)],
      { cwd: REPO_ROOT, encoding: 'utf8' },
    );
    if (result.status !== 0) throw new Error(`antares simulate failed: ${result.stdout}${result.stderr}`);
    const inbox = path.join(dataDir, 'inbox');
    mkdirSync(inbox, { recursive: true });
    const names = readdirSync(out).filter((name) => name.endsWith('.avro'));
    for (const name of names) {
      const target = path.join(inbox, `${prefix}-${name}`);
      copyFileSync(path.join(out, name), `${target}.part`);
      renameSync(`${target}.part`, target);
    }
    return names.map((name) => `${prefix}-${name}`);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

/** Where each dropped file is: 'done' or 'failed' once the server took it, else 'waiting'. */
export function inboxStates(dataDir: string, files: string[]): ('done' | 'failed' | 'waiting')[] {
  const inbox = path.join(dataDir, 'inbox');
  return files.map((name) =>
    existsSync(path.join(inbox, 'done', name)) ? 'done' : existsSync(path.join(inbox, 'failed', name)) ? 'failed' : 'waiting',
  );
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

/** Polls until a condition holds (checking every second), failing with the last value after the timeout. */
export async function pollUntil<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs: number, what: string): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let value = await read();
  while (!done(value)) {
    if (Date.now() > deadline) throw new Error(`${what}: still ${JSON.stringify(value)} after ${timeoutMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    value = await read();
  }
  return value;
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
  (await page.locator(`#${table} thead th`).allTextContents()).map((h) => h.replace(/[▲▼↕?]/g, '').replace(/Reflects only.*$/, '').trim());
