#!/usr/bin/env node
// `npm test`: every suite, then one closing line "tests: N passed, N failed, N skipped" over all of them.
// The lanes, and why they run as they do (ADR 0064):
// - static checks (types, lint, format): at the same time as one another, each counted as one test;
// - the filter runtime's pytest suite: in the background from the start, beside everything else (it
//   waits on sandboxes and timeouts far more than it computes);
// - the server-side vitest suite, in two projects (vitest.config.ts): `pure` (meets no database) and `db`;
// - the web app's unit tests, then its end-to-end tests in a real browser.
// Set DATABASE_URL to run the database tests against a PostgreSQL server instead of embedded PGlite.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { pytestPrerequisites, pytestTotals } from './test-lanes.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const extraArgs = process.argv.slice(2);
const web = path.join(root, 'apps/web');
const started = Date.now();
const seconds = (since) => `${((Date.now() - since) / 1000).toFixed(0)} s`;
// ANTARES_DATABASE_PASS=1: CI's second pass, on the PostgreSQL server, runs only what can meet a database:
// the `db` project. The first pass ran the rest (pure tests, web unit tests, pytest) and nothing there
// changes with the database.
const databasePass = Boolean(process.env.ANTARES_DATABASE_PASS);
const suites = [{ name: 'server-side', cwd: root, config: 'vitest.config.ts', projects: databasePass ? ['db'] : [] }];
if (!databasePass) suites.push({ name: 'web unit', cwd: web, config: 'vitest.config.ts' });
// ANTARES_SKIP_E2E=1: no browser (CI's second pass changes only the database).
if (!process.env.ANTARES_SKIP_E2E) {
  suites.push({ name: 'web end-to-end', cwd: web, config: 'vitest.e2e.config.ts', buildWeb: true });
}

const totals = { passed: 0, failed: 0, skipped: 0 };
// Named again at the very end: CI logs are often read from their tail only.
const failures = [];
const timings = [];
let failedRun = false;

/** Runs a command with its output held back, so that lanes running together print whole blocks. */
function run(command, args, options) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('error', (error) => resolve({ status: 1, output: `${output}${error.message}\n` }));
    child.on('close', (status) => resolve({ status, output }));
  });
}

/** Runs a command that prints as it goes. Not spawnSync: the lanes in the background need the event loop. */
function runInline(command, args, options) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { ...options, stdio: 'inherit' });
    child.on('error', (error) => resolve({ status: 1, error }));
    child.on('close', (status) => resolve({ status }));
  });
}

// The filter runtime's pytest suite (filter-runtime/tests): started first, read at the end. It needs the
// sandbox's prerequisites; missing ones skip it with the install command (under CI=true they fail).
const PYTHON = '/usr/bin/python3';
let pytest;
if (extraArgs.length === 0 && !databasePass) {
  const missing = pytestPrerequisites(PYTHON);
  if (missing) {
    if (process.env.CI) {
      failures.push(`filter runtime (pytest): ${missing}`);
      totals.failed++;
    } else {
      console.log(`skipped filter runtime (pytest): ${missing}`);
      totals.skipped++;
    }
  } else {
    // pytest-xdist (Debian's python3-pytest-xdist) halves its time; without it the suite runs in one process.
    const xdist = spawnSync(PYTHON, ['-c', 'import xdist']).status === 0 ? ['-n', '2', '--dist', 'loadfile'] : [];
    const since = Date.now();
    pytest = run(PYTHON, ['-m', 'pytest', 'filter-runtime/tests', '-q', '-p', 'no:cacheprovider', ...xdist], {
      cwd: root,
      env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1' },
    }).then((result) => ({ ...result, took: seconds(since) }));
  }
}

