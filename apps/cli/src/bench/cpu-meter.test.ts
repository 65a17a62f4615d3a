import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';

import { describe, expect, it } from 'vitest';

import { descendantSeconds } from './cpu-meter.ts';

// A grandchild of this process (a Node.js under a shell, as a filter worker's Python runs under
// bubblewrap) that burns this much of its own CPU, prints its pid, then waits to be read.
const BURN_MS = 300;
const BURNER = `const t = process.cpuUsage(); while (process.cpuUsage(t).user < ${BURN_MS * 1000}); console.log(process.pid); setInterval(() => {}, 1000);`;

describe.skipIf(!existsSync('/proc/self/stat'))('descendantSeconds', () => {
  it("counts a child's and a grandchild's CPU, and no process outside the tree", async () => {
    const shell = spawn('sh', ['-c', '"$NODE" -e "$BURNER"; :'], { env: { ...process.env, NODE: process.execPath, BURNER } });
    let grandchild: number | undefined;
    try {
      const [line] = (await once(shell.stdout, 'data')) as [Buffer];
      grandchild = Number(line.toString().trim());

      const belowShell = descendantSeconds(shell.pid!);
      expect([...belowShell.keys()]).toEqual([grandchild]);
      expect(belowShell.get(grandchild)).toBeGreaterThanOrEqual((BURN_MS - 20) / 1000);

      const belowUs = descendantSeconds(process.pid);
      expect(belowUs.has(shell.pid!)).toBe(true);
      expect(belowUs.get(grandchild)).toBeGreaterThanOrEqual(belowShell.get(grandchild)!);
      expect(belowUs.has(process.pid)).toBe(false);
    } finally {
      if (grandchild !== undefined) process.kill(grandchild);
      shell.kill();
    }
  });
});
