import { describe, expect, it } from 'vitest';

import { growthLine, type MatrixRow, matrixTable, medianRow } from './ingest-matrix.ts';
import { spaceVerdict } from './ingest-prefill.ts';

describe('the ingest matrix', () => {
  it('leaves the prefilled runs out when the disk cannot hold the archive and its copy, saying how much they need', () => {
    // 10 M rows at 2.9 KB: 29 GB for the archive, as much again for the working copy.
    expect(spaceVerdict(10_000_000, false, 60e9, '/var/lib/postgresql')).toBe('ok');
    expect(spaceVerdict(10_000_000, false, 40e9, '/var/lib/postgresql')).toBe(
      'left out: the archive and a working copy of it of 10,000,000 alert rows need about 58.0 GB, and /var/lib/postgresql has 40.0 GB free',
    );
    // Once the archive is written, only the copy is needed.
    expect(spaceVerdict(10_000_000, true, 40e9, '/data')).toBe('ok');
    expect(spaceVerdict(10_000_000, true, 20e9, '/data')).toContain(
      'a working copy of the archive of 10,000,000 alert rows need about 29.0 GB',
    );
  });

  it('prints the runs as one aligned table with rates, the range of a repeated case, and a dash where the CPU could not be read', () => {
    const table = matrixTable([
      medianRow([run(10, 0.8), run(9.2, 0.7), run(12, 0.9)]),
      { survey: 'rubin', database: '10 M rows', workers: 2, stats: { packetsRead: 1969, alertsStored: 26305 }, seconds: 5 },
      { survey: 'rubin', database: 'empty', workers: 2, split: 'sky', stats: { packetsRead: 1969, alertsStored: 26305 }, seconds: 4 },
    ]);
    const lines = table.split('\n');
    expect(lines).toHaveLength(4);
    expect(lines[0].split(/\s{2,}/)).toEqual([
      'survey',
      'database',
      'workers',
      'packets',
      'alert rows',
      'seconds',
      'packets/s',
      'runs (packets/s)',
      'alert rows/s',
      'CPU busy',
    ]);
    expect(lines[1].split(/\s{2,}/)).toEqual(['ztf', 'empty', '1', '9910', '31906', '10.0', '991', '3 (826-1077)', '3191', '80 %']);
    expect(lines[2].split(/\s{2,}/)).toEqual(['rubin', '10 M rows', '2', '1969', '26305', '5.0', '394', '1', '5261', '-']);
    expect(lines[3].split(/\s{2,}/)).toEqual(['rubin', 'empty', '2 by sky', '1969', '26305', '4.0', '492', '1', '6576', '-']);
    // Every line is as wide as the header: the columns line up.
    expect(new Set(lines.map((l) => l.length)).size).toBe(1);
  });

  it('gives the median run of a repeated case (the slower middle one of an even number), and a single run as it is', () => {
    expect(medianRow([run(10), run(9.2), run(12)]).seconds).toBe(10);
    expect(medianRow([run(10), run(9.2), run(12), run(8)]).seconds).toBe(10);
    const single = run(10);
    expect(medianRow([single])).toBe(single);
    expect(medianRow([single]).rates).toBeUndefined();
  });

  it('compares each archive run with the empty run made just before it, and reads the 25 % bound at the median pair', () => {
    // Rates 991, 1077, 826 empty; 595 (-40 %), 1034 (-4 %), 743 (-10 %) into the archive.
    const empty = [run(10), run(9.2), run(12)];
    const archived = [run(16.66), run(9.58), run(13.33)];
    expect(growthLine('ztf', '10 M rows', empty, archived)).toBe(
      'ztf, 1 worker, 10 M rows against empty, pair by pair -40 %, -4 %, -10 %; median -10 % (within 25 %: yes)',
    );
    expect(growthLine('rubin', '10 M rows', [run(10)], [run(14)])).toBe(
      'rubin, 1 worker, 10 M rows against empty: -29 % (within 25 %: no)',
    );
    // A change under half a percent, either way, is 0 %; a gain has its sign.
    expect(growthLine('ztf', '10 M rows', [run(10), run(10)], [run(10.04), run(9)])).toBe(
      'ztf, 1 worker, 10 M rows against empty, pair by pair 0 %, +11 %; median 0 % (within 25 %: yes)',
    );
  });
});

/** A ZTF run of 9,910 packets into an empty database taking `seconds`. */
function run(seconds: number, cpuBusy?: number): MatrixRow {
  return { survey: 'ztf', database: 'empty', workers: 1, stats: { packetsRead: 9910, alertsStored: 31906 }, seconds, cpuBusy };
}
