import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { compileLocusSearch } from '@antares/db';
import {
  APT_INSTALL,
  createFilterSandbox,
  DEFAULT_SANDBOX_LIMITS,
  expandInputs,
  ingestFiles,
  missingSandboxPrerequisites,
} from '@antares/pipeline';
import { simulateSurvey } from '@antares/pipeline/simulate';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

import { hashPassword } from '../../../server/src/auth/passwords.ts';
import { HttpSession } from '../../../server/src/testing/http-session.ts';
import { startTestServer, type TestServer } from '../../../server/src/testing/test-server.ts';
import { openLevel2 } from './level2.ts';

// An environment the operator extends, as the README tells: a virtual environment made with
// --system-site-packages, a package pip-installed into it without the package index (built here from a
// folder this test writes, with Debian's setuptools), and ANTARES_FILTER_PYTHON naming its python.
// `antares filters env` lists the package, GET /v1/filter_environment too, and a filter importing it
// loads and tags in a dry run, a backtest and Level 2; Debian's own interpreter does not have it.
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const work = mkdtempSync(path.join(os.tmpdir(), 'antares-filter-env-'));
// The sandbox's own uid must reach the venv (as under /opt): mkdtemp makes the folder private.
chmodSync(work, 0o755);
const venv = path.join(work, 'filter-env');
const python = path.join(venv, 'bin', 'python');

/** The venv with the package in it; the reason it could not be made (python3-venv missing, no setuptools...). */
function makeEnvironment(): string | undefined {
  const pkg = path.join(work, 'tinyphot');
  mkdirSync(path.join(pkg, 'tinyphot'), { recursive: true });
  writeFileSync(
    path.join(pkg, 'pyproject.toml'),
    '[build-system]\nrequires = ["setuptools"]\nbuild-backend = "setuptools.build_meta"\n\n[project]\nname = "tinyphot"\nversion = "0.4.2"\n',
  );
  writeFileSync(path.join(pkg, 'tinyphot', '__init__.py'), '__version__ = "0.4.2"\n\n\ndef brightest(mags):\n    return min(mags)\n');
  const made = spawnSync('/usr/bin/python3', ['-m', 'venv', '--system-site-packages', venv], { encoding: 'utf8', timeout: 120_000 });
  if (made.status !== 0) return `python3 -m venv failed (apt-get install -y python3-venv): ${made.stderr.trim().split('\n').at(-1)}`;
  // --isolated: no pip configuration or PIP_* variable of this machine (an index, find-links) takes part.
  const pip = ['install', '--isolated', '--no-index', '--no-build-isolation', '--no-cache-dir', '--quiet', pkg];
  const installed = spawnSync(path.join(venv, 'bin', 'pip'), pip, { encoding: 'utf8', timeout: 120_000 });
  if (installed.status !== 0)
    return `pip could not install a local package offline (apt-get install -y python3-setuptools python3-wheel): ${installed.stderr.trim()}`;
  return undefined;
}

const missing = missingSandboxPrerequisites();
const unavailable = missing.length > 0 ? `missing ${missing.join(', ')}: ${APT_INSTALL}` : makeEnvironment();
if (unavailable) {
  const message = `the extended filter environment tests need ${unavailable}`;
  if (process.env.CI === 'true') throw new Error(message);
  console.warn(`SKIPPED: ${message}`);
}
afterAll(() => rmSync(work, { recursive: true, force: true }));

const TAGGER = `import antares.devkit as dk
import tinyphot
print('tinyphot', tinyphot.__version__, 'from', tinyphot.__file__)
class EnvBright(dk.Filter):
    OUTPUT_TAGS = [{'name': 'env_bright', 'description': 'brighter than 18.5, as tinyphot finds it'}]
    OUTPUT_LOCUS_PROPERTIES = [{'name': 'env_min_mag', 'type': 'float', 'description': 'brightest magnitude'}]
    def run(self, locus):
        mags = [a.properties['ant_mag'] for a in locus.alerts if a.properties.get('ant_mag') is not None]
        locus.properties['env_min_mag'] = tinyphot.brightest(mags)
        if tinyphot.brightest(mags) < 18.5:
            locus.tag('env_bright')
`;
const limits = { ...DEFAULT_SANDBOX_LIMITS, python };

