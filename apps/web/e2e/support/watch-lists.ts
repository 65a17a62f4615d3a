import { spawnSync } from 'node:child_process';
import path from 'node:path';

import type { Page } from 'playwright-core';

import { type Call, json } from './app';
import { WEB_ROOT } from './server';

const REPO_ROOT = path.resolve(WEB_ROOT, '../..');

export interface WatchListDocument {
  id: string;
  attributes: {
    name: string;
    object_count: number;
    objects?: { right_ascension: number; declination: number; radius: number; comment: string | null }[];
  };
}

export async function userWatchLists(call: Call, userId: string): Promise<{ data: WatchListDocument[]; meta: { count: number } }> {
  return json(await call(`/users/${userId}/watch_lists?page%5Blimit%5D=100&sort=-created_at`));
}

export async function createThroughApi(call: Call, userId: string, name: string, objects: object[]): Promise<string> {
  const response = await call(`/users/${userId}/watch_lists`, {
    method: 'POST',
    body: { data: { type: 'watch_list', attributes: { name, description: `${name} (made by the e2e test)`, objects } } },
  });
  const document = await json<{ data: WatchListDocument }>(response);
  return document.data.id;
}

/** The signed-in user's id, as the app stored it. */
export function sessionUserId(page: Page): Promise<string> {
  return page.evaluate(() => String(JSON.parse(localStorage.getItem('antares.session') ?? '{}').user?.id ?? ''));
}

/** Chooses a file in the objects field (a buffer, as a user would pick it). */
export async function chooseCsv(page: Page, name: string, content: string | Buffer): Promise<void> {
  await page.setInputFiles('#watch-list-objects', {
    name,
    mimeType: 'text/csv',
    buffer: Buffer.isBuffer(content) ? content : Buffer.from(content),
  });
}

/** The simulated objects of a seed, with the positions the simulator will write alerts at (its own plan). */
export function simulatedObjects(objects: number, nights: number, seed: number): { ra: number; dec: number }[] {
  const code = `import { planSurvey, DEFAULT_START_MJD } from '@antares/pipeline/simulate';
const plan = planSurvey({ objects: ${objects}, nights: ${nights}, seed: ${seed}, startMjd: DEFAULT_START_MJD });
console.log(JSON.stringify(plan.objects.map((o) => ({ ra: o.ra, dec: o.dec }))));`;
  const result = spawnSync('npx', ['tsx', '--eval', code], { cwd: REPO_ROOT, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`planning the simulated survey failed: ${result.stderr}`);
  return JSON.parse(result.stdout.trim().split('\n').at(-1) ?? '[]');
}
