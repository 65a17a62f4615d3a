import { spawnSync } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import path from 'node:path';

import type { Repositories } from '@antares/db';
import { ensureShippedFilters } from '@antares/pipeline';
import { loadConfig } from '@antares/server';

import { createProgress } from '../progress.ts';
import { runIngest } from './ingest.ts';
import { budgetOf, catchUpLevel2 } from './level2.ts';

// 3,300 objects over 12 nights give about 2,300 loci (some objects are bogus or not seen in the
// window; about 340 are seen by both ZTF and Rubin, 120 by Rubin only), ingested with the shipped
// filters in about two minutes.
export const DEMO_SURVEY = { objects: 3300, nights: 12, seed: 2026 };

/**
 * On every start: the shipped filters, installed or brought up to date (so an existing database gets
 * them too). Then, on an empty database: simulate the demo survey and ingest it, showing progress; Level 2
 * applies the shipped filters to it. Last, Level 2 runs on the loci its enabled filters missed.
 */
export async function ensureDemoData(repos: Repositories, dataDir: string): Promise<void> {
  const limits = loadConfig().filterLimits;
  await installShippedFilters(repos, limits.python);
  if ((await repos.loci.count()) === 0) await loadDemoSurvey(repos, dataDir);
  // Loci the filters never ran on (a first start without the sandbox): they run now, if they can.
  const config = loadConfig();
  await catchUpLevel2(repos, limits, 0, budgetOf(config));
}

/** Simulates the demo survey and ingests it (Level 2 applies the shipped filters when it can run). */
async function loadDemoSurvey(repos: Repositories, dataDir: string): Promise<void> {
  const out = path.join(dataDir, 'demo-survey');
  console.log(`Empty database: simulating a demo survey (${DEMO_SURVEY.objects} objects, ${DEMO_SURVEY.nights} nights) into ${out}`);
  const progress = createProgress('simulate', 1, 'packets');
  const { simulateSurvey } = await import('@antares/pipeline/simulate');
  await simulateSurvey({
    ...DEMO_SURVEY,
    outDir: out,
    anchors: await demoAnchors(repos),
    onProgress: (done: number, total: number) => progress.update(done, '', total),
  });
  progress.stop();
  await runIngest(repos, [out]);
  // The files can be made again from the seed at any time: no need to keep half a gigabyte around.
  rmSync(out, { recursive: true, force: true });
}

/** Galaxies of the built-in catalogs for some demo supernovae, stars for some variables. */
async function demoAnchors(repos: Repositories) {
  const galaxies = await repos.catalogs.someObjects('deep_sky_objects', 40, ['s', 's0', 'e', 'i', 'g', 'gg', 'sd']);
  const stars = await repos.catalogs.someObjects('hipparcos', 40);
  return {
    galaxies: galaxies.map((g) => ({ ra: g.ra, dec: g.dec, radiusDeg: g.radius })),
    stars: stars.map((s) => ({ ra: s.ra, dec: s.dec })),
  };
}

async function installShippedFilters(repos: Repositories, python: string): Promise<void> {
  const results = await ensureShippedFilters(repos, { python });
  const changed = results.filter((r) => r.action === 'created' || r.action === 'new-version');
  for (const r of results.filter((r) => r.action === 'skipped')) console.warn(`Shipped filter ${r.name} not installed: ${r.message}`);
  if (changed.length > 0) console.log(`Shipped filters enabled: ${changed.map((r) => `${r.name} (${r.action})`).join(', ')}`);
}

/** Builds the web app once if it has not been built (a fresh clone). */
export function ensureWebBuilt(root: string): void {
  if (existsSync(path.join(root, 'apps/web/dist/index.html'))) return;
  if (!existsSync(path.join(root, 'apps/web/package.json'))) return;
  console.log('Building the web app (first start only)...');
  const result = spawnSync('npm', ['run', 'build', '-w', '@antares/web'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) console.error('The web app failed to build; serving the API only.');
}
