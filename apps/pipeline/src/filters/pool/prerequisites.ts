// Where the Python filter runtime is, and what the sandbox needs from the machine (tests and the CLI
// name the missing packages and the one command that installs them).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const RUNTIME_DIR = fileURLToPath(new URL('../../../../../filter-runtime', import.meta.url));
export const APT_INSTALL =
  'apt-get install -y bubblewrap python3-numpy python3-scipy python3-pandas ' +
  'python3-astropy python3-statsmodels python3-sklearn python3-seccomp python3-pytest python3-avro';

/** What the sandbox needs that this machine lacks (empty when the pool can run). */
export function missingSandboxPrerequisites(python = '/usr/bin/python3'): string[] {
  const missing: string[] = [];
  if (!existsSync('/usr/bin/bwrap')) missing.push('/usr/bin/bwrap (bubblewrap)');
  // The stack filter authors are promised (scipy and statsmodels import lazily, so this stays ~0.4 s).
  // seccomp: the launcher builds the sandbox's system-call filter with it.
  const probe =
    existsSync(python) && spawnSync(python, ['-c', 'import numpy, scipy, pandas, astropy, statsmodels, seccomp'], { timeout: 60_000 });
  if (!probe || probe.status !== 0) missing.push(`Debian's numpy/scipy/pandas/astropy/statsmodels/seccomp for ${python}`);
  return missing;
}
