import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { promisify } from 'node:util';

import type { FilterEnvironment } from '@antares/contract';

import { LAUNCHER_PYTHON, RUNTIME_DIR } from './pool/index.ts';
import { DEFAULT_WORKER_LIMITS, launcherArgs, type WorkerLimits } from './sandbox-limits.ts';

const run = promisify(execFile);

/** The probe's sandbox uid slot: apart from the pools' ranges (dry runs 500+, backtests 600+, seeding 700+). */
const PROBE_SLOT = 900;
/** Out of the sandbox: the same probe, with the runtime put on the path as the worker does it. */
const DIRECT = (runtimeDir: string) =>
  `import sys; sys.path.insert(0, ${JSON.stringify(runtimeDir)}); from antares_runtime.environment import main; main(['--probe'])`;

export class FilterEnvironmentError extends Error {}

export interface ProbeOptions {
  /** Run the probe inside the sandbox, as a filter runs (default: when bubblewrap is installed). */
  sandbox?: boolean;
  /** The sandbox's limits and interpreter (`python`; default DEFAULT_WORKER_LIMITS). */
  limits?: WorkerLimits;
  runtimeDir?: string;
  bwrap?: string;
}

/**
 * What filters get from the configured interpreter (antares_runtime.environment's probe): the promised
 * packages, then every other importable top-level module, each with its version read from the package
 * metadata, not by importing it (importing them all takes seconds; this takes ~0.2 s). Run inside the
 * sandbox when the machine has one, so the answer is what a filter really sees (a venv the sandbox could
 * not bind would show there as missing packages); rejects with a FilterEnvironmentError naming what failed.
 */
export async function probeFilterEnvironment(options: ProbeOptions = {}): Promise<FilterEnvironment> {
  const limits = options.limits ?? DEFAULT_WORKER_LIMITS;
  const runtimeDir = options.runtimeDir ?? RUNTIME_DIR;
  const bwrap = options.bwrap ?? '/usr/bin/bwrap';
  const sandbox = options.sandbox ?? existsSync(bwrap);
  // -I: neither the caller's PYTHONPATH nor user site-packages decide what is reported.
  const [command, args] = sandbox
    ? [
        LAUNCHER_PYTHON,
        [
          '-I',
          '-B',
          `${runtimeDir}/antares_runtime/sandbox.py`,
          '--probe',
          `--slot=${PROBE_SLOT}`,
          ...launcherArgs(limits),
          `--bwrap=${bwrap}`,
        ],
      ]
    : [limits.python, ['-I', '-B', '-c', DIRECT(runtimeDir)]];
  let stdout: string;
  try {
    ({ stdout } = await run(command, args, { timeout: 60_000, maxBuffer: 16 << 20 }));
  } catch (error) {
    const reason = (error as { stderr?: string }).stderr?.trim().split('\n').at(-1) || (error as Error).message;
    const where = sandbox ? ' in the sandbox' : '';
    throw new FilterEnvironmentError(`${limits.python} could not list the filter environment${where}: ${reason}`);
  }
  return JSON.parse(stdout) as FilterEnvironment;
}
