// Where the Python filter runtime is, and what the sandbox needs from the machine (tests and the CLI
// name the missing packages and the one command that installs them).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import { DEFAULT_FILTER_PYTHON } from '../sandbox-limits.ts';

export const RUNTIME_DIR = fileURLToPath(new URL('../../../../../filter-runtime', import.meta.url));
/** sandbox.py runs on Debian's interpreter, whose python3-seccomp builds the system-call filter. */
export const LAUNCHER_PYTHON = '/usr/bin/python3';
export const APT_INSTALL =
  'apt-get install -y bubblewrap python3-numpy python3-scipy python3-pandas ' +
  'python3-astropy python3-statsmodels python3-sklearn python3-seccomp python3-pytest python3-avro';

/** What the sandbox needs that this machine lacks (empty when the pool can run); `python`: the filters' interpreter. */
export function missingSandboxPrerequisites(python = DEFAULT_FILTER_PYTHON): string[] {
  const missing: string[] = [];
  if (!existsSync('/usr/bin/bwrap')) missing.push('/usr/bin/bwrap (bubblewrap)');
  // The stack filter authors are promised (scipy and statsmodels import lazily, so this stays ~0.4 s).
  const probe = existsSync(python) && spawnSync(python, ['-c', 'import numpy, scipy, pandas, astropy, statsmodels'], { timeout: 60_000 });
  if (!probe || probe.status !== 0) missing.push(`numpy/scipy/pandas/astropy/statsmodels for ${python}`);
  // seccomp: the launcher builds the sandbox's system-call filter with it.
  const launcher = existsSync(LAUNCHER_PYTHON) && spawnSync(LAUNCHER_PYTHON, ['-c', 'import seccomp'], { timeout: 60_000 });
  if (!launcher || launcher.status !== 0) missing.push(`Debian's python3-seccomp for ${LAUNCHER_PYTHON}`);
  return missing;
}
