import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

import { describe, expect, it } from 'vitest';

import { APT_INSTALL, missingSandboxPrerequisites } from './pool/index.ts';

// Runs the filter runtime's own pytest suite (filter-runtime/tests) so that `npm test` covers it.
// Missing prerequisites skip it with the install command; under CI=true they fail instead.
const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const missing = missingSandboxPrerequisites();
const probe = spawnSync('/usr/bin/python3', ['-c', 'import pytest, avro'], { timeout: 60_000 });
if (probe.status !== 0) missing.push("Debian's python3-pytest and python3-avro");
if (missing.length) {
  const message = `the filter-runtime pytest suite needs ${missing.join(' and ')}: ${APT_INSTALL}`;
  if (process.env.CI === 'true') throw new Error(message);
  console.warn(`SKIPPED: ${message}`);
}

describe.skipIf(missing.length > 0)('filter-runtime (pytest)', () => {
  it('passes /usr/bin/python3 -m pytest filter-runtime/tests', () => {
    const run = spawnSync('/usr/bin/python3', ['-m', 'pytest', 'filter-runtime/tests', '-q', '-p', 'no:cacheprovider'], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 900_000,
      maxBuffer: 64 << 20,
      env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1' },
    });
    const tail = `${run.stdout}\n${run.stderr}`.split('\n').slice(-60).join('\n');
    console.log(tail.split('\n').slice(-3).join('\n'));
    expect(run.status, tail).toBe(0);
  }, 900_000);
});
