import { readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';

import pg from 'pg';

/** Linux's clock ticks per second in /proc/<pid>/stat (USER_HZ: 100 on every common kernel build). */
const TICKS_PER_SECOND = 100;

/**
 * CPU time a benchmark run used: this process's, that of its child processes (the filter sandbox's
 * workers, when Level 2 runs), and that of the PostgreSQL backends serving its database, read from
 * /proc (so only where the server runs on this Linux machine). On N cores a run cannot take less than
 * their sum divided by N, however well they overlap: the line says what bounds the run here, which
 * the wall-clock rate alone does not.
 */
export class CpuMeter {
  private constructor(
    private readonly serverUrl: string,
    private readonly database: string,
    private readonly process0: NodeJS.CpuUsage,
    private readonly server0: Map<number, number>,
    private readonly children0: Map<number, number>,
  ) {}

  static async start(serverUrl: string, database: string): Promise<CpuMeter> {
    const children = descendantSeconds(process.pid);
    return new CpuMeter(serverUrl, database, process.cpuUsage(), await backendSeconds(serverUrl, database), children);
  }

  /** The CPU used since start, as a line; call before the database's connections and the child processes close. */
  async line(packets: number): Promise<string> {
    const used = process.cpuUsage(this.process0);
    const node = (used.user + used.system) / 1e6;
    const backends = await backendSeconds(this.serverUrl, this.database);
    const cores = os.availableParallelism();
    if (backends.size === 0) return `  CPU: Node.js ${node.toFixed(2)} s (the server's backends cannot be read from /proc here)`;
    const server = secondsSince(this.server0, backends);
    const children = secondsSince(this.children0, descendantSeconds(process.pid));
    const floor = (node + server + children) / cores;
    const childPart = children > 0 ? `, child processes ${children.toFixed(2)} s` : '';
    return (
      `  CPU: Node.js ${node.toFixed(2)} s${childPart}, PostgreSQL backends ${server.toFixed(2)} s: at least ${floor.toFixed(2)} s on ` +
      `${cores} cores, at most ${(packets / floor).toFixed(0)} packets/s if nothing ever waited`
    );
  }
}

/** The CPU seconds used between two readings of the same processes; one first seen in the second counts whole. */
function secondsSince(before: Map<number, number>, after: Map<number, number>): number {
  let sum = 0;
  for (const [pid, seconds] of after) sum += seconds - (before.get(pid) ?? 0);
  return sum;
}

/**
 * CPU seconds so far of each live process below `root` (children, their children and so on), read from
 * /proc; empty where there is none. A process that has ended is no longer counted: the filter sandbox's
 * workers live as long as their pool, so a meter's line is read before the pool closes.
 */
export function descendantSeconds(root: number): Map<number, number> {
  const parentOf = new Map<number, number>();
  const used = new Map<number, number>();
  let entries: string[];
  try {
    entries = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return new Map();
  }
  for (const name of entries) {
    const stat = processStat(Number(name));
    if (stat === undefined) continue;
    parentOf.set(Number(name), stat.parent);
    used.set(Number(name), stat.seconds);
  }
  const seconds = new Map<number, number>();
  const isBelowRoot = (pid: number): boolean => {
    for (let up = parentOf.get(pid); up !== undefined && up > 0; up = parentOf.get(up)) if (up === root) return true;
    return false;
  };
  for (const [pid, cpu] of used) if (isBelowRoot(pid)) seconds.set(pid, cpu);
  return seconds;
}

/** A process's parent and the CPU seconds it has used (user and system), from /proc/<pid>/stat; undefined when it is gone. */
function processStat(pid: number): { parent: number; seconds: number } | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // After the command name, which is in parentheses and may itself hold spaces or parentheses: state,
  // then the parent's pid; utime and stime are the 12th and 13th fields from there.
  const fields = stat.slice(stat.lastIndexOf(') ') + 2).split(' ');
  return { parent: Number(fields[1]), seconds: (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND };
}

/** CPU seconds so far of each backend of `database` that is a postgres process of this machine. */
async function backendSeconds(serverUrl: string, database: string): Promise<Map<number, number>> {
  const seconds = new Map<number, number>();
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE datname = $1', [database]);
    for (const { pid } of rows) {
      const used = processSeconds(pid);
      if (used !== undefined) seconds.set(pid, used);
    }
  } finally {
    await client.end();
  }
  return seconds;
}

function processSeconds(pid: number): number | undefined {
  try {
    // A server elsewhere has pids of its own: only a local postgres process is counted.
    if (!readFileSync(`/proc/${pid}/cmdline`, 'utf8').startsWith('postgres')) return undefined;
  } catch {
    return undefined;
  }
  return processStat(pid)?.seconds;
}

/**
 * The whole machine's busy CPU time (every process, all cores; /proc/stat), for runs of several
 * processes whose backends are gone before they can be read: how much of the cores a run kept busy.
 */
export class MachineCpu {
  private constructor(private readonly busy0: number | undefined) {}

  static start(): MachineCpu {
    return new MachineCpu(machineBusySeconds());
  }

  /** The share of all cores kept busy since start, over the `seconds` of wall clock since then. */
  busyShare(seconds: number): number | undefined {
    return busyShare(this.busy0, machineBusySeconds(), seconds);
  }
}

/** The share of all cores busy between two machineBusySeconds readings `seconds` apart; undefined without them. */
export function busyShare(busyBefore: number | undefined, busyAfter: number | undefined, seconds: number): number | undefined {
  if (busyBefore === undefined || busyAfter === undefined || seconds <= 0) return undefined;
  return (busyAfter - busyBefore) / (seconds * os.availableParallelism());
}

/** Busy CPU seconds of the whole machine since boot, all cores together; undefined without /proc/stat. */
export function machineBusySeconds(): number | undefined {
  try {
    // "cpu  user nice system idle iowait irq softirq steal ...": busy is all but idle and iowait.
    const ticks = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1, 9).map(Number);
    const total = ticks.reduce((a, b) => a + b, 0);
    return (total - ticks[3] - ticks[4]) / TICKS_PER_SECOND;
  } catch {
    return undefined;
  }
}

/**
 * The resident memory of the filter sandbox's workers below this process (antares_runtime.worker):
 * how many, their total and the largest, from /proc/<pid>/status (VmRSS), as a line. Read while the pool is open.
 */
export function workerMemoryLine(): string {
  const rss: number[] = [];
  for (const pid of descendantSeconds(process.pid).keys()) {
    try {
      // The worker itself: bwrap's processes above it carry the same arguments.
      if (!readFileSync(`/proc/${pid}/comm`, 'utf8').startsWith('python')) continue;
      if (!readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('antares_runtime.worker')) continue;
      const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
      if (kb !== undefined) rss.push(Number(kb) / 1024);
    } catch {
      continue; // it ended meanwhile
    }
  }
  if (rss.length === 0) return 'workers: none found in /proc';
  const total = rss.reduce((a, b) => a + b, 0);
  return `workers: ${rss.length}, resident ${total.toFixed(0)} MB in all, ${Math.max(...rss).toFixed(0)} MB the largest`;
}
