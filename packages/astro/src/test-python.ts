import { spawnSync } from 'node:child_process';

/**
 * Runs a Python snippet with Debian's interpreter for tests that compute their expected values with
 * astropy: the snippet reads JSON from stdin (`data`) and prints JSON. `astropyMissing` names what
 * to install when the interpreter or astropy is absent (the tests skip with it; CI=true fails).
 */
const PYTHON = '/usr/bin/python3';

function probe(): string | null {
  const result = spawnSync(PYTHON, ['-c', 'import astropy, numpy'], { encoding: 'utf8' });
  if (result.error || result.status !== 0) return 'astropy (Debian): apt-get install -y python3-astropy python3-numpy';
  return null;
}

export const astropyMissing: string | null = probe();

if (astropyMissing && process.env.CI === 'true') throw new Error(`missing prerequisite: ${astropyMissing}`);
if (astropyMissing) console.warn(`skipping astropy comparisons: ${astropyMissing}`);

export function runPython<T>(code: string, data: unknown): T {
  const script = `import json, sys\ndata = json.load(sys.stdin)\n${code}`;
  const result = spawnSync(PYTHON, ['-c', script], { input: JSON.stringify(data), encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (result.status !== 0) throw new Error(`python failed: ${result.stderr}`);
  return JSON.parse(result.stdout) as T;
}
