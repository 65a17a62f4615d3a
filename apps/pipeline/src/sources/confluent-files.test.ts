import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { DATA, RUBIN_FILES, type SchemaRegistryServer, startSchemaRegistry } from '../drivers/recorded-stream.ts';
import { confluentRecords, writeConfluentFiles } from '../testing/confluent-files.ts';
import { decodeAvroFile, type DecodedRecord, fullHistory } from './alert-avro.ts';
import { notShippedReason, rubinSchemaId, type RubinSchemaVersion } from './rubin-schemas.ts';
import { alertSchemaSource } from './schema-sources.ts';

// Alert files holding one Rubin alert as Rubin's Kafka stream sends it (Confluent's wire format: a zero
// byte, the schema id, the bare record), read with the Rubin schemas we ship when no registry is
// configured. The alerts are lsst/alert_packet's own samples, written with each published schema.
const sample = (version: RubinSchemaVersion) =>
  path.join(DATA, `lsst-alert_packet/schema/${version.split('.')[0]}/0/sample_data/fakeAlert.avro`);

let dir: string;
let registry: SchemaRegistryServer;
beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'antares-confluent-files-'));
  registry = await startSchemaRegistry();
});
afterAll(async () => {
  await registry?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function all(records: AsyncIterable<DecodedRecord>): Promise<DecodedRecord[]> {
  const out: DecodedRecord[] = [];
  for await (const record of records) out.push(record);
  return out;
}

/** A decoded packet without its cutouts, and the cutouts as bytes (a deep equality over them is slow). */
function parts(record: DecodedRecord) {
  if (!('packet' in record) || record.packet.survey !== 'lsst') throw new Error(`not a Rubin packet: ${JSON.stringify(record)}`);
  // History items decoded in full: until then they hold their reader, with the writer schema's doc strings.
  const { cutouts, ...rest } = fullHistory(record.packet);
  return { rest, cutouts: Object.entries(cutouts).map(([kind, bytes]) => [kind, Buffer.from(bytes as Uint8Array).toString('base64')]) };
}

describe('an alert file holding one Confluent-framed Rubin record', () => {
  it.each(['9.0', '10.0', '11.0'] as const)(
    "reads lsst/alert_packet's %s sample framed as Rubin's stream sends it, with no schema registry",
    async (version) => {
      const fromContainer = await all(decodeAvroFile(sample(version)));
      expect(fromContainer).toHaveLength(1);
      const [plain] = await writeConfluentFiles([sample(version)], rubinSchemaId(version), mkdtempSync(path.join(dir, 'plain-')));
      const [gzipped] = await writeConfluentFiles([sample(version)], rubinSchemaId(version), mkdtempSync(path.join(dir, 'gz-')), true);
      for (const file of [plain, gzipped]) {
        const framed = await all(decodeAvroFile(file));
        expect(framed).toHaveLength(1);
        expect(parts(framed[0])).toEqual(parts(fromContainer[0]));
        expect('packet' in framed[0] && framed[0].packet.survey === 'lsst' && framed[0].packet.schemaVersion).toBe(version);
      }
    },
  );

  it('names a schema id it does not ship, and the setting that reads it', async () => {
    const file = path.join(dir, 'v7.avro');
    writeFileSync(file, (await confluentRecords(sample('9.0'), 701))[0]);
    expect(await all(decodeAvroFile(file))).toEqual([{ file, index: -1, error: notShippedReason(701) }]);
    expect(notShippedReason(701)).toBe(
      'Confluent-framed record (schema id 701): not one of the Rubin alert schemas ANTARES ships (900 = 9.0, 1000 = 10.0, 1100 = 11.0), ' +
        'and no schema registry is configured (ANTARES_SCHEMA_REGISTRY_URL)',
    );
  });

  it("takes a configured registry's schema for every id, its ids being its own", async () => {
    // Fink's files hold Rubin 9.0 alerts rewritten by Spark (every field nullable): the loopback registry
    // serves that schema under id 900, which the shipped 9.0 cannot read them with.
    const [file] = await writeConfluentFiles([RUBIN_FILES[0]], 900, mkdtempSync(path.join(dir, 'fink-')));
    const [fromContainer] = await all(decodeAvroFile(RUBIN_FILES[0]));
    const [withRegistry] = await all(decodeAvroFile(file, alertSchemaSource(registry.url)));
    expect(parts(withRegistry)).toEqual(parts(fromContainer));
    const [withoutRegistry] = await all(decodeAvroFile(file));
    expect('error' in withoutRegistry && withoutRegistry.error).toMatch(/^cannot decode the message: /);
  });
});
