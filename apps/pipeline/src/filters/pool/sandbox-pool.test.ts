import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { APT_INSTALL, FilterSandboxPool, type LocusForFilter, missingSandboxPrerequisites } from './index.ts';

// Without bubblewrap or Debian's numpy these tests skip, saying what to install; under CI they fail.
const missing = missingSandboxPrerequisites();
if (missing.length) {
  const message = `sandbox-pool tests need ${missing.join(' and ')}: ${APT_INSTALL}`;
  if (process.env.CI === 'true') throw new Error(message);
  console.warn(`SKIPPED: ${message}`);
}
const EXAMPLES = fileURLToPath(new URL('../../../../../../shared/filters/examples', import.meta.url));

const locus = (i: number, props: Record<string, unknown> = {}, alertProps: Record<string, unknown> = {}): LocusForFilter => ({
  locus_id: `L${i}`,
  ra: 10 + i,
  dec: -5,
  tags: [],
  properties: { num_alerts: 2, ztf_object_id: `ZTF${i}`, ...props },
  alerts: [
    { alert_id: `ztf_candidate:${i}1`, mjd: 59000, properties: { ant_mag: 18, ant_passband: 'g' } },
    { alert_id: `ztf_candidate:${i}2`, mjd: 59001, properties: { ant_mag: 17.5, ant_passband: 'g', ztf_sigmapsf: 0.05, ...alertProps } },
  ],
  catalog_objects: {},
  grav_wave_events_metadata: {},
});

const filter = (body: string, outputs = "OUTPUT_TAGS = [{'name': 'ok_tag', 'description': ''}]") => `
import os, re, sys, time, antares.devkit as dk
class F(dk.Filter):
    ${outputs}
    def run(self, locus):
        if locus.locus_id != 'L0':
            locus.tag('ok_tag')
            return
${body
  .trim()
  .split('\n')
  .map((l) => `        ${l}`)
  .join('\n')}
`;

