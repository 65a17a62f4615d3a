import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

import type { FilterEnvironment, FilterEnvironmentPackage } from '@antares/contract';

import { RUNTIME_DIR } from './pool/index.ts';

const run = promisify(execFile);

/**
 * Asks the sandbox's Python what filters get: the runtime's own list (antares_runtime.environment) with
 * the version of each package as installed. Versions come from the packages' metadata, not from
 * importing them (importing all of them takes seconds; this takes a fraction of one); the local part
 * Debian adds ('0.13.5+dfsg') is left out, so each equals the public part of the module's __version__.
 */
const PROBE = `
import importlib.metadata as md, json, sys
sys.path.insert(0, sys.argv[1])
from antares_runtime.environment import describe
env = describe()
dists = md.packages_distributions()
def version(module):
    for dist in dists.get(module, ()):
        try:
            return md.version(dist).split('+')[0]
        except md.PackageNotFoundError:
            pass
    return None
print(json.dumps({
    'python': '.'.join(str(n) for n in sys.version_info[:3]),
    'packages': [dict(p, version=version(p['import'])) for p in env['packages']],
    'devkit_modules': env['devkit_modules'],
}))
`;

export class FilterEnvironmentError extends Error {}

/** The filter environment of this machine; rejects with a FilterEnvironmentError naming what failed. */
export async function probeFilterEnvironment(python = '/usr/bin/python3', runtimeDir = RUNTIME_DIR): Promise<FilterEnvironment> {
  let stdout: string;
  try {
    // -I: neither the caller's PYTHONPATH nor user site-packages decide what is reported.
    ({ stdout } = await run(python, ['-I', '-c', PROBE, runtimeDir], { timeout: 60_000, maxBuffer: 1 << 20 }));
  } catch (error) {
    const reason = (error as { stderr?: string }).stderr?.trim().split('\n').at(-1) || (error as Error).message;
    throw new FilterEnvironmentError(`${python} could not list the filter environment: ${reason}`);
  }
  const parsed = JSON.parse(stdout) as { python: string; packages: FilterEnvironmentPackage[]; devkit_modules: string[] };
  return {
    python: parsed.python,
    packages: parsed.packages.map(({ name, import: module, version, debian, note }) => ({ name, import: module, version, debian, note })),
    devkit_modules: parsed.devkit_modules,
  };
}