function cli(env: Record<string, string>, ...args: string[]) {
  const result = spawnSync('npx', ['tsx', 'apps/cli/src/main.ts', 'filters', 'env', ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    encoding: 'utf8',
    timeout: 120_000,
  });
  return { status: result.status, stdout: result.stdout, output: `${result.stdout}${result.stderr}` };
}

describe.skipIf(unavailable !== undefined)('an environment the operator extended (ANTARES_FILTER_PYTHON)', () => {
  let server: TestServer;
  let closeSandbox = async () => {};
  let user: HttpSession;

  beforeAll(async () => {
    server = await startTestServer({
      ingest: ['ztf-avro-alert/samples', 'alerce'],
      config: { filterLimits: limits },
      filterSandbox: (repos, config) => {
        const created = createFilterSandbox(repos, config.filterLimits);
        closeSandbox = created.close;
        return created.sandbox;
      },
    });
    await server.repos.users.create({
      username: 'env-author',
      email: 'env-author@example.org',
      name: 'E',
      password_hash: await hashPassword('Galaxy2026'),
      admin: false,
    });
    user = new HttpSession(server.url);
    await user.post('/v1/auth/login?type=cookie', { username: 'env-author', password: 'Galaxy2026' });
  }, 300_000);
  afterAll(async () => {
    await closeSandbox();
    await server?.close();
  });

  it('`antares filters env` starts that python in the sandbox and lists the package with its version', () => {
    const listed = cli({ ANTARES_FILTER_PYTHON: python });
    expect(listed.status, listed.output).toBe(0);
    expect(listed.stdout).toContain(`${python}: Python 3.`);
    expect(listed.stdout).toContain('(a virtual environment) starts in the filter sandbox');
    expect(listed.stdout).toMatch(/^tinyphot +0\.4\.2 +environment$/m);
    expect(listed.stdout).toMatch(/^numpy +\d+\.\d+\.\d+ +system +python3-numpy$/m);
    const json = JSON.parse(cli({ ANTARES_FILTER_PYTHON: python }, '--json').stdout);
    expect(json.packages).toContainEqual(expect.objectContaining({ import: 'tinyphot', version: '0.4.2', location: 'environment' }));
    // Debian's own interpreter: no tinyphot.
    const debian = cli({ ANTARES_FILTER_PYTHON: '/usr/bin/python3' });
    expect(debian.status, debian.output).toBe(0);
    expect(debian.stdout).not.toContain('tinyphot');
  }, 300_000);

  it('`antares filters env` exits non-zero with the reason when the interpreter does not start in the sandbox', () => {
    const broken = path.join(work, 'broken', 'bin', 'python');
    mkdirSync(path.dirname(broken), { recursive: true });
    writeFileSync(broken, '#!/bin/sh\necho "this interpreter is broken" >&2\nexit 3\n');
    chmodSync(broken, 0o755);
    const failed = cli({ ANTARES_FILTER_PYTHON: broken });
    expect(failed.status).toBe(1);
    expect(failed.output).toContain(`antares: ${broken} could not list the filter environment in the sandbox: this interpreter is broken`);
    const relative = cli({ ANTARES_FILTER_PYTHON: 'filter-env/bin/python' });
    expect(relative.status).toBe(1);
    expect(relative.output).toContain('ANTARES_FILTER_PYTHON: must be an absolute path');
  }, 300_000);

  it('GET /v1/filter_environment lists the package, read inside the sandbox', async () => {
    const { status, body } = await server.getJson('/v1/filter_environment');
    expect(status).toBe(200);
    const environment = body.data.attributes;
    expect(environment).toMatchObject({ sandboxed: true, virtual_environment: true });
    expect(environment.packages).toContainEqual({
      name: 'tinyphot',
      import: 'tinyphot',
      version: '0.4.2',
      debian: '',
      note: '',
      promised: false,
      required: false,
      location: 'environment',
    });
    // Debian's packages are still there, through --system-site-packages.
    expect(environment.packages.find((p: { import: string }) => p.import === 'numpy')).toMatchObject({
      location: 'system',
      promised: true,
    });
  });

  it('a filter importing it loads and tags in a dry run; one importing a missing package is told what this server has', async () => {
    const response = await user.post('/v1/filters/test', { data: { type: 'filter_test', attributes: { code: TAGGER, last_n: 10 } } });
    expect(response.status).toBe(200);
    const report = response.body.data.attributes;
    expect(report.loaded).toBe(true);
    expect(report.stdout).toContain(`tinyphot 0.4.2 from ${venv}/lib/python3.`);
    expect(report.counts).toMatchObject({ loci: 10, ok: 10, error: 0 });
    expect(report.loci.some((l: { new_tags: string[] }) => l.new_tags.includes('env_bright'))).toBe(true);

    const shap = `import shap\nimport antares.devkit as dk\nclass F(dk.Filter):\n    def run(self, locus):\n        pass\n`;
    const refused = (await user.post('/v1/filters/test', { data: { type: 'filter_test', attributes: { code: shap, last_n: 1 } } })).body
      .data.attributes;
    expect(refused.loaded).toBe(false);
    expect(refused.load_error.message).toContain("this filter imports 'shap', which the ANTARES filter environment does not provide");
    expect(refused.load_error.message).toMatch(/the packages installed for filters on this server \([^)]*tinyphot[^)]*\)/);

    // Debian's interpreter, as a server without ANTARES_FILTER_PYTHON runs it: the import fails, naming it.
    const debian = createFilterSandbox(server.repos, DEFAULT_SANDBOX_LIMITS);
    try {
      const check = await debian.sandbox!.validate(TAGGER);
      expect(check.ok).toBe(false);
      expect(check.ok ? '' : check.message).toContain(
        "this filter imports 'tinyphot', which the ANTARES filter environment does not provide",
      );
    } finally {
      await debian.close();
    }
  }, 300_000);

  let filterId = 0;
  let versionId = 0;

  it('tags in a backtest', async () => {
    const owner = (await server.repos.users.findByUsername('env-author'))!;
    filterId = (await server.repos.filters.create({ user_id: owner.user_id, name: 'Env bright', description: 'tinyphot' }))!.filter_id;
    versionId = (await server.repos.filters.createVersion({ filter_id: filterId, code: TAGGER, comment: 'v1', declared_outputs: null }))
      .filter_version_id;
    const created = await user.post(`/v1/filters/${filterId}/versions/${versionId}/backtests`, {
      data: { type: 'backtest', attributes: { max_loci: 200 } },
    });
    expect(created.status).toBe(202);
    const events = await user.get(`/v1/backtests/${created.body.data.id}/events`);
    const last = String(events.body)
      .split('\n')
      .filter((line) => line.startsWith('data: '))
      .map((line) => JSON.parse(line.slice(6)))
      .at(-1).data;
    expect(last.attributes.state, JSON.stringify(last.attributes.error ?? null)).toBe('done');
    expect(last.attributes.results.tagged_loci).toBeGreaterThan(0);
    expect(last.attributes.results.projection.by_tag.env_bright).toBeGreaterThan(0);
  }, 300_000);

  it('tags in Level 2 (the enabled version, on alerts ingested as `antares ingest` does)', async () => {
    await server.repos.filters.transition(filterId, versionId, 'ENABLED', null);
    const survey = path.join(work, 'survey');
    await simulateSurvey({ objects: 30, nights: 6, seed: 48, outDir: survey, processes: 1 });
    const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
    const level2 = await openLevel2(server.repos, 'skip', limits, 260);
    log.mockRestore();
    try {
      expect(level2.stage?.filterCount).toBe(1);
      await ingestFiles(server.repos, expandInputs([survey]), { level2: level2.stage });
    } finally {
      await level2.close();
    }
    expect(level2.stage!.stats).toMatchObject({ failures: 0 });
    expect(level2.stage!.stats.tagsAdded).toBeGreaterThan(0);
    const search = compileLocusSearch({ query: { bool: { filter: { term: { tags: 'env_bright' } } } } });
    const tagged = await server.repos.loci.search({ search, sort: [], limit: 1000, offset: 0 });
    expect(tagged.rows.length).toBeGreaterThan(0);
    for (const locus of tagged.rows) expect(locus.properties.env_min_mag as number).toBeLessThan(18.5);
  }, 300_000);
});
