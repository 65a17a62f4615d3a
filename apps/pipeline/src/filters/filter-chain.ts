// Dry runs and backtests of a chained filter (ADR 0055): the enabled filters it reads properties from
// run first on the same loci, in the order Level 2 runs them, and their outputs are its inputs. Level 2
// needs none of this: it runs every enabled filter anyway, in that order (filter-order.ts).
import type { Repositories } from '@antares/db';

import { filesOfVersion } from './filter-files.ts';
import { type ChainMember, chainSides, dependenciesOf } from './filter-order.ts';
import type { AlertPropertyLoader, FilterSandboxPool, LoadResult, LocusForFilter, LocusReport, RunLimits } from './pool/index.ts';

/** An enabled filter version as a chain dependency. */
export interface ChainDependency extends ChainMember {
  filterId: number;
  versionId: number;
  code: string;
  filterClass: string | null;
  /** A private filter is named to nobody: a dry run or backtest reporting it says "a private filter". */
  public: boolean;
}

/** A dependency as a report names it: a private filter without its name or ids. */
export function namedDependency(d: ChainDependency): { filter_id: string | null; filter_version_id: string | null; name: string } {
  return d.public
    ? { filter_id: String(d.filterId), filter_version_id: String(d.versionId), name: d.name }
    : { filter_id: null, filter_version_id: null, name: 'a private filter' };
}

/** A dependency loaded in a pool under `key` (or not: `loaded.ok` false says why). */
export interface LoadedDependency {
  dependency: ChainDependency;
  key: string;
  loaded: LoadResult;
}

/**
 * The enabled filters whose outputs `testedOutputs` (a filter's load outputs) reads, directly or through
 * each other, in the order they must run. Enabled versions whose code is the tested code are left out:
 * testing the enabled filter's own code must not run it first.
 */
export async function chainDependencies(repos: Repositories, testedOutputs: unknown, testedCode: string): Promise<ChainDependency[]> {
  const enabled = (await repos.filters.listForPipeline())
    .filter((f) => f.code !== testedCode)
    .map((f) => ({
      filterId: f.filter_id,
      versionId: f.version_id,
      code: f.code,
      filterClass: f.filter_class,
      name: f.name,
      public: f.public,
      ...chainSides(f.declared_outputs),
    }));
  return dependenciesOf({ name: 'tested', ...chainSides(testedOutputs) }, enabled);
}

/** Loads the dependencies in the pool, under keys of `prefix`, each with its version's files as Level 2 loads it. */
export async function loadDependencies(
  repos: Repositories,
  pool: FilterSandboxPool,
  dependencies: ChainDependency[],
  prefix: string,
): Promise<LoadedDependency[]> {
  const out: LoadedDependency[] = [];
  for (const dependency of dependencies) {
    const key = `${prefix}-dep-${dependency.versionId}`;
    out.push({
      dependency,
      key,
      loaded: await pool.load(key, dependency.code, await filesOfVersion(repos, dependency.versionId), dependency.filterClass ?? undefined),
    });
  }
  return out;
}

export async function unloadDependencies(pool: FilterSandboxPool, loaded: LoadedDependency[]): Promise<void> {
  for (const d of loaded) await pool.unload(d.key).catch(() => {});
}

/**
 * Runs the loaded dependencies on the loci, one after another, each on the loci as the ones before left
 * them (as Level 2's wavefront does), within one `limits.budgetMs` for all of them. Returns the loci with every dependency's tags and properties, and
 * each dependency's reports (one per locus; none for one that did not load).
 */
export async function runDependencies(
  pool: FilterSandboxPool,
  loaded: LoadedDependency[],
  loci: LocusForFilter[],
  loadProperties: AlertPropertyLoader,
  limits: RunLimits,
): Promise<{ loci: LocusForFilter[]; reports: LocusReport[][] }> {
  let current = loci;
  const reports: LocusReport[][] = [];
  const started = performance.now();
  for (const d of loaded) {
    if (!d.loaded.ok) {
      reports.push([]);
      continue;
    }
    // A budget is the whole chain's: each dependency gets what the ones before it left.
    const budgetMs = limits.budgetMs === undefined ? undefined : leftOf(limits.budgetMs, started);
    const batch = await pool.runBatch(d.key, current, loadProperties, { ...limits, budgetMs });
    current = current.map((locus, i) => (batch.reports[i] ? withOutputs(locus, batch.reports[i]) : locus));
    reports.push(batch.reports);
  }
  return { loci: current, reports };
}

/**
 * The locus with what a filter's report gave it, as a new object (the pool reuses a locus' encoding while
 * its properties and tags are the same objects); the locus itself when the report gave nothing.
 */
export function withOutputs(locus: LocusForFilter, report: LocusReport): LocusForFilter {
  if (report.status !== 'ok') return locus;
  const tags = report.new_tags.filter((t) => !locus.tags.includes(t));
  const props = report.new_locus_properties;
  if (tags.length === 0 && Object.keys(props).length === 0) return locus;
  return { ...locus, tags: [...locus.tags, ...tags], properties: { ...locus.properties, ...props } };
}

/** What a budget started at `started` has left, in tenths of a second (a stopped run's message states it). */
export function leftOf(budgetMs: number, started: number): number {
  return Math.max(100, Math.floor((budgetMs - (performance.now() - started)) / 100) * 100);
}
