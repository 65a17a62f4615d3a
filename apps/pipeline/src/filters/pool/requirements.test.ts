import { execFileSync } from 'node:child_process';

import { describe, expect, it } from 'vitest';

import { missingSandboxPrerequisites, RUNTIME_DIR } from './prerequisites.ts';
import { skipReason } from './requirements.ts';
import type { AlertForFilter, LocusForFilter, Requirement } from './types.ts';

// The pool keeps back a locus a filter's requirements rule out (requirements.ts). Its checks must give
// exactly the worker's verdict and reason (Declarations.skip_reason in the runtime's core.py): both are
// asked here about the same loci, for filters of each API declaring each kind of requirement.
const missing = missingSandboxPrerequisites();
if (missing.length) {
  const message = `requirements tests need ${missing.join(' and ')}`;
  if (process.env.CI === 'true') throw new Error(message);
  console.warn(`SKIPPED: ${message}`);
}

const FILTERS = {
  classA: `import antares.devkit as dk
class F(dk.Filter):
    REQUIRED_LOCUS_PROPERTIES = ['ztf_object_id']
    REQUIRED_TAGS = ['seen']
    INPUT_ALERT_PROPERTIES = ['passband', 'ztf_rb']
    def run(self, locus): pass
`,
  classB: `from antares_devkit.models import BaseFilter
class F(BaseFilter):
    REQUIRED_ALERT_PROPERTIES = ['lsst_snr']
    INPUT_ALERT_PROPERTIES = ['ztf_rb']
    INPUT_LOCUS_PROPERTIES = ['never_there']
    TRIGGERING_SURVEY = 'LSST'
    def _run(self, locus): pass
`,
  gwRegion: `import antares.devkit as dk
class F(dk.Filter):
    REQUIRED_GRAV_WAVE_PROB_REGION = 90.0
    INPUT_TAGS = ['seen']
    def run(self, locus): pass
`,
  ztfOnly: `import antares.devkit as dk
class F(dk.Filter):
    TRIGGERING_SURVEY = 'ztf'
    def run(self, locus): pass
`,
  none: `import antares.devkit as dk
class F(dk.Filter):
    def run(self, locus): pass
`,
};

/** Each filter's requirements and its worker-side verdicts on the loci, from the runtime itself. */
function workerVerdicts(loci: LocusForFilter[]): Record<string, { requirements: Requirement[]; reasons: (string | null)[] }> {
  const script = `
import json, sys
from antares_runtime.api import api_of
from antares_runtime.core import Declarations
spec = json.load(sys.stdin)
out = {}
for name, code in spec['filters'].items():
    ns = {}
    exec(code, ns)
    decl = Declarations(ns['F'], api_of(ns['F']))
    out[name] = {'requirements': decl.outputs()['requirements'], 'reasons': [decl.skip_reason(l) for l in spec['loci']]}
print(json.dumps(out))
`;
  const text = execFileSync('/usr/bin/python3', ['-c', script], {
    input: JSON.stringify({ filters: FILTERS, loci }),
    env: { PATH: '/usr/bin:/bin', PYTHONPATH: RUNTIME_DIR },
  });
  return JSON.parse(text.toString());
}

const alert = (id: string, properties: Record<string, unknown>, extra: Partial<AlertForFilter> = {}): AlertForFilter => ({
  alert_id: id,
  mjd: 61000,
  properties,
  ...extra,
});

