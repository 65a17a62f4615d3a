import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { createTestDatabase, openDatabase, type TestDatabase } from '@antares/db';
import { expandInputs, ingestFiles } from '@antares/pipeline';
import { simulateSurvey } from '@antares/pipeline/simulate';
import { expectSameOutcome, postgresServerFor, SERVER_URL, writeConfluentFiles } from '@antares/pipeline/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// `antares ingest` as an operator runs it, on Rubin alerts saved one per file as Rubin's Kafka stream
// sends them (Confluent's wire format, schema id 1100 for 11.0), with a year of history each and no
// schema registry: what it stores equals what ingesting the same alerts from Avro containers stores.
// Two processes ingesting alternate files at once, as two workers, need a PostgreSQL server whatever the
// pass (DATABASE_URL, else the local one).
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const PASS_SERVER_URL = process.env.DATABASE_URL || undefined;
const reachable = await postgresServerFor('the two-process ingest test');

let scratch: string;
let containers: string[];
let framed: string[];
let fromContainers: TestDatabase;

beforeAll(async () => {
  scratch = mkdtempSync(path.join(os.tmpdir(), 'antares-ingest-cli-'));
  const survey = path.join(scratch, 'survey');
  await simulateSurvey({
    objects: 160,
    nights: 5,
    seed: 11,
    outDir: survey,
    processes: 1,
    lsstHistoryDays: 365,
    lsstSchemaVersion: '11.0',
  });
  containers = expandInputs([survey]).filter((file) => path.basename(file).startsWith('lsst_'));
  mkdirSync(path.join(scratch, 'framed'));
  framed = await writeConfluentFiles(containers, 1100, path.join(scratch, 'framed'));
  fromContainers = await createTestDatabase(PASS_SERVER_URL);
  await ingestFiles(fromContainers.repos, containers);
}, 300_000);
afterAll(async () => {
  await fromContainers?.close();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

/** `antares ingest FILES...` in a process of its own, into `databaseUrl` (without one, the embedded database under `dataDir`). */
function ingest(files: string[], dataDir: string, databaseUrl?: string): Promise<{ status: number | null; output: string }> {
  const env = { ...process.env, ANTARES_DATA_DIR: dataDir, DATABASE_URL: databaseUrl ?? '', ANTARES_SCHEMA_REGISTRY_URL: '' };
  const child = spawn('npx', ['tsx', 'apps/cli/src/main.ts', 'ingest', ...files], { cwd: ROOT, env });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve) => child.on('close', (status) => resolve({ status, output })));
}

const count = (output: string, line: string) => Number(new RegExp(`^\\s*${line}:\\s+(\\d+)`, 'm').exec(output)?.[1]);

describe('antares ingest of Confluent-framed Rubin alerts', () => {
  it('decodes every file with the shipped 11.0 schema and stores what the same alerts in containers store', async () => {
    expect(framed.length).toBeGreaterThan(40);
    const dataDir = mkdtempSync(path.join(scratch, 'one-'));
    const database = PASS_SERVER_URL ? await createTestDatabase(PASS_SERVER_URL) : undefined;
    const run = await ingest([path.join(scratch, 'framed')], dataDir, database?.url);
    // Without a server, the process stored into its own embedded database.
    const stored = database ?? (await openDatabase({ pgliteDir: path.join(dataDir, 'db') }));
    try {
      expect(run.status, run.output).toBe(0);
      expect(count(run.output, 'decoded')).toBe(framed.length);
      expect(count(run.output, 'undecodable')).toBe(0);
      expect(count(run.output, 'stored')).toBeGreaterThan(0);
      await expectSameOutcome(fromContainers, stored);
    } finally {
      await stored.close();
    }
  }, 300_000);

  it.skipIf(!reachable)(
    'stores the same with two processes ingesting alternate files at once, on a PostgreSQL server',
    async () => {
      const database = await createTestDatabase(SERVER_URL);
      try {
        const shares = [framed.filter((_, i) => i % 2 === 0), framed.filter((_, i) => i % 2 === 1)];
        const runs = await Promise.all(
          shares.map((files, i) => ingest(files, mkdtempSync(path.join(scratch, `worker${i}-`)), database.url)),
        );
        for (const run of runs) expect(run.status, run.output).toBe(0);
        expect(runs.reduce((sum, run) => sum + count(run.output, 'decoded'), 0)).toBe(framed.length);
        await expectSameOutcome(fromContainers, database);
      } finally {
        await database.close();
      }
    },
    300_000,
  );
});
