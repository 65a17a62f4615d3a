import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type AlertForFilter, FilterSandboxPool, type LocusForFilter, missingSandboxPrerequisites } from './index.ts';

// Without bubblewrap or Debian's numpy these tests skip (sandbox-pool.test.ts says what to install); under CI they fail.
const missing = missingSandboxPrerequisites();
if (missing.length && process.env.CI === 'true') throw new Error(`deferred-properties tests need ${missing.join(' and ')}`);

const READ_TRIGGER = `
import antares.devkit as dk
class Trigger(dk.Filter):
    OUTPUT_LOCUS_PROPERTIES = [{'name': 'mag', 'type': 'float', 'description': ''}]
    def run(self, locus):
        locus.properties['mag'] = locus.alert.properties['ant_mag']
`;
const READ_ALL = `
import antares.devkit as dk
class All(dk.Filter):
    OUTPUT_LOCUS_PROPERTIES = [{'name': 'total', 'type': 'float', 'description': ''}]
    def run(self, locus):
        locus.properties['total'] = sum(a.properties['ant_mag'] for a in locus.alerts)
`;

const READ_LOCUS = `
import antares.devkit as dk
class Locus(dk.Filter):
    OUTPUT_LOCUS_PROPERTIES = [{'name': 'twice', 'type': 'int', 'description': ''}]
    def run(self, locus):
        locus.properties['twice'] = 2 * locus.properties['n']
`;

// How many alerts came with the locus (its `_raw`: what the pool sent), and how many `locus.alerts` holds.
const SENT_AND_SEEN = `
import antares.devkit as dk
class Lists(dk.Filter):
    OUTPUT_LOCUS_PROPERTIES = [{'name': 'sent', 'type': 'int', 'description': ''}, {'name': 'seen', 'type': 'int', 'description': ''}]
    def run(self, locus):
        locus.properties['sent'] = len(locus._raw['alerts'])
        if locus.alert.properties['ant_mag'] > 0:
            locus.properties['seen'] = len(locus.alerts)
`;
const SENT_ONLY = SENT_AND_SEEN.replace("if locus.alert.properties['ant_mag'] > 0", 'if False');

/** Locus `i` of `round`: five alerts, as Level 2 gives them (no properties: the loader has them). */
function bareLocus(round: number, i: number): LocusForFilter {
  return {
    locus_id: `R${round}L${i}`,
    ra: 10 + i,
    dec: -5,
    tags: [],
    properties: { n: 10 * round + i },
    alerts: Array.from({ length: 5 }, (_, k) => ({ alert_id: `lsst:${round}${i}${k}`, mjd: 60000 + k, survey: 'lsst' })),
    catalog_objects: {},
  };
}
const magOf = (alertId: string) => 15 + Number(alertId.slice(-1)) + Number(alertId.slice(-2, -1)) / 10;

