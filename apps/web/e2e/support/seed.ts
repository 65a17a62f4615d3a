import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { catalogCsv, GALAXY_CATALOG, MANIFEST_FILE, planCatalogs, type SeedLocus, STAR_CATALOG } from './catalog-seed';

/**
 * The one-time seeding of the e2e database: a small simulated survey, ingested, then two small
 * catalogs placed around its loci (catalog-seed.ts). The server fingerprints these files and the
 * simulator's: a change to the recipe seeds a new database.
 */
const HERE = path.dirname(fileURLToPath(import.meta.url));
const REPO_ROOT = path.resolve(HERE, '../../../..');
const SIMULATOR = path.join(REPO_ROOT, 'apps/pipeline/src/simulate');
/** The survey simulator is part of the recipe too: a change to what it writes seeds a new database. */
export const SEED_RECIPE = [
  path.join(HERE, 'seed.ts'),
  path.join(HERE, 'catalog-seed.ts'),
  ...readdirSync(SIMULATOR)
    .filter((n) => n.endsWith('.ts') && !n.endsWith('.test.ts'))
    .sort()
    .map((n) => path.join(SIMULATOR, n)),
];
/** A small simulated survey: enough loci, alerts and cutouts for every flow, quick to ingest. */
export const SURVEY = { objects: '120', nights: '8', seed: '2026' };

function run(args: string[], env: NodeJS.ProcessEnv): void {
  const result = spawnSync('npx', ['tsx', 'apps/cli/src/main.ts', ...args], { cwd: REPO_ROOT, env, stdio: 'inherit' });
  if (result.status !== 0) throw new Error(`antares ${args.join(' ')} failed with status ${result.status}`);
}

/** Every locus of the seeded database (id and position), read with the CLI's own database opening. */
function readLoci(env: NodeJS.ProcessEnv): SeedLocus[] {
  const code = `import { loadConfig } from '@antares/server';
import { openConfiguredDatabase } from './apps/cli/src/database.ts';
async function main() {
  const database = await openConfiguredDatabase(loadConfig());
  const loci = [];
  for (let after = ''; ; ) {
    const page = await database.repos.catalogs.lociPage(after, 1000);
    if (page.length === 0) break;
    loci.push(...page);
    after = page[page.length - 1].locus_id;
  }
  await database.close();
  console.log(JSON.stringify(loci));
}
main();`;
  const result = spawnSync('npx', ['tsx', '--eval', code], { cwd: REPO_ROOT, env, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`reading the seeded loci failed: ${result.stdout}${result.stderr}`);
  return JSON.parse(result.stdout.trim().split('\n').at(-1) ?? '[]');
}

/**
 * Imports the two e2e catalogs (see catalog-seed.ts) around the seeded loci with `antares catalog
 * import`, and writes the manifest of what they match for the catalog tests.
 */
function seedCatalogs(dataDir: string, env: NodeJS.ProcessEnv): void {
  const { stars, galaxies, manifest } = planCatalogs(readLoci(env));
  const dir = path.join(dataDir, 'catalogs');
  mkdirSync(dir, { recursive: true });
  const starFile = path.join(dir, `${STAR_CATALOG}.csv`);
  const galaxyFile = path.join(dir, `${GALAXY_CATALOG}.csv`);
  writeFileSync(starFile, catalogCsv(stars));
  writeFileSync(galaxyFile, catalogCsv(galaxies));
  run(['catalog', 'import', '--name', STAR_CATALOG, '--file', starFile, '--format', 'csv', '--name-col', 'name'], env);
  run(
    [
      'catalog',
      'import',
      '--name',
      GALAXY_CATALOG,
      '--file',
      galaxyFile,
      '--format',
      'csv',
      '--name-col',
      'name',
      '--diameter-col',
      'major_axis_arcmin',
      '--radius-unit',
      'arcmin',
    ],
    env,
  );
  writeFileSync(path.join(dataDir, MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`);
}

/** Simulates and ingests the survey, then imports the catalogs (every step may run again safely). */
export function seedDatabase(dataDir: string, env: NodeJS.ProcessEnv): void {
  const survey = path.join(dataDir, 'survey');
  run(['simulate', '--out', survey, '--objects', SURVEY.objects, '--nights', SURVEY.nights, '--seed', SURVEY.seed], env);
  run(['ingest', survey], env);
  seedCatalogs(dataDir, env);
}