// Static checks, each counted as one test. Skipped when the run is narrowed to some test files, and on
// CI's second pass (ANTARES_SKIP_STATIC=1), which changes only the database. ESLint and Prettier keep
// caches in node_modules/.cache, so a second local run checks only what changed.
const staticChecks = [
  { name: 'types (server, pipeline, cli, packages)', command: ['npx', 'tsc', '-p', 'tsconfig.json', '--noEmit'] },
  { name: 'types (web app)', command: ['npx', 'tsc', '-p', 'apps/web/tsconfig.json', '--noEmit'] },
  {
    name: 'lint (ESLint: npx eslint . --fix)',
    command: ['npx', 'eslint', '.', '--max-warnings', '0', '--cache', '--cache-location', 'node_modules/.cache/eslint/'],
  },
  {
    name: 'format (Prettier: npx prettier --write .)',
    command: ['npx', 'prettier', '--check', '.', '--log-level', 'warn', '--cache'],
  },
  { name: 'lint (flake8, filter-runtime/)', command: [PYTHON, '-m', 'flake8'], cwd: 'filter-runtime', python: 'flake8' },
];
if (extraArgs.length === 0 && !process.env.ANTARES_SKIP_STATIC) {
  console.log('\n== static checks ==');
  const since = Date.now();
  const runs = staticChecks.map(async (check) => {
    if (check.python && spawnSync(PYTHON, ['-c', `import ${check.python}`]).status !== 0) {
      return { check, missing: `${check.name}: ${check.python} is missing; install it with: sudo apt-get install python3-${check.python}` };
    }
    const [command, ...args] = check.command;
    return { check, ...(await run(command, args, { cwd: path.join(root, check.cwd ?? '.') })) };
  });
  for (const { check, missing, status, output } of await Promise.all(runs)) {
    if (missing && process.env.CI) {
      failures.push(missing);
      totals.failed++;
    } else if (missing) {
      console.log(`skipped ${missing}`);
      totals.skipped++;
    } else {
      if (output) process.stdout.write(output);
      console.log(`${status === 0 ? 'passed' : 'FAILED'}: ${check.name}`);
      if (status === 0) totals.passed++;
      else {
        failures.push(`static checks: ${check.name}`);
        totals.failed++;
      }
    }
  }
  timings.push(`static checks ${seconds(since)}`);
}
for (const suite of suites) {
  const report = path.join(root, `.vitest-results-${suite.name.replace(/\W+/g, '-')}.json`);
  rmSync(report, { force: true });
  console.log(`\n== ${suite.name} tests ==`);
  const since = Date.now();
  if (suite.buildWeb) {
    // Always test the app as it is now, never a stale build.
    const build = await runInline('npm', ['run', 'build', '-w', '@antares/web'], { cwd: root });
    if (build.status !== 0) {
      console.error('the web app failed to build');
      failedRun = true;
      totals.failed++;
      continue;
    }
  }
  const result = await runInline(
    'npx',
    [
      'vitest',
      'run',
      '--config',
      suite.config,
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${report}`,
      ...(suite.projects ?? []).flatMap((name) => ['--project', name]),
      ...extraArgs,
    ],
    { cwd: suite.cwd },
  );
  timings.push(`${suite.name} ${seconds(since)}`);
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
if (pytest) {
  console.log('\n== filter runtime (pytest) tests ==');
  const { status, output, took } = await pytest;
  const lines = output.trimEnd().split('\n');
  const counts = pytestTotals(lines.at(-1) ?? '');
  // A run that failed without a failing test (a collection error, a crash) counts as one failure.
  if (status !== 0 && counts.failed === 0) counts.failed = 1;
  console.log(lines.slice(status === 0 ? -3 : -80).join('\n'));
  totals.passed += counts.passed;
  totals.failed += counts.failed;
  totals.skipped += counts.skipped;
  if (status !== 0) failures.push(`filter runtime (pytest): /usr/bin/python3 -m pytest filter-runtime/tests (exit ${status})`);
  timings.push(`pytest ${took} (beside the others)`);
}
if (failures.length > 0) console.log(`\nfailed:\n${failures.map((f) => `  ${f}`).join('\n')}`);
console.log(`\ntimes: ${[...timings, `all ${seconds(started)}`].join(', ')}`);
console.log(`tests: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(failedRun || totals.failed > 0 ? 1 : 0);
