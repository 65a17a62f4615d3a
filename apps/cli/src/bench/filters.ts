import { randomGenerator } from '@antares/astro/test-random';
import { APT_INSTALL, FilterSandboxPool, type LocusForFilter, missingSandboxPrerequisites } from '@antares/pipeline';

import { percentile } from './stats.ts';

/** The filter both filter benchmarks time: its cost is the sandbox's and the pool's, not its own. */
export const TRIVIAL = `import antares.devkit as dk
class Trivial(dk.Filter):
    OUTPUT_TAGS = [{'name': 'bench_bright', 'description': 'brighter than 18'}]
    def run(self, locus):
        if locus.alert.properties.get('ant_mag', 99) < 18:
            locus.tag('bench_bright')
`;

/**
 * `npm run bench -- filters [--loci N] [--objects N --nights K] [--survey rubin [--filters N]]`: the per-locus overhead of a trivial
 * filter through the sandboxed worker pool (JSON lines over a pipe into bubblewrap and back), in
 * batches of several sizes; then pipeline throughput with the shipped filters enabled.
 */
export async function benchFilters(args: string[]): Promise<void> {
  const missing = missingSandboxPrerequisites();
  if (missing.length > 0) throw new Error(`the filter benchmark needs ${missing.join(' and ')}: ${APT_INSTALL}`);
  // A visit with N filters (filter-visit.ts) is a benchmark of its own: the trivial filter's figures are left out.
  if (argValue(args, '--filters') !== undefined) return (await import('./filter-pipeline.ts')).benchFilterPipeline(args);
  const total = Number(argValue(args, '--loci') ?? 5000);
  const loci = syntheticLoci(total);
  const pool = new FilterSandboxPool({ maxWorkers: 1 });
  try {
    const loaded = await pool.load('trivial', TRIVIAL);
    if (!loaded.ok) throw new Error(`the trivial filter did not load: ${loaded.error?.message}`);
    await pool.run('trivial', loci.slice(0, 200)); // warm-up: imports, first allocations
    console.log(
      `Trivial filter, ${total} loci of ${loci[0].alerts.length} alerts (${Object.keys(loci[0].alerts[0].properties ?? {}).length} properties each), one sandboxed worker:`,
    );
    // First sight: every alert of these loci is new to the worker and goes in full (as a locus' new
    // alerts do in Level 2). After it the worker holds them all, and each batch size below measures the
    // steady state, where a locus' alerts go as ids (as the earlier alerts of an updated locus do).
    const first = performance.now();
    for (let i = 0; i < total; i += 500) await pool.runBatch('trivial', loci.slice(i, i + 500));
    console.log(
      `  first sight, batches of 500: ${((performance.now() - first) / total).toFixed(3)} ms per locus end to end (all ${loci[0].alerts.length} alerts sent in full)`,
    );
    for (const size of [1, 10, 100, 500]) {
      const count = size === 1 ? Math.min(total, 500) : total;
      const inFilter: number[] = [];
      const started = performance.now();
      for (let i = 0; i < count; i += size) {
        const batch = await pool.runBatch('trivial', loci.slice(i, Math.min(i + size, count)));
        for (const r of batch.reports) inFilter.push(r.t * 1000);
      }
      const perLocus = (performance.now() - started) / count;
      console.log(
        `  batches of ${String(size).padStart(3)}: ${perLocus.toFixed(3)} ms per locus end to end (target <= 0.2 in batches); ` +
          `in the filter p50 ${percentile(inFilter, 50).toFixed(3)} ms, p99 ${percentile(inFilter, 99).toFixed(3)} ms`,
      );
    }
  } finally {
    await pool.close();
  }
  await (await import('./filter-pipeline.ts')).benchFilterPipeline(args);
}

/** Loci shaped like the pipeline's (filter-runtime/PROTOCOL.md), with ZTF-like alert properties. */
function syntheticLoci(n: number): LocusForFilter[] {
  const random = randomGenerator(7);
  const names = [
    'ant_mag',
    'ant_magerr',
    'ant_maglim',
    'ant_ra',
    'ant_dec',
    'ztf_magpsf',
    'ztf_sigmapsf',
    'ztf_diffmaglim',
    'ztf_rb',
    'ztf_drb',
    'ztf_fwhm',
    'ztf_elong',
    'ztf_nbad',
    'ztf_distnr',
    'ztf_magnr',
    'ztf_sgscore1',
    'ztf_distpsnr1',
    'ztf_fid',
    'ztf_field',
    'ztf_rcid',
    'ztf_ndethist',
    'ztf_ncovhist',
    'ztf_jdstarthist',
    'ztf_scorr',
    'ztf_chipsf',
    'ztf_classtar',
    'ztf_isdiffpos',
    'ztf_programid',
  ];
  return Array.from({ length: n }, (_, i) => {
    const alerts = Array.from({ length: 10 }, (_, k) => {
      const properties: Record<string, unknown> = Object.fromEntries(names.map((name) => [name, 15 + 6 * random()]));
      properties.ant_passband = k % 2 ? 'g' : 'R';
      properties.ant_survey = 1;
      return { alert_id: `ztf_candidate:${1_000_000_000 + i * 100 + k}`, mjd: 61000 + k, properties };
    });
    return {
      locus_id: `ANT2026bench${i}`,
      ra: 360 * random(),
      dec: 180 * random() - 90,
      properties: { num_alerts: 10, num_mag_values: 10, ztf_object_id: `ZTF26bench${i}` },
      tags: [],
      alerts,
    };
  });
}

function argValue(args: string[], name: string): string | undefined {
  const index = args.indexOf(name);
  return index >= 0 ? args[index + 1] : undefined;
}
