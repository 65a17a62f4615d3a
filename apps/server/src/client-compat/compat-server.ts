import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import {
  type CatalogColumns,
  type CatalogFormat,
  ensureShippedFilters,
  expandInputs,
  FilterSandboxPool,
  GwMatcher,
  importCatalog,
  ingestFiles,
  ingestNotice,
  Level2Stage,
  missingSandboxPrerequisites,
  parseIgwnNotice,
  readCatalogRows,
} from '@antares/pipeline';

import { SHARED_DATA, startTestServer, type TestServer } from '../testing/test-server.ts';

// The server the published antares-client is tested against: real ZTF and Rubin packets, real catalogs,
// real gravitational-wave notices, a small demo survey observed in the nights after one of those events
// (so that some of its loci are associated with it) and placed partly on the catalogs' galaxies and stars
// (so that they have matches), and the shipped filters run over it all as ingestion runs them (tags).
// The Python suite computes what it expects from these same files, never from our API.

/** Real packets the Python side can decode too (uncompressed Avro: Debian's python3-avro has no snappy). */
const REAL_ZTF = ['ztf-avro-alert/samples', 'fink-broker/ztf_v3.3_20200101', 'fink-client/ztf_v3.3', 'skyportal/ztf_alerts'];
const REAL_RUBIN = ['fink-broker/rubin_v9.0_fink_subset', 'fink-broker/rubin_v7.4_fink'];
/** S240116o's 90% region covers 3,083 deg², so a few dozen demo objects fall inside it. */
const GW_FOR_DEMO = 'fink-broker/gcn_alerts/S240116o_raw_event_extracted_from_fake_gw_gcn.json';
/** MS260605l comes twice: its preliminary notice, then its retraction (two versions of one superevent). */
const GW_NOTICES = [
  GW_FOR_DEMO,
  'fink-mm/lvk/MS230518e_INITIAL_mock.json',
  'skyportal/gw/igwn_gwalert_preliminary.json',
  'skyportal/gw/igwn_gwalert_retraction.json',
];

export interface CatalogFact {
  name: string;
  file: string;
  format: CatalogFormat;
  columns: CatalogColumns;
}

/** What the Python suite is told: where the data came from, and what only the database knows. */
export interface CompatFacts {
  shared_data: string;
  ztf_dirs: string[];
  rubin_dirs: string[];
  demo_dir: string;
  catalogs: CatalogFact[];
  gw_notices: string[];
  /** Whether the shipped filters ran (they need the filter sandbox). */
  level2: boolean;
  level2_missing: string[];
  /** Tag -> number of loci carrying it, read from every locus row. */
  tags: Record<string, number>;
  locus_count: number;
}

export interface CompatServer {
  server: TestServer;
  facts: CompatFacts;
  factsFile: string;
  close(): Promise<void>;
}

const CATALOGS: CatalogFact[] = [
  // Named extended objects: a match circle of half the major axis.
  {
    name: 'openngc',
    file: 'catalogs/kstars-data/OpenNGC_v20210306_from_kstars.csv',
    format: 'csv',
    columns: {
      raCol: 'ra_deg',
      decCol: 'dec_deg',
      idCol: 'catalog_identifier',
      nameCol: 'name',
      diameterCol: 'major_axis_arcmin',
      radiusUnit: 'arcmin',
    },
  },
  // Point sources with no name column (the built-in Hipparcos catalog is like this): object_name is absent.
  { name: 'hipparcos', file: 'catalogs/d3-celestial/stars.6.json', format: 'json', columns: { idCol: 'id' } },
];