/** Loci that meet and fail each kind of requirement in turn, and ones that fail several. */
function variedLoci(): LocusForFilter[] {
  const loci: LocusForFilter[] = [];
  const propertySets = [{ ztf_object_id: 'ZTF1' }, { ztf_object_id: null }, {}, { other: 1 }];
  const tagSets = [['seen'], [], ['other']];
  const triggers: AlertForFilter[][] = [
    [alert('ztf_candidate:1', { ant_passband: 'g', ztf_rb: 0.9 })],
    [alert('ztf_candidate:2', { passband: 'g', ztf_rb: 0.9 })],
    [alert('ztf_candidate:3', { ant_passband: 'g' })],
    [alert('lsst:4', { lsst_snr: 12 })],
    [alert('x:5', { lsst_snr: 12 }, { survey: 'LSST' })],
    [alert('lsst:6', { lsst_snr: 5 }, { survey: 'ztf' })],
    [alert('ztf_candidate:7', {}, { grav_wave_events: [{ gracedb_id: 'S1', contour_level: 50, contour_area: 10 }] })],
    [alert('ztf_candidate:8', {}, { grav_wave_events: [{ gracedb_id: 'S1', contour_level: 95, contour_area: 10 }] })],
    [alert('ztf_candidate:9', {}, { grav_wave_events: [{ gracedb_id: 'S1', contour_level: 90, contour_area: 10 }] })],
    [],
  ];
  let n = 0;
  for (const properties of propertySets)
    for (const tags of tagSets)
      for (const alerts of triggers) {
        const locus: LocusForFilter = { locus_id: `L${n++}`, ra: 1, dec: 2, properties, tags, alerts };
        loci.push(locus);
      }
  // The triggering alert named by alert_id (not the last one), or named but absent (then the last one).
  const older = alert('lsst:10', { lsst_snr: 12 });
  const newer = alert('ztf_candidate:11', { ant_passband: 'g', ztf_rb: 0.5 });
  loci.push({ locus_id: 'named', ra: 1, dec: 2, properties: {}, tags: ['seen'], alerts: [older, newer], alert_id: 'lsst:10' });
  loci.push({ locus_id: 'unnamed', ra: 1, dec: 2, properties: {}, tags: ['seen'], alerts: [older, newer], alert_id: 'gone' });
  return loci;
}

describe.skipIf(missing.length > 0)('skipReason, the pool side of a filter’s requirements', () => {
  it('gives the worker’s verdict and reason on every locus, for filters of each API', () => {
    const loci = variedLoci();
    const verdicts = workerVerdicts(loci);
    // The pool sees the triggering alert's properties as the database's JSON text for half the loci.
    const asText = loci.map((l, i) =>
      i % 2 === 0 ? l : { ...l, alerts: l.alerts.map(({ properties, ...a }) => ({ ...a, propertiesJson: JSON.stringify(properties) })) },
    );
    let skipped = 0;
    for (const [name, { requirements, reasons }] of Object.entries(verdicts)) {
      expect(requirements.length > 0).toBe(name !== 'none');
      const ours = asText.map((l) => skipReason(requirements, l) ?? null);
      expect(ours, name).toEqual(reasons);
      skipped += reasons.filter((r) => r !== null).length;
    }
    expect(skipped).toBeGreaterThan(loci.length); // every kind of check failed somewhere
    expect(verdicts.gwRegion.reasons).toContain('not inside the 90.0% region of a gravitational-wave event');
  });

  it('leaves the verdict to the worker when the triggering alert’s properties are not here', () => {
    const requirements: Requirement[] = [
      { check: 'tag', name: 'seen', reason: 'missing required tag seen' },
      { check: 'alert_property', name: 'ztf_rb', reason: 'missing required alert property ztf_rb' },
    ];
    const locus = (tags: string[]): LocusForFilter => ({
      locus_id: 'L',
      ra: 1,
      dec: 2,
      properties: {},
      tags,
      alerts: [{ alert_id: 'ztf_candidate:1', mjd: 61000 }],
    });
    expect(skipReason(requirements, locus(['seen']))).toBeUndefined();
    // An earlier check that fails is certain whatever the alert holds.
    expect(skipReason(requirements, locus([]))).toBe('missing required tag seen');
    expect(skipReason([{ check: 'unknown' } as unknown as Requirement], locus(['seen']))).toBeUndefined();
  });
});
