import { existsSync } from 'node:fs';

import type { FilterEnvironment } from '@antares/contract';
import { APT_INSTALL, missingSandboxPrerequisites, probeFilterEnvironment, type WorkerLimits } from '@antares/pipeline';

/**
 * `antares filters env`: starts the configured interpreter (ANTARES_FILTER_PYTHON) inside the filter
 * sandbox, as a worker starts, and lists what filters can import there, with versions. Throws (the
 * command then exits 1) with the reason when the sandbox cannot run or the interpreter does not start in it.
 */
export async function runFiltersEnv(limits: WorkerLimits, options: { json?: boolean } = {}): Promise<void> {
  if (!existsSync('/usr/bin/bwrap'))
    throw new Error(`the filter sandbox cannot run here: /usr/bin/bwrap is missing (install: ${APT_INSTALL})`);
  const environment = await probeFilterEnvironment({ limits, sandbox: true });
  if (!environment.sandboxed) throw new Error(`${limits.python} did not run inside the sandbox`);
  if (options.json) {
    console.log(JSON.stringify(environment, null, 2));
    return;
  }
  // The five packages a worker needs (missingSandboxPrerequisites' probe): listed, yet the sandbox would not run.
  const missing = missingSandboxPrerequisites(limits.python).filter((m) => !m.includes('bwrap'));
  console.log(formatEnvironment(limits.python, environment));
  if (missing.length > 0) throw new Error(`the sandbox starts ${limits.python}, but Level 2 would not run: missing ${missing.join(', ')}`);
}

/** The listing: a header line, then one line per module (promised ones first, as the API orders them). */
export function formatEnvironment(python: string, environment: FilterEnvironment): string {
  const where = environment.virtual_environment ? 'a virtual environment' : 'no virtual environment';
  const rows = environment.packages.map((p) => [
    p.import,
    p.version ?? (p.location ? '(no version)' : 'not installed'),
    p.location ?? '',
    p.name === p.import ? '' : p.name,
    [p.debian, p.note].filter(Boolean).join('; '),
  ]);
  const widths = [0, 1, 2, 3].map((i) => Math.max(...rows.map((r) => r[i]!.length), 6));
  const lines = rows.map((r) =>
    r
      .map((cell, i) => (i < 4 ? cell.padEnd(widths[i]!) : cell))
      .join('  ')
      .trimEnd(),
  );
  const installed = environment.packages.filter((p) => p.location !== null).length;
  return [
    `${python}: Python ${environment.python} (${where}) starts in the filter sandbox; ${installed} importable modules besides the standard library`,
    ...lines,
    `devkit modules: ${environment.devkit_modules.join(', ')}`,
  ].join('\n');
}
