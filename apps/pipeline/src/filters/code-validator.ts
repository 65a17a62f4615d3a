import { randomUUID } from 'node:crypto';
import { FilterSandboxPool, missingSandboxPrerequisites } from './sandbox-pool.ts';

export type CodeCheck = { ok: true; outputs: Record<string, unknown> } | { ok: false; message: string };

/**
 * Checks submitted filter code by loading it in the sandbox (import, class, declarations, setup), and
 * returns what it declares. Undefined where the sandbox cannot run, with the reason.
 */
export function createCodeValidator(): { validate?: (code: string) => Promise<CodeCheck>; close(): Promise<void>; missing: string[] } {
  const missing = missingSandboxPrerequisites();
  if (missing.length > 0) return { missing, close: async () => {} };
  // A small pool of its own, on uids apart from the pipeline's workers.
  const pool = new FilterSandboxPool({ maxWorkers: 2, slotOffset: 500 });
  return {
    missing,
    close: () => pool.close(),
    validate: async (code) => {
      const id = `check-${randomUUID()}`;
      try {
        const result = await pool.load(id, code);
        if (!result.ok || !result.outputs) {
          const error = result.error;
          return { ok: false, message: error ? `${error.type}: ${error.message}\n${error.traceback}`.trim() : 'The filter could not be loaded' };
        }
        return { ok: true, outputs: result.outputs as unknown as Record<string, unknown> };
      } finally {
        await pool.unload(id).catch(() => {});
      }
    },
  };
}