describe.skipIf(missing.length > 0)('deferred alert properties (PROTOCOL.md)', () => {
  let pool: FilterSandboxPool;
  /** What the loader was asked for, call by call. */
  let asked: string[][];
  let failFor: Set<string>;
  const loader = async (alerts: AlertForFilter[]) => {
    asked.push(alerts.map((a) => a.alert_id));
    if (alerts.some((a) => failFor.has(a.alert_id))) throw new Error('the database is gone');
    for (const a of alerts) a.propertiesJson = JSON.stringify({ ant_mag: magOf(a.alert_id) });
  };
  beforeAll(async () => {
    pool = new FilterSandboxPool({ maxWorkers: 2, slotOffset: 400 });
    expect((await pool.load('trigger', READ_TRIGGER)).ok).toBe(true);
    expect((await pool.load('all', READ_ALL)).ok).toBe(true);
    expect((await pool.load('locus', READ_LOCUS)).ok).toBe(true);
    expect((await pool.load('lists', SENT_AND_SEEN)).ok).toBe(true);
    expect((await pool.load('sent-only', SENT_ONLY)).ok).toBe(true);
  });
  afterAll(() => pool?.close());

  it("loads only the triggering alerts' properties for a filter that reads nothing else", async () => {
    asked = [];
    failFor = new Set();
    const loci = [0, 1, 2].map((i) => bareLocus(0, i));
    const { reports } = await pool.runBatch('trigger', loci, loader);
    expect(reports.map((r) => [r.status, r.new_locus_properties.mag])).toEqual(loci.map((l) => ['ok', magOf(l.alerts[4].alert_id)]));
    expect(asked).toEqual([loci.map((l) => l.alerts[4].alert_id)]);
  });

  it('gives a filter that reads every alert what it asks for, one locus at a time, then sends its next batches in full', async () => {
    asked = [];
    failFor = new Set();
    const total = (l: LocusForFilter) => l.alerts.reduce((sum, a) => sum + magOf(a.alert_id), 0);
    const first = [0, 1, 2].map((i) => bareLocus(1, i));
    const run1 = await pool.runBatch('all', first, loader);
    expect(run1.reports.map((r) => [r.status, r.new_locus_properties.total])).toEqual(first.map((l) => ['ok', total(l)]));
    // The triggering alerts, then each locus' four others when its filter reads them.
    expect(asked).toEqual([first.map((l) => l.alerts[4].alert_id), ...first.map((l) => l.alerts.slice(0, 4).map((a) => a.alert_id))]);
    // It read them on every locus: its next batch goes in full, every alert loaded at once.
    asked = [];
    const second = [0, 1].map((i) => bareLocus(2, i));
    const run2 = await pool.runBatch('all', second, loader);
    expect(run2.reports.map((r) => [r.status, r.new_locus_properties.total])).toEqual(second.map((l) => ['ok', total(l)]));
    expect(asked).toEqual([second.flatMap((l) => l.alerts.map((a) => a.alert_id))]);
  });

  it("makes a locus whose properties cannot be read that locus' error; the others go on", async () => {
    asked = [];
    const loci = [0, 1].map((i) => bareLocus(3, i));
    failFor = new Set([loci[0].alerts[0].alert_id]);
    // A new filter of the same code starts deferred.
    expect((await pool.load('all-again', READ_ALL)).ok).toBe(true);
    const { reports } = await pool.runBatch('all-again', loci, loader);
    expect(reports[0].status).toBe('error');
    expect(reports[0].error?.message).toContain('the database is gone');
    expect([reports[1].status, reports[1].new_locus_properties.total]).toEqual([
      'ok',
      loci[1].alerts.reduce((sum, a) => sum + magOf(a.alert_id), 0),
    ]);
  });

  it("gives a filter that reads the locus' own properties what it asks for, batch after batch", async () => {
    asked = [];
    failFor = new Set();
    for (const round of [4, 5]) {
      const loci = [0, 1, 2].map((i) => bareLocus(round, i));
      const { reports } = await pool.runBatch('locus', loci, loader);
      expect(reports.map((r) => [r.status, r.new_locus_properties.twice])).toEqual(loci.map((l) => ['ok', 2 * (l.properties.n as number)]));
    }
  });

  it('sends a locus with its triggering alert alone until its filter reads the others, then in full', async () => {
    asked = [];
    failFor = new Set();
    const sentSeen = (reports: { new_locus_properties: Record<string, unknown> }[]) =>
      reports.map((r) => [r.new_locus_properties.sent, r.new_locus_properties.seen]);
    const first = [0, 1, 2].map((i) => bareLocus(6, i));
    expect(sentSeen((await pool.runBatch('lists', first, loader)).reports)).toEqual(first.map(() => [1, 5]));
    // It read the list on every locus: its next batches send the lists whole (reading them still counts).
    for (const round of [7, 10]) {
      const loci = [0, 1].map((i) => bareLocus(round, i));
      expect(sentSeen((await pool.runBatch('lists', loci, loader)).reports)).toEqual(loci.map(() => [5, 5]));
    }
    // One that never reads them is never sent them, batch after batch, and nothing of theirs is loaded.
    for (const round of [8, 9]) {
      asked = [];
      const loci = [0, 1].map((i) => bareLocus(round, i));
      expect(sentSeen((await pool.runBatch('sent-only', loci, loader)).reports)).toEqual(loci.map(() => [1, undefined]));
      expect(asked.flat().sort()).toEqual(loci.map((l) => l.alerts[4].alert_id).sort());
    }
  });
});
