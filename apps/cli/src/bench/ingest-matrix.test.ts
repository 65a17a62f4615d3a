import { describe, expect, it } from 'vitest';

import { matrixTable } from './ingest-matrix.ts';
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

  it('prints the runs as one aligned table with rates, and a dash where the CPU could not be read', () => {
    const table = matrixTable([
      { survey: 'ztf', database: 'empty', workers: 1, stats: { packetsRead: 9910, alertsStored: 31906 }, seconds: 9.2, cpuBusy: 0.8 },
      { survey: 'rubin', database: '10 M rows', workers: 2, stats: { packetsRead: 1969, alertsStored: 26305 }, seconds: 5 },
    ]);
    const lines = table.split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[0].split(/\s{2,}/)).toEqual([
      'survey',
      'database',
      'workers',
      'packets',
      'alert rows',
      'seconds',
      'packets/s',
      'alert rows/s',
      'CPU busy',
    ]);
    expect(lines[1].split(/\s{2,}/)).toEqual(['ztf', 'empty', '1', '9910', '31906', '9.2', '1077', '3468', '80 %']);
    expect(lines[2].split(/\s{2,}/)).toEqual(['rubin', '10 M rows', '2', '1969', '26305', '5.0', '394', '5261', '-']);
    // Every line is as wide as the header: the columns line up.
    expect(new Set(lines.map((l) => l.length)).size).toBe(1);
  });
});
