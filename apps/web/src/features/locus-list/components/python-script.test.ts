import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { DEFAULT_SORT, tagFilter } from '@/lib/locus-query';

import { buildPythonScript, describeSort } from './python-script';

const PYTHON = '/usr/bin/python3';

/**
 * Loci as the client would return them (newest first), with ties and missing values. The script is
 * run by real Python with a stand-in client whose search() yields these, in this order.
 */
const LOCI = [
  {
    locus_id: 'ANT2026a',
    ra: 10,
    dec: -5,
    properties: { newest_alert_observation_time: 60005, num_mag_values: 3, newest_alert_magnitude: 18.5, ztf_object_id: 'ZTF26aaaaaaa' },
  },
  {
    locus_id: 'ANT2026d',
    ra: 30,
    dec: 5,
    properties: { newest_alert_observation_time: 60004, num_mag_values: 7, ztf_object_id: 'ZTF26aaaaaad' },
  },
  {
    locus_id: 'ANT2026b',
    ra: 20,
    dec: 0,
    properties: { newest_alert_observation_time: 60003, num_mag_values: 3, newest_alert_magnitude: 17.25 },
  },
  {
    locus_id: 'ANT2026c',
    ra: 5,
    dec: 20,
    properties: { newest_alert_observation_time: 60002, num_mag_values: 3, newest_alert_magnitude: 19 },
  },
];

const workDir = mkdtempSync(path.join(tmpdir(), 'antares-script-'));
afterAll(() => rmSync(workDir, { recursive: true, force: true }));

/** A stand-in antares_client package: search() returns LOCI and records the query it was given. */
function standInClient(): string {
  const dir = path.join(workDir, 'client');
  if (existsSync(dir)) return dir;
  mkdirSync(path.join(dir, 'antares_client'), { recursive: true });
  writeFileSync(path.join(dir, 'antares_client', '__init__.py'), '');
  writeFileSync(
    path.join(dir, 'antares_client', 'search.py'),
    `import json, os, sys
from types import SimpleNamespace
LOCI = json.loads(${JSON.stringify(JSON.stringify(LOCI))})
def search(query):
    sys.stderr.write(json.dumps({"base": os.environ["ANTARES_API_BASE_URL"], "query": query}))
    return iter([SimpleNamespace(**locus) for locus in LOCI])
`,
  );
  return dir;
}

function run(script: string): { printed: string[]; sent: { base: string; query: unknown } } {
  const file = path.join(workDir, 'antares_search.py');
  writeFileSync(file, script);
  const { ANTARES_API_BASE_URL: _ignored, ...env } = process.env;
  const result = spawnSync(PYTHON, [file], { env: { ...env, PYTHONPATH: standInClient() }, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`the script failed: ${result.stderr}`);
  return {
    printed: result.stdout
      .trim()
      .split('\n')
      .map((line) => line.split(' ')[0]),
    sent: JSON.parse(result.stderr),
  };
}

describe.skipIf(!existsSync(PYTHON))('the API Access script', () => {
  const filters = [tagFilter('high_snr')];

  it('runs the filters through the client and keeps its newest-first order for the default sort', () => {
    const script = buildPythonScript({ filters, sortBy: DEFAULT_SORT, sortDesc: true }, 'http://antares.test/v1');
    expect(script).toContain('# Sorted by Latest Alert (properties.newest_alert_observation_time), descending');
    const { printed, sent } = run(script);
    expect(sent).toEqual({ base: 'http://antares.test/v1/', query: { query: { bool: { filter: [{ terms: { tags: ['high_snr'] } }] } } } });
    expect(printed).toEqual(['ANT2026a', 'ANT2026d', 'ANT2026b', 'ANT2026c']);
  });

  it('prints the loci in the order of any other sort, as the server sorts the list', () => {
    const cases: Array<[string, boolean, string[], string]> = [
      ['ra', false, ['ANT2026c', 'ANT2026a', 'ANT2026b', 'ANT2026d'], 'RA (ra), ascending'],
      ['dec', true, ['ANT2026c', 'ANT2026d', 'ANT2026b', 'ANT2026a'], 'Dec (dec), descending'],
      // Missing values last in both directions.
      [
        'properties.newest_alert_magnitude',
        false,
        ['ANT2026b', 'ANT2026a', 'ANT2026c', 'ANT2026d'],
        'Latest Mag (properties.newest_alert_magnitude), ascending',
      ],
      [
        'properties.newest_alert_magnitude',
        true,
        ['ANT2026c', 'ANT2026a', 'ANT2026b', 'ANT2026d'],
        'Latest Mag (properties.newest_alert_magnitude), descending',
      ],
      // Ties by locus id, descending, whichever the direction.
      [
        'properties.num_mag_values',
        false,
        ['ANT2026c', 'ANT2026b', 'ANT2026a', 'ANT2026d'],
        '# Alerts (properties.num_mag_values), ascending',
      ],
      [
        'properties.num_mag_values',
        true,
        ['ANT2026d', 'ANT2026c', 'ANT2026b', 'ANT2026a'],
        '# Alerts (properties.num_mag_values), descending',
      ],
      [
        'properties.newest_alert_observation_time',
        false,
        ['ANT2026c', 'ANT2026b', 'ANT2026d', 'ANT2026a'],
        'Latest Alert (properties.newest_alert_observation_time), ascending',
      ],
      ['properties.ztf_object_id', false, ['ANT2026a', 'ANT2026d', 'ANT2026c', 'ANT2026b'], 'ZTF ID (properties.ztf_object_id), ascending'],
    ];
    for (const [sortBy, sortDesc, expected, description] of cases) {
      const script = buildPythonScript({ filters, sortBy, sortDesc }, 'http://antares.test/v1/');
      expect(script, sortBy).toContain(`# Sorted by ${description}, as the list in the web app.`);
      expect(script, sortBy).not.toMatch(/newest first \(sorted by/);
      expect(run(script).printed, `${sortBy} ${sortDesc}`).toEqual(expected);
    }
  });

  it('describes the sort by column name and API field', () => {
    expect(describeSort({ sortBy: 'ra', sortDesc: true })).toBe('RA (ra), descending');
    expect(describeSort({ sortBy: '', sortDesc: true })).toBe('Latest Alert (properties.newest_alert_observation_time), descending');
  });
});