describe.skipIf(missing.length > 0)('FilterSandboxPool', () => {
  let pool: FilterSandboxPool;
  // A slot offset of its own: the pytest suite, which `npm test` runs at the same time, starts its workers
  // in slots 10 and up, and a fork bomb exhausts the process limit of its uid (a busy slot's worker takes
  // the range's next free uid, so sharing a slot would cost a uid search, not a failure).
  beforeAll(() => {
    // Alerts a worker lacks go in full here (deferProperties: false); deferred-properties.test.ts sends them deferred.
    pool = new FilterSandboxPool({ maxWorkers: 6, locusTimeoutMs: 1500, stallGraceMs: 1500, slotOffset: 100, deferProperties: false });
  });
  afterAll(async () => {
    await pool.close();
  });

  it.skipIf(!existsSync(EXAMPLES))('runs the real example filters unchanged', async () => {
    const a = await pool.load('high_snr', readFileSync(`${EXAMPLES}/class_api_a_notebook_examples.py`, 'utf8'), {}, 'HighSNR');
    expect(a.ok).toBe(true);
    expect(a.outputs!.tags).toEqual(['high_snr']);
    const reports = await pool.run('high_snr', [locus(1, {}, { ztf_sigmapsf: 0.01 }), locus(2), locus(3, { ztf_object_id: undefined })]);
    expect(reports.map((r) => [r.status, r.new_tags])).toEqual([
      ['ok', ['high_snr']],
      ['ok', []],
      ['skipped', []],
    ]);
    expect(reports[0].stdout).toContain('High SNR detected');
    const b = await pool.load('lsst', readFileSync(`${EXAMPLES}/class_api_b_lsst_quality.py`, 'utf8'));
    expect(b.ok && b.outputs!.api).toBe('B');
    expect((await pool.run('lsst', [locus(4)]))[0].status).toBe('skipped');
  });

  it('contains crashing, hanging and flooding filters while a good filter goes on', async () => {
    const cases: Record<string, [string, string[]]> = {
      exit: ['os._exit(3)', ['crash']],
      segfault: ['import ctypes\nctypes.string_at(0)', ['crash']],
      hang_in_c: ["re.match(r'(a+)+$', 'a' * 64 + 'b')", ['timeout']], // the regex engine never checks signals
      loop: ['while True:\n    pass', ['timeout']],
      // The process limit stops it with an error, unless a loaded machine forks so slowly that the
      // per-locus time limit comes first: contained either way.
      fork_bomb: ['while True:\n    os.fork()', ['error', 'timeout']],
      memory: ['x = bytearray(10 * 2**30)', ['error']],
    };
    const good = await pool.load('good', filter('locus.tag("ok_tag")'));
    expect(good.ok).toBe(true);
    const runs = Object.entries(cases).map(async ([name, [body]]) => {
      const loaded = await pool.load(name, filter(body));
      expect(loaded.ok, `${name}: ${JSON.stringify(loaded.error)}`).toBe(true);
      return [name, await pool.runBatch(name, [locus(1), locus(0), locus(2), locus(3)])] as const;
    });
    const goodRun = pool.run(
      'good',
      [0, 1, 2, 3].map((i) => locus(i)),
    );
    for (const [name, batch] of await Promise.all(runs)) {
      const statuses = batch.reports.map((r) => r.status);
      expect([name, statuses[0], statuses[2], statuses[3], batch.reports[0].error?.message]).toEqual([name, 'ok', 'ok', 'ok', undefined]);
      expect(cases[name][1], `${name}: ${statuses[1]}`).toContain(statuses[1]);
      expect(batch.reports[0].new_tags).toEqual(['ok_tag']);
      expect(batch.reports[2].new_tags).toEqual(['ok_tag']); // after the restart
      expect(batch.reports[1].error?.type).toBeTruthy();
    }
    expect((await goodRun).every((r) => r.status === 'ok' && r.new_tags[0] === 'ok_tag')).toBe(true);
  });

  it('kills a worker that floods the protocol or forges lines, and rejects undeclared outputs', async () => {
    const small = new FilterSandboxPool({ maxWorkers: 2, maxLineBytes: 20_000, slotOffset: 120 });
    try {
      await small.load('flood', filter("print('x' * 60000)"));
      const flood = await small.run('flood', [locus(0), locus(1)]);
      expect(flood.map((r) => r.status)).toEqual(['crash', 'ok']);
      expect(flood[0].error!.message).toContain('flooded');
      await small.load(
        'forge',
        filter(`
line = '{"id": 2, "nonce": "x", "op": "report", "i": 0, "status": "ok", "new_tags": ["ok_tag"]}\\n'
for fd in map(int, os.listdir('/proc/self/fd')):
    if fd > 2:
        try:
            os.write(fd, line.encode())
        except OSError:
            pass`),
      );
      const forged = await small.run('forge', [locus(0), locus(1)]);
      expect(forged.map((r) => r.status)).toEqual(['crash', 'crash']);
      expect(forged[0].error!.message).toContain('unexpected line');
      expect((await small.run('forge', [locus(1)]))[0].status).toBe('ok'); // reloaded on demand
      await small.load(
        'patch',
        filter(`
import antares_runtime.core as core
core.Changes.add_tag = lambda self, name: self.tags.add(name)
locus.tag('not_declared')`),
      );
      const patched = await small.run('patch', [locus(0)]);
      expect([patched[0].status, patched[0].new_tags]).toEqual(['error', []]);
    } finally {
      await small.close();
    }
  });

  it('reports load errors and ends an over-long batch', async () => {
    const bad = await pool.load('bad', 'def broken(:\n');
    expect([bad.ok, bad.error!.type]).toEqual([false, 'SyntaxError']);
    await expect(pool.run('bad', [locus(0)])).rejects.toThrow('not loaded');
    const slow = new FilterSandboxPool({ maxWorkers: 1, batchTimeoutMs: 1500, slotOffset: 130 });
    try {
      await slow.load('slow', filter('time.sleep(1)').replace("if locus.locus_id != 'L0'", 'if False'));
      const reports = await slow.run(
        'slow',
        [0, 1, 2, 3].map((i) => locus(i)),
      );
      expect(reports.map((r) => r.status)).toEqual(['ok', 'timeout', 'timeout', 'timeout']);
    } finally {
      await slow.close();
    }
  });

  it('stops a batch with run limits: after timeouts in a row, or at its time budget; the rest are not run', async () => {
    const everyLocus = (body: string) => filter(body).replace("if locus.locus_id != 'L0'", 'if False');
    expect((await pool.load('hangs', everyLocus('while True:\n    pass'))).ok).toBe(true);
    const hung = await pool.runBatch(
      'hangs',
      [0, 1, 2, 3, 4, 5].map((i) => locus(i)),
      undefined,
      { stopAfterTimeouts: 2 },
    );
    expect(hung.reports.map((r) => [r.locus_id, r.status])).toEqual([
      ['L0', 'timeout'],
      ['L1', 'timeout'],
    ]);
    expect(hung.stoppedEarly).toBe('2 loci in a row timed out');

    expect((await pool.load('slow', everyLocus('time.sleep(0.4)\nlocus.tag("ok_tag")'))).ok).toBe(true);
    const slow = await pool.runBatch(
      'slow',
      Array.from({ length: 20 }, (_, i) => locus(i)),
      undefined,
      { budgetMs: 1000 },
    );
    expect(slow.stoppedEarly).toBe("the run's time budget of 1 s was used up");
    expect(slow.reports.length).toBeLessThan(20);
    // Those that ran are reported as usual (the one in flight at the budget is a timeout).
    expect(slow.reports.slice(0, -1).every((r) => r.status === 'ok' && r.new_tags[0] === 'ok_tag')).toBe(true);
    expect(['ok', 'timeout']).toContain(slow.reports.at(-1)!.status);
    // Its worker was stopped; the next batch gets a new one, and without limits runs to the end.
    expect((await pool.run('slow', [locus(1), locus(2)])).map((r) => r.status)).toEqual(['ok', 'ok']);
    // Limits a batch stays within change nothing.
    const whole = await pool.runBatch('slow', [locus(3)], undefined, { budgetMs: 60_000, stopAfterTimeouts: 1 });
    expect([whole.reports.length, whole.stoppedEarly]).toEqual([1, undefined]);
    await pool.unload('hangs');
    await pool.unload('slow');
  });

  it('runs a batch sent in several lines, with a crash in the middle, in order', async () => {
    // Loci of ~8 kB each: a batch of 40 goes to the worker in several lines (PROTOCOL.md). The filter
    // reads every alert's properties, so packed ones must decode, in the first worker and in the next.
    const code = `
import os, antares.devkit as dk
class Sum(dk.Filter):
    OUTPUT_LOCUS_PROPERTIES = [{'name': 'total', 'type': 'float', 'description': ''}]
    def run(self, locus):
        if locus.locus_id == 'big17':
            os._exit(3)
        locus.properties['total'] = sum(a.properties['p1'] for a in locus.alerts) + locus.alert.properties['p0']
`;
    expect((await pool.load('sum', code)).ok).toBe(true);
    const big = (i: number): LocusForFilter => ({
      locus_id: `big${i}`,
      ra: 1,
      dec: 2,
      tags: [],
      properties: { num_alerts: 8 },
      alerts: Array.from({ length: 8 }, (_, k) => ({
        alert_id: `ztf_candidate:big${i}-${k}`,
        mjd: 59000 + k,
        properties: Object.fromEntries(Array.from({ length: 40 }, (_, p) => [`p${p}`, i + k + p / 1000])),
      })),
    });
    const loci = Array.from({ length: 40 }, (_, i) => big(i));
    const expected = (i: number) => Array.from({ length: 8 }, (_, k) => i + k + 0.001).reduce((a, b) => a + b, 0) + (i + 7);
    for (const round of [0, 1]) {
      // the second time, the alerts the new worker holds go as ids
      const batch = await pool.runBatch('sum', loci);
      expect(batch.reports.map((r) => r.locus_id)).toEqual(loci.map((l) => l.locus_id));
      expect(batch.restarts).toBe(1);
      for (const [i, r] of batch.reports.entries()) {
        if (i === 17) {
          expect(r.status, `round ${round}`).toBe('crash');
          continue;
        }
        expect([i, r.status]).toEqual([i, 'ok']);
        expect(r.new_locus_properties.total).toBeCloseTo(expected(i), 9);
      }
    }
    // Level 2's way: alerts come without properties and the pool asks for those of the alerts the
    // worker lacks, again for the new worker that replaces a crashed one.
    expect((await pool.load('sum-lazy', code)).ok).toBe(true);
    const source = new Map(loci.flatMap((l) => l.alerts).map((a) => [a.alert_id, a.properties!]));
    const asked: number[][] = [];
    for (const round of [0, 1]) {
      const bare = loci.map((l) => ({ ...l, alerts: l.alerts.map(({ properties: _p, ...a }) => ({ ...a })) }));
      asked.push([]);
      const batch = await pool.runBatch('sum-lazy', bare, async (alerts) => {
        asked[round].push(alerts.length);
        for (const a of alerts) a.properties = source.get(a.alert_id);
      });
      expect(batch.restarts).toBe(1);
      for (const [i, r] of batch.reports.entries()) {
        if (i !== 17) expect([i, r.status, r.new_locus_properties.total]).toEqual([i, 'ok', expect.closeTo(expected(i), 9)]);
      }
    }
    // First every alert; then those of loci 0-17 (the restarted worker holds 18-39) and, after the
    // crash on 17, those of 18-39 for the next worker.
    expect(asked).toEqual([[320], [144, 176]]);
  });

  it('starts afresh a worker that died between batches: it is sent every alert in full', async () => {
    // The worker ends itself a moment after answering (as the kernel's OOM killer might end an idle
    // one), so the next batch finds it dead in its slot, not retired by the pool.
    const code = `
import os, threading, antares.devkit as dk
class Idle(dk.Filter):
    OUTPUT_LOCUS_PROPERTIES = [{'name': 'mags', 'type': 'float', 'description': ''}]
    def run(self, locus):
        locus.properties['mags'] = sum(a.properties['ant_mag'] for a in locus.alerts)
        if locus.locus_id == 'L3':
            threading.Timer(0.2, os._exit, (3,)).start()
`;
    const lone = new FilterSandboxPool({ maxWorkers: 1, slotOffset: 170, deferProperties: false });
    try {
      expect((await lone.load('idle', code)).ok).toBe(true);
      const loci = [1, 2, 3].map((i) => locus(i));
      const source = new Map(loci.flatMap((l) => l.alerts).map((a) => [a.alert_id, a.properties!]));
      const asked: number[] = [];
      for (const round of [0, 1]) {
        const bare = loci.map((l) => ({ ...l, alerts: l.alerts.map(({ properties: _p, ...a }) => ({ ...a })) }));
        const batch = await lone.runBatch('idle', bare, async (alerts) => {
          asked.push(alerts.length);
          for (const a of alerts) a.properties = source.get(a.alert_id);
        });
        expect(batch.reports.map((r) => [round, r.status, r.new_locus_properties.mags])).toEqual(loci.map(() => [round, 'ok', 35.5]));
        await new Promise((resolve) => setTimeout(resolve, 1500)); // the worker ends 0.2 s after L3
      }
      expect(asked).toEqual([6, 6]);
    } finally {
      await lone.close();
    }
  });

  it('sends an alert once per worker, then only its id; forgets and resends as told', async () => {
    // The filter reports, per locus, how many of its alert dicts it has seen before (the same Python
    // object: kept by the worker) and what an old alert's property says now.
    const SEEN = `
import antares.devkit as dk
SEEN = {}
class Seen(dk.Filter):
    OUTPUT_LOCUS_PROPERTIES = [{'name': 'reused', 'type': 'int', 'description': ''},
                               {'name': 'first_mag', 'type': 'float', 'description': ''},
                               {'name': 'n', 'type': 'int', 'description': ''}]
    def run(self, locus):
        reused = 0
        for a in locus.alerts:
            if SEEN.get(a.alert_id) is a._raw:
                reused += 1
            SEEN[a.alert_id] = a._raw
        locus.properties['reused'] = reused
        locus.properties['n'] = len(locus.alerts)
        locus.properties['first_mag'] = float(locus.alerts[0].properties['ant_mag'])
`;
    const small = new FilterSandboxPool({ maxWorkers: 1, slotOffset: 140, alertCacheSize: 5 });
    try {
      expect((await small.load('seen', SEEN)).ok).toBe(true);
      const withAlerts = (l: LocusForFilter, n: number, mag = 18): LocusForFilter => ({
        ...l,
        alerts: Array.from({ length: n }, (_, k) => ({
          alert_id: `ztf_candidate:${l.locus_id}-${k}`,
          mjd: 59000 + k,
          properties: { ant_mag: k === 0 ? mag : 19 },
        })),
      });
      const props = async (loci: LocusForFilter[]) => (await small.run('seen', loci)).map((r) => [r.status, r.new_locus_properties]);
      expect(await props([withAlerts(locus(1), 2)])).toEqual([['ok', { reused: 0, n: 2, first_mag: 18 }]]);
      // The same locus with a new alert: the two old ones come from the worker's keeping.
      expect(await props([withAlerts(locus(1), 3)])).toEqual([['ok', { reused: 2, n: 3, first_mag: 18 }]]);
      // An alert whose properties changed is sent again in full: the filter sees the new value.
      small.invalidateAlerts(['ztf_candidate:L1-0']);
      expect(await props([withAlerts(locus(1), 3, 16.5)])).toEqual([['ok', { reused: 2, n: 3, first_mag: 16.5 }]]);
      // Past the limit of 5 kept alerts, the least recently used are forgotten and then resent whole.
      expect(await props([withAlerts(locus(2), 4)])).toEqual([['ok', { reused: 0, n: 4, first_mag: 18 }]]);
      // (L1's two oldest were forgotten for L2's four; its newest was kept.)
      expect(await props([withAlerts(locus(1), 3)])).toEqual([['ok', { reused: 1, n: 3, first_mag: 18 }]]);
      expect(await props([withAlerts(locus(1), 3), withAlerts(locus(2), 4)])).toEqual([
        ['ok', { reused: 3, n: 3, first_mag: 18 }],
        ['ok', { reused: 2, n: 4, first_mag: 18 }],
      ]);
    } finally {
      await small.close();
    }
    // Two filters given the same alert objects (as Level 2 does): each worker is sent them once, and
    // an alert whose GW associations change is sent again to each.
    const pair = new FilterSandboxPool({ maxWorkers: 2, slotOffset: 150 });
    try {
      expect((await pair.load('a', SEEN)).ok && (await pair.load('b', SEEN)).ok).toBe(true);
      const shared = (gw?: { gracedb_id: string; contour_level: number; contour_area: number }): LocusForFilter[] => [
        {
          ...locus(1),
          alerts: Array.from({ length: 3 }, (_, k) => ({
            alert_id: `ztf_candidate:pair-${k}`,
            mjd: 59000 + k,
            properties: { ant_mag: 18 },
            ...(k === 0 && gw ? { grav_wave_events: [gw] } : {}),
          })),
        },
      ];
      const reused = async (name: string, loci: LocusForFilter[]) =>
        (await pair.run(name, loci)).map((r) => [r.status, r.new_locus_properties.reused]);
      const first = shared();
      expect([await reused('a', first), await reused('b', first)]).toEqual([[['ok', 0]], [['ok', 0]]]);
      expect([await reused('a', shared()), await reused('b', shared())]).toEqual([[['ok', 3]], [['ok', 3]]]);
      const event = { gracedb_id: 'S200105ae', contour_level: 50, contour_area: 300 };
      expect([await reused('a', shared(event)), await reused('b', shared(event))]).toEqual([[['ok', 2]], [['ok', 2]]]);
      expect([await reused('a', shared(event)), await reused('b', shared(event))]).toEqual([[['ok', 3]], [['ok', 3]]]);
    } finally {
      await pair.close();
    }
  });
  it('sends a locus sent before as the count of the alerts the worker keeps for it, then the rest', async () => {
    // The filter reports the alert ids it was given, in order, and how many of its alert dicts it has
    // seen before (the same Python object: kept by the worker).
    const LIST = `
import antares.devkit as dk
SEEN = {}
class List(dk.Filter):
    REQUIRED_ALERT_PROPERTIES = ['ant_mag']
    OUTPUT_LOCUS_PROPERTIES = [{'name': 'ids', 'type': 'str', 'description': ''},
                               {'name': 'reused', 'type': 'int', 'description': ''}]
    def run(self, locus):
        locus.properties['ids'] = ' '.join(a.alert_id.split(':')[1] for a in locus.alerts)
        locus.properties['reused'] = sum(1 for a in locus.alerts if SEEN.get(a.alert_id) is a._raw)
        for a in locus.alerts:
            SEEN[a.alert_id] = a._raw
`;
    const pool = new FilterSandboxPool({ maxWorkers: 1, slotOffset: 160, alertCacheSize: 6 });
    try {
      expect((await pool.load('list', LIST)).ok).toBe(true);
      const withAlerts = (id: string, names: string[], mag = 18): LocusForFilter => ({
        locus_id: id,
        ra: 1,
        dec: 2,
        tags: [],
        properties: {},
        alerts: names.map((n, k) => ({ alert_id: `a:${n}`, mjd: 59000 + k, properties: { ant_mag: n === 'b' ? mag : 18 } })),
      });
      const seen = async (...loci: LocusForFilter[]) =>
        (await pool.run('list', loci)).map((r) => [r.status, r.new_locus_properties.ids, r.new_locus_properties.reused]);
      expect(await seen(withAlerts('L1', ['a', 'b']))).toEqual([['ok', 'a b', 0]]);
      // New alerts at the end, then one in the middle (an earlier epoch arriving late): each time the
      // worker's list is used as far as it matches and the rest follows.
      expect(await seen(withAlerts('L1', ['a', 'b', 'c']))).toEqual([['ok', 'a b c', 2]]);
      expect(await seen(withAlerts('L1', ['a', 'x', 'b', 'c']))).toEqual([['ok', 'a x b c', 3]]);
      // An alert whose properties changed ends the kept part: it and what follows come as the pool says.
      pool.invalidateAlerts(['a:b']);
      expect(await seen(withAlerts('L1', ['a', 'x', 'b', 'c'], 16))).toEqual([['ok', 'a x b c', 3]]);
      // A locus the requirements rule out (its triggering alert has no ant_mag) gets the worker's skip
      // report without being sent: its alerts are new to the worker when the locus next qualifies.
      const unqualified = {
        ...withAlerts('L2', ['p', 'q']),
        alerts: withAlerts('L2', ['p', 'q']).alerts.map((a) => ({ ...a, properties: {} })),
      };
      expect((await pool.run('list', [unqualified]))[0]).toMatchObject({
        status: 'skipped',
        skip_reason: 'missing required alert property ant_mag',
      });
      expect(await seen(withAlerts('L2', ['p', 'q']))).toEqual([['ok', 'p q', 0]]);
      // Past 6 alerts in the worker's lists, the oldest list is dropped (L1's), and past 6 alerts held
      // the least recently used (L1's a, x, b): L1 is then sent whole, c as an id and the rest in full.
      expect(await seen(withAlerts('L3', ['r', 's', 't']))).toEqual([['ok', 'r s t', 0]]);
      expect(await seen(withAlerts('L1', ['a', 'x', 'b', 'c']), withAlerts('L3', ['r', 's', 't', 'u']))).toEqual([
        ['ok', 'a x b c', 1],
        ['ok', 'r s t u', 3],
      ]);
    } finally {
      await pool.close();
    }
  });
});