export async function startCompatServer(): Promise<CompatServer> {
  const server = await startTestServer();
  const work = mkdtempSync(path.join(os.tmpdir(), 'antares-client-compat-'));
  const pool = await openLevel2Pool(server);
  try {
    const { repos } = server;
    for (const catalog of CATALOGS) {
      await importCatalog(repos, path.join(SHARED_DATA, catalog.file), { name: catalog.name, format: catalog.format, ...catalog.columns });
    }
    for (const file of GW_NOTICES) await ingestNotice(repos, parseIgwnNotice(readFileSync(path.join(SHARED_DATA, file), 'utf8')));

    const level2 = pool ? new Level2Stage(repos, pool.pool) : undefined;
    if (level2) {
      await ensureShippedFilters(repos);
      await level2.refresh();
    }
    const real = expandInputs([...REAL_ZTF, ...REAL_RUBIN].map((dir) => path.join(SHARED_DATA, dir)));
    await ingestFiles(repos, real, { gw: new GwMatcher(), level2 });

    const demoDir = path.join(work, 'demo');
    const { simulateSurvey } = await import('@antares/pipeline/simulate');
    await simulateSurvey({
      objects: 240,
      nights: 4,
      seed: 2026,
      outDir: demoDir,
      startMjd: demoStartMjd(),
      anchors: await anchors(server),
    });
    await ingestFiles(repos, expandInputs([demoDir]), { gw: new GwMatcher(), level2 });

    const loci = await repos.loci.newestForFilters(1_000_000, 0);
    const tags: Record<string, number> = {};
    for (const locus of loci) for (const tag of locus.tags) tags[tag] = (tags[tag] ?? 0) + 1;
    const facts: CompatFacts = {
      shared_data: SHARED_DATA,
      ztf_dirs: REAL_ZTF.map((dir) => path.join(SHARED_DATA, dir)),
      rubin_dirs: REAL_RUBIN.map((dir) => path.join(SHARED_DATA, dir)),
      demo_dir: demoDir,
      catalogs: CATALOGS.map((c) => ({ ...c, file: path.join(SHARED_DATA, c.file) })),
      gw_notices: GW_NOTICES.map((file) => path.join(SHARED_DATA, file)),
      level2: level2 !== undefined,
      level2_missing: pool ? [] : missingSandboxPrerequisites(server.config.filterLimits.python),
      tags,
      locus_count: loci.length,
    };
    const factsFile = path.join(work, 'facts.json');
    writeFileSync(factsFile, JSON.stringify(facts, null, 1));
    return {
      server,
      facts,
      factsFile,
      async close() {
        await pool?.close();
        await server.close();
        rmSync(work, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await pool?.close();
    await server.close();
    rmSync(work, { recursive: true, force: true });
    throw error;
  }
}

/** The filter sandbox's pool when this machine has one (else no tags: the suite says so). */
async function openLevel2Pool(server: TestServer): Promise<{ pool: FilterSandboxPool; close(): Promise<void> } | undefined> {
  if (missingSandboxPrerequisites(server.config.filterLimits.python).length > 0) return undefined;
  const pool = new FilterSandboxPool({ ...server.config.filterLimits, maxWorkers: 2, slotOffset: 800 });
  return { pool, close: () => pool.close() };
}

/** The first night after S240116o's event time. */
function demoStartMjd(): number {
  const notice = parseIgwnNotice(readFileSync(path.join(SHARED_DATA, GW_FOR_DEMO), 'utf8'));
  return Math.ceil(Date.parse(notice.event_datetime!) / 86_400_000 + 40_587);
}

/** Galaxies of a few arcminutes and stars of the catalogs above, in the sky the simulated ZTF sees. */
async function anchors(server: TestServer) {
  const ngc = CATALOGS[0];
  const galaxies = readCatalogRows(path.join(SHARED_DATA, ngc.file), ngc.format)
    .map((row) => row.values)
    .filter(
      (v) =>
        v.type_name === 'galaxy' &&
        Number(v.major_axis_arcmin) >= 1 &&
        Number(v.major_axis_arcmin) <= 6 &&
        Number(v.dec_deg) > -25 &&
        Number(v.dec_deg) < 85,
    )
    .slice(0, 40)
    .map((v) => ({ ra: Number(v.ra_deg), dec: Number(v.dec_deg), radiusDeg: Number(v.major_axis_arcmin) / 120 }));
  const stars = await server.repos.catalogs.someObjects('hipparcos', 40);
  return { galaxies, stars: stars.map((s) => ({ ra: s.ra, dec: s.dec })) };
}
