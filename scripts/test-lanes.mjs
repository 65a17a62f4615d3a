// Helpers of scripts/test.mjs for the filter runtime's pytest lane.
import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';

// The sandbox's own prerequisites, as apps/pipeline/src/filters/pool/prerequisites.ts checks them, plus
// what the suite itself imports.
const APT_INSTALL =
  'apt-get install -y bubblewrap python3-numpy python3-scipy python3-pandas python3-astropy python3-statsmodels ' +
  'python3-sklearn python3-seccomp python3-pytest python3-pytest-xdist python3-avro';

/** Why the pytest suite cannot run here, with the command that installs what is missing; undefined when it can. */
export function pytestPrerequisites(python) {
  const missing = [];
  if (!existsSync('/usr/bin/bwrap')) missing.push('/usr/bin/bwrap (bubblewrap)');
  const probe = existsSync(python) && spawnSync(python, ['-c', 'import numpy, scipy, pandas, astropy, statsmodels, seccomp, pytest, avro']);
  if (!probe || probe.status !== 0) missing.push(`numpy/scipy/pandas/astropy/statsmodels/seccomp/pytest/avro for ${python}`);
  return missing.length ? `it needs ${missing.join(' and ')}: ${APT_INSTALL}` : undefined;
}

/** The counts in pytest's summary line, e.g. "135 passed, 1 skipped in 97.1s" or "2 failed, 3 errors in 5s". */
export function pytestTotals(summary) {
  const count = (word) => Number(new RegExp(`(\\d+) ${word}`).exec(summary)?.[1] ?? 0);
  return { passed: count('passed'), failed: count('failed') + count('errors?'), skipped: count('skipped') };
}
