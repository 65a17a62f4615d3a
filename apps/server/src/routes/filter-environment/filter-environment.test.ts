import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

import type { FilterEnvironment } from '@antares/contract';
import { DEFAULT_WORKER_LIMITS, FilterEnvironmentError, probeFilterEnvironment } from '@antares/pipeline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { PROMISED_PACKAGES } from '../../testing/promised-packages.ts';
import { startTestServer, type TestServer } from '../../testing/test-server.ts';

const PYTHON = '/usr/bin/python3';
const HAVE_PYTHON = existsSync(PYTHON);
if (!HAVE_PYTHON) {
  if (process.env.CI === 'true') throw new Error(`${PYTHON} is missing: apt-get install -y python3`);
  console.warn(`skipping the filter environment tests: ${PYTHON} is missing (apt-get install -y python3)`);
}

const DEVKIT_MODULES = [
  'antares.devkit',
  'antares.devkit.filter',
  'antares.dev_kit',
  'antares_devkit',
  'antares_devkit.models',
  'devkit2_poc.models',
];

/** What Python itself says, by importing each module (independently of the metadata the server reads). */
function importedVersions(modules: string[]): Record<string, string | null> {
  const script = `
import importlib, json, sys, warnings
warnings.simplefilter('ignore')
out = {'python': '.'.join(str(n) for n in sys.version_info[:3])}
for name in sys.argv[1:]:
    try:
        out[name] = str(importlib.import_module(name).__version__)
    except ImportError:
        out[name] = None
print(json.dumps(out))`;
  return JSON.parse(execFileSync(PYTHON, ['-c', script, ...modules], { encoding: 'utf8', timeout: 120_000 }));
}

describe.skipIf(!HAVE_PYTHON)('GET /v1/filter_environment', () => {
  let server: TestServer;
  let environment: FilterEnvironment;
  beforeAll(async () => {
    server = await startTestServer();
    const { status, body } = await server.getJson('/v1/filter_environment');
    expect(status).toBe(200);
    expect(body.data).toMatchObject({ type: 'filter_environment', id: 'sandbox' });
    environment = body.data.attributes;
  });
  afterAll(async () => server?.close());

  it('lists the promised packages first, with their import names, and the devkit module paths', () => {
    const promised = environment.packages.filter((p) => p.promised);
    expect(environment.packages.slice(0, promised.length)).toEqual(promised);
    expect(promised.map((p) => p.name)).toEqual(PROMISED_PACKAGES);
    const imports = Object.fromEntries(promised.map((p) => [p.name, p.import]));
    expect(imports).toMatchObject({ 'scikit-learn': 'sklearn', PyTorch: 'torch', PyYAML: 'yaml', 'scikit-image': 'skimage' });
    for (const p of promised) expect(p.debian, p.name).toMatch(/^python3-/);
    expect(environment.devkit_modules).toEqual(expect.arrayContaining(DEVKIT_MODULES));
  });

  it('lists every other importable module once, without the standard library or the runtime itself', () => {
    const others = environment.packages.filter((p) => !p.promised).map((p) => p.import);
    expect(new Set(environment.packages.map((p) => p.import)).size).toBe(environment.packages.length);
    // Debian's packages that no filter is promised but every server with the sandbox has (its launcher needs seccomp).
    expect(others).toEqual(expect.arrayContaining(['seccomp', 'dateutil', 'pytz']));
    for (const module of ['json', 'os', 'test', 'antares', 'antares_runtime', 'devkit2_poc', 'sitecustomize'])
      expect(others, module).not.toContain(module);
    expect(environment.virtual_environment).toBe(false);
    expect(environment.sandboxed).toBe(existsSync('/usr/bin/bwrap'));
  });

  it('gives the versions installed on this server, as Python reports them when a filter imports the package', () => {
    const reported = importedVersions(environment.packages.filter((p) => p.promised).map((p) => p.import));
    expect(environment.python).toBe(reported.python);
    const missing = environment.packages.filter((p) => p.promised && reported[p.import] === null);
    if (process.env.CI === 'true')
      expect(
        missing.map((p) => p.debian),
        'packages CI must install',
      ).toEqual([]);
    for (const p of environment.packages.filter((p) => p.promised)) {
      // The public version: Debian's local suffix ('+dfsg', '+gitunknown') is not part of it.
      const expected = reported[p.import]?.split('+')[0] ?? null;
      expect([p.name, p.version]).toEqual([p.name, expected]);
    }
  }, 120_000);

  it('is the same document on a second request (read once per process)', async () => {
    const again = await server.getJson('/v1/filter_environment');
    expect(again.body.data.attributes).toEqual(environment);
  });
});

describe('the probe of the filter environment', () => {
  it('names the Python it could not ask', async () => {
    const limits = { ...DEFAULT_WORKER_LIMITS, python: '/nonexistent/python3' };
    for (const sandbox of [false, ...(existsSync('/usr/bin/bwrap') ? [true] : [])]) {
      const failure = probeFilterEnvironment({ limits, sandbox });
      await expect(failure).rejects.toBeInstanceOf(FilterEnvironmentError);
      await expect(failure).rejects.toThrow('/nonexistent/python3 could not list the filter environment');
    }
  });
});
