#!/usr/bin/env node
// `npm test`: every suite, then one closing line "tests: N passed, N failed, N skipped" over all of them.
// First the static checks (types, lint, format), then the suites: the server-side unit and API tests
// (vitest), the web app's unit tests and its end-to-end tests in a real browser.
// Set DATABASE_URL to run the database tests against a PostgreSQL server instead of embedded PGlite.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const extraArgs = process.argv.slice(2);
const web = path.join(root, 'apps/web');
// ANTARES_DATABASE_PASS=1: CI's second pass, on the PostgreSQL server, runs only what can meet a database.
// It leaves out the web app's unit tests (the web app imports astro and contract only) and the filter
// runtime's pytest suite (Python, run by python-runtime.test.ts), which the first pass ran.
const databasePass = Boolean(process.env.ANTARES_DATABASE_PASS);
const suites = [
  {
    name: 'server-side',
    cwd: root,
    config: 'vitest.config.ts',
    exclude: databasePass ? ['apps/pipeline/src/filters/python-runtime.test.ts'] : [],
  },
];
if (!databasePass) suites.push({ name: 'web unit', cwd: web, config: 'vitest.config.ts' });
// ANTARES_SKIP_E2E=1: no browser (CI's second pass changes only the database).
if (!process.env.ANTARES_SKIP_E2E) {
  suites.push({ name: 'web end-to-end', cwd: web, config: 'vitest.e2e.config.ts', buildWeb: true });
}

const totals = { passed: 0, failed: 0, skipped: 0 };
// Named again at the very end: CI logs are often read from their tail only.
const failures = [];
let failedRun = false;

// Static checks, each counted as one test. Skipped when the run is narrowed to some test files, and on
// CI's second pass (ANTARES_SKIP_STATIC=1), which changes only the database.
const PYTHON = '/usr/bin/python3';
const staticChecks = [
  { name: 'types (server, pipeline, cli, packages)', command: ['npx', 'tsc', '-p', 'tsconfig.json', '--noEmit'] },
  { name: 'types (web app)', command: ['npx', 'tsc', '-p', 'apps/web/tsconfig.json', '--noEmit'] },
  { name: 'lint (ESLint: npx eslint . --fix)', command: ['npx', 'eslint', '.', '--max-warnings', '0'] },
  { name: 'format (Prettier: npx prettier --write .)', command: ['npx', 'prettier', '--check', '.', '--log-level', 'warn'] },
  { name: 'lint (flake8, filter-runtime/)', command: [PYTHON, '-m', 'flake8'], cwd: 'filter-runtime', python: 'flake8' },
];
if (extraArgs.length === 0 && !process.env.ANTARES_SKIP_STATIC) {
  console.log('\n== static checks ==');
  for (const check of staticChecks) {
    if (check.python && spawnSync(PYTHON, ['-c', `import ${check.python}`]).status !== 0) {
      const missing = `${check.name}: ${check.python} is missing; install it with: sudo apt-get install python3-${check.python}`;
      if (process.env.CI) {
        failures.push(missing);
        totals.failed++;
      } else {
        console.log(`skipped ${missing}`);
        totals.skipped++;
      }
      continue;
    }
    const [command, ...args] = check.command;
    const result = spawnSync(command, args, { cwd: path.join(root, check.cwd ?? '.'), stdio: 'inherit' });
    console.log(`${result.status === 0 ? 'passed' : 'FAILED'}: ${check.name}`);
    if (result.status === 0) totals.passed++;
    else {
      failures.push(`static checks: ${check.name}`);
      totals.failed++;
    }
  }
}
for (const suite of suites) {
  const report = path.join(root, `.vitest-results-${suite.name.replace(/\W+/g, '-')}.json`);
  rmSync(report, { force: true });
  console.log(`\n== ${suite.name} tests ==`);
  if (suite.buildWeb) {
    // Always test the app as it is now, never a stale build.
    const build = spawnSync('npm', ['run', 'build', '-w', '@antares/web'], { cwd: root, stdio: 'inherit' });
    if (build.status !== 0) {
      console.error('the web app failed to build');
      failedRun = true;
      totals.failed++;
      continue;
    }
  }
  const result = spawnSync(
    'npx',
    [
      'vitest',
      'run',
      '--config',
      suite.config,
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${report}`,
      ...(suite.exclude ?? []).flatMap((glob) => ['--exclude', glob]),
      ...extraArgs,
    ],
    { cwd: suite.cwd, stdio: 'inherit' },
  );
  if (!existsSync(report)) {
    console.error(`${suite.name}: the test runner produced no report (exit ${result.status})`);
    failedRun = true;
    continue;
  }
  const json = JSON.parse(readFileSync(report, 'utf8'));
  rmSync(report, { force: true });
  totals.passed += json.numPassedTests;
  totals.failed += json.numFailedTests;
  totals.skipped += json.numPendingTests + json.numTodoTests;
  // A file that failed with no failing test (it failed to load, or a hook after its tests threw) counts
  // as one failure.
  const failedWithoutTest = (file) => file.status === 'failed' && !file.assertionResults.some((t) => t.status === 'failed');
  const brokenFiles = json.testResults.filter(failedWithoutTest);
  totals.failed += brokenFiles.length;
  for (const file of json.testResults) {
    const where = path.relative(root, file.name);
    for (const test of file.assertionResults.filter((t) => t.status === 'failed')) {
      failures.push(
        `${suite.name}: ${where} > ${test.fullName}\n    ${(test.failureMessages ?? []).join(' ').split('\n').slice(0, 6).join('\n    ')}`,
      );
    }
    if (failedWithoutTest(file)) failures.push(`${suite.name}: ${where} failed outside its tests: ${file.message ?? ''}`);
  }
  if (result.status !== 0) failedRun = true;
}
if (failures.length > 0) console.log(`\nfailed:\n${failures.map((f) => `  ${f}`).join('\n')}`);
console.log(`\ntests: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(failedRun || totals.failed > 0 ? 1 : 0);
