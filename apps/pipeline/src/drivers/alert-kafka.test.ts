import { readFileSync } from 'node:fs';
import path from 'node:path';

import { createTestDatabase, type TestDatabase } from '@antares/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { decodeAvroFile } from '../sources/alert-avro.ts';
import { decodeAlertMessage } from '../sources/alert-message.ts';
import { SchemaRegistry } from '../sources/schema-sources.ts';
import { ingestAlertMessages, type KafkaMessage } from './alert-kafka.ts';
import { confluentMessage, RUBIN_FILES, type SchemaRegistryServer, startSchemaRegistry, ZTF_FILES } from './recorded-stream.ts';

// Kafka message handling on real packets: ZTF's one-alert containers and Rubin's Confluent wire format
// (zero byte, schema id, bare record) with the writer schema served by a schema registry on loopback.
// No broker runs here; kafkajs itself only hands these functions the message values.
const ZTF_FILE = ZTF_FILES.find((file) => file.endsWith('1661382530015060001_v3.5_ZTF18aaxjdyr.avro'))!;

let registry: SchemaRegistryServer;
let registryUrl: string;

beforeAll(async () => {
  registry = await startSchemaRegistry();
  registryUrl = registry.url;
});
afterAll(() => registry?.close());

describe('alert messages from Kafka', () => {
  it('decodes Rubin Confluent-framed records exactly as the same alerts in files', async () => {
    const schemas = new SchemaRegistry(registryUrl);
    for (const file of RUBIN_FILES) {
      const [fromKafka] = await decodeAlertMessage(confluentMessage(file).value, 'lsst-alerts[0]@1', schemas);
      const fromFile = [];
      for await (const r of decodeAvroFile(file)) fromFile.push(r);
      expect('packet' in fromKafka && 'packet' in fromFile[0]).toBe(true);
      if (!('packet' in fromKafka) || !('packet' in fromFile[0])) continue;
      // Cutouts compared as bytes (a deep equality over three 35 kB arrays per alert is slow).
      const { cutouts: kafkaCutouts, ...kafkaRest } = fromKafka.packet;
      const { cutouts: fileCutouts, ...fileRest } = fromFile[0].packet;
      expect(kafkaRest).toEqual(fileRest);
      for (const kind of ['science', 'template', 'difference'] as const) {
        expect(Buffer.from(kafkaCutouts[kind]!).equals(Buffer.from(fileCutouts[kind]!)), kind).toBe(true);
      }
      expect(fromKafka.packet.survey).toBe('lsst');
      expect(path.basename(file)).toMatch(new RegExp(`^${(fromKafka.packet as { diaSourceId: string }).diaSourceId}_`));
    }
    expect(registry.lookups()).toBe(1); // one registry lookup per schema id
  });

  it('decodes ZTF one-alert containers', async () => {
    const [record] = await decodeAlertMessage(readFileSync(ZTF_FILE), 'ztf[0]@7');
    expect('packet' in record && record.packet.survey === 'ztf' && record.packet.objectId).toBe('ZTF18aaxjdyr');
  });

  it('reports what it cannot decode, with the reason', async () => {
    const schemas = new SchemaRegistry(registryUrl);
    const unknown = confluentMessage(RUBIN_FILES[0], 901).value;
    expect(await decodeAlertMessage(unknown, 'm', schemas)).toEqual([
      { file: 'm', index: -1, error: 'schema registry answered 404 for schema id 901' },
    ]);
    expect(await decodeAlertMessage(unknown, 'm')).toEqual([
      {
        file: 'm',
        index: -1,
        error:
          'Confluent-framed record (schema id 901): not one of the Rubin alert schemas ANTARES ships (900 = 9.0, 1000 = 10.0, 1100 = 11.0), ' +
          'and no schema registry is configured (ANTARES_SCHEMA_REGISTRY_URL)',
      },
    ]);
    expect(await decodeAlertMessage(Buffer.from('hello'), 'm')).toEqual([
      { file: 'm', index: -1, error: 'neither an Avro container nor a Confluent-framed Avro record' },
    ]);
    expect(await decodeAlertMessage(null, 'm')).toEqual([{ file: 'm', index: -1, error: 'empty message' }]);
    const truncated = confluentMessage(RUBIN_FILES[0]).value.subarray(0, 300);
    const [record] = await decodeAlertMessage(truncated, 'm', schemas);
    expect('error' in record && record.error).toMatch(/^cannot decode the message: /);
  });
});

describe('ingesting a batch of Kafka messages', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => database?.close());

  it('stores the alerts of both surveys and counts the undecodable messages', async () => {
    const messages: KafkaMessage[] = [
      { topic: 'ztf', partition: 0, offset: '7', value: readFileSync(ZTF_FILE) },
      ...RUBIN_FILES.map((file, i) => ({ topic: 'lsst-alerts', partition: 1, offset: String(i), value: confluentMessage(file).value })),
      { topic: 'lsst-alerts', partition: 1, offset: '99', value: Buffer.from('not an alert') },
    ];
    const stats = await ingestAlertMessages(database.repos, messages, { schemas: new SchemaRegistry(registryUrl) });
    expect(stats.packetsRead).toBe(1 + RUBIN_FILES.length);
    expect(stats.undecodable).toEqual([
      { file: 'lsst-alerts[1]@99', index: -1, reason: 'neither an Avro container nor a Confluent-framed Avro record' },
    ]);
    const rejected = Object.values(stats.rejected).reduce((a, b) => a + b, 0);
    expect(stats.packetsStored + rejected).toBe(1 + RUBIN_FILES.length);
    const surveys = await database.db.selectFrom('alert').select('survey').distinct().execute();
    expect(surveys.map((s) => s.survey).sort()).toEqual(['lsst', 'ztf']);
    // Replaying the batch (a crash before the commit) stores nothing twice.
    const again = await ingestAlertMessages(database.repos, messages, { schemas: new SchemaRegistry(registryUrl) });
    expect(again.alertsStored).toBe(0);
    expect(again.duplicates).toBe(stats.packetsStored);
  });
});
