// Decode survey alert packets (ZTF, Rubin) from Avro Object Container Files (.avro, .avro.gz).
// Never throws for bad input: every problem becomes an error record (index -1 for the whole file),
// and a corrupt block does not stop the blocks after it.
import { readFile } from 'node:fs/promises';
import { gunzipSync } from 'node:zlib';

import type avro from 'avsc';

import { isConfluentFramed, isGzip } from '../bytes.ts';
import { decompressBlock, iterateBlocks, readContainerHeader } from './avro-container.ts';
import { buildType, SchemaCache } from './avro-schema.ts';
import { analyseLsstSchema, lazyHistorySchema, type LsstShape, toLsstPacket } from './lsst-packet.ts';
import { notShippedReason, shippedRubinSchemaText } from './rubin-schemas.ts';
import { type SchemaSource, SHIPPED_RUBIN_SCHEMAS } from './schema-sources.ts';
import { analyseSchema, toZtfPacket, type ZtfShape } from './ztf-packet.ts';

export { fullRecord } from './lazy-records.ts';
export type { LsstCutouts, LsstPacket } from './lsst-packet.ts';
export { fullHistory } from './lsst-packet.ts';
export type { ZtfCutouts, ZtfPacket } from './ztf-packet.ts';
import type { LsstPacket } from './lsst-packet.ts';
import type { ZtfPacket } from './ztf-packet.ts';

/** A decoded alert packet of any survey we ingest; `survey` tells which. */
export type AlertPacket = ZtfPacket | LsstPacket;

export type DecodedRecord = { file: string; index: number; packet: AlertPacket } | { file: string; index: number; error: string };

type Shape = { survey: 'ztf'; ztf: ZtfShape } | { survey: 'lsst'; lsst: LsstShape };
type Compiled = { type: avro.Type; shape: Shape } | { reason: string };

// Shared across files: a night of ZTF alerts repeats the same few writer schemas, and building an
// avsc Type (code generation per record type) costs far more than decoding one alert.
const compiledSchemas = new SchemaCache<Compiled>(64);

function compile(schemaText: string): Compiled {
  return compiledSchemas.get(schemaText, () => {
    let json: unknown;
    try {
      json = JSON.parse(schemaText);
    } catch (err) {
      return { reason: `writer schema is not valid JSON (${(err as Error).message})` };
    }
    const shape = shapeOf(json);
    if ('reason' in shape) return shape; // skip building types we will not use
    try {
      return { type: buildType(shape.survey === 'lsst' ? lazyHistorySchema(json) : json), shape };
    } catch (err) {
      return { reason: `cannot parse writer schema (${(err as Error).message})` };
    }
  });
}

function shapeOf(schema: unknown): Shape | { reason: string } {
  const lsst = analyseLsstSchema(schema);
  if (lsst) return { survey: 'lsst', lsst };
  const ztf = analyseSchema(schema);
  return 'reason' in ztf
    ? { reason: ztf.reason.replace('not a ZTF alert packet', 'not a ZTF or Rubin alert packet') }
    : { survey: 'ztf', ztf };
}

/** Maps a decoded record to the packet of its survey; throws with a reason if mandatory parts are missing. */
export function toPacket(rec: Record<string, unknown>, shape: Shape): AlertPacket {
  return shape.survey === 'lsst' ? toLsstPacket(rec, shape.lsst) : toZtfPacket(rec, shape.ztf);
}

/**
 * Decode every record of an in-memory Avro container (optionally gzipped).
 * Synchronous generator: usable with for...of and for await...of.
 */
export function* decodeAvroBuffer(bytes: Uint8Array, fileLabel: string): Generator<DecodedRecord> {
  const file = fileLabel;
  let buf = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let header;
  try {
    if (isGzip(buf)) buf = gunzipSync(buf);
    header = readContainerHeader(buf);
  } catch (err) {
    yield { file, index: -1, error: (err as Error).message };
    return;
  }
  const compiled = compile(header.schema);
  let index = 0;
  for (const block of iterateBlocks(buf, header)) {
    const where = `block at byte ${block.offset}`;
    if (!block.ok) {
      // Framing is broken, so the record count may be garbage: report once and move on.
      yield { file, index, error: `corrupt ${where}: ${block.error}` };
      continue;
    }
    if ('reason' in compiled) {
      // One error per record keeps counts comparable with per-record indexes, without decoding.
      for (let i = 0; i < block.count; i++) yield { file, index: index++, error: compiled.reason };
      continue;
    }
    let data: Buffer;
    try {
      data = decompressBlock(header.codec, block.data);
    } catch (err) {
      yield { file, index, error: `${where}: ${(err as Error).message} (${block.count} records skipped)` };
      index += block.count;
      continue;
    }
    let pos = 0;
    for (let i = 0; i < block.count; i++, index++) {
      let rec: Record<string, unknown>;
      try {
        const res = compiled.type.decode(data, pos);
        if (res.offset < 0) throw new Error('record runs past the end of its block');
        rec = res.value as Record<string, unknown>;
        pos = res.offset;
      } catch (err) {
        // Record boundaries after a failed record are unknown: skip the rest of this block.
        const skipped = block.count - i - 1;
        yield {
          file,
          index,
          error:
            `cannot decode record ${i} of ${where}: ${(err as Error).message}` +
            (skipped ? ` (${skipped} following records of the block skipped)` : ''),
        };
        index += block.count - i;
        break;
      }
      let out: DecodedRecord;
      try {
        out = { file, index, packet: toPacket(rec, compiled.shape) };
      } catch (err) {
        out = { file, index, error: (err as Error).message };
      }
      yield out;
    }
  }
}

/**
 * Why a file's bytes cannot be alert packets (not an Avro container, or another survey's schema), or
 * null when its header looks right. Reads the header only: the records are decoded at ingestion. A
 * Confluent-framed record passes when its schema id is a shipped Rubin schema's, or when the server has
 * a schema registry to ask (`schemaRegistry`).
 */
export function alertFileProblem(bytes: Uint8Array, schemaRegistry = false): string | null {
  let buf = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  try {
    if (isGzip(buf)) buf = gunzipSync(buf);
    if (isConfluentFramed(buf)) {
      const id = buf.readUInt32BE(1);
      return schemaRegistry || shippedRubinSchemaText(id) !== undefined ? null : notShippedReason(id);
    }
    const compiled = compile(readContainerHeader(buf).schema);
    return 'reason' in compiled ? compiled.reason : null;
  } catch (err) {
    return `not an Avro object container file: ${(err as Error).message}`;
  }
}

/**
 * Decode one record without a container around it (a Kafka message body in the Confluent wire format,
 * whose writer schema comes from a schema registry).
 */
export function decodeSchemaless(body: Uint8Array, schemaText: string, label: string): DecodedRecord {
  const compiled = compile(schemaText);
  if ('reason' in compiled) return { file: label, index: 0, error: compiled.reason };
  const buf = Buffer.isBuffer(body) ? body : Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  try {
    const res = compiled.type.decode(buf, 0);
    if (res.offset < 0) throw new Error('record runs past the end of the message');
    // A message holds one record: bytes left over mean it was written with another schema.
    if (res.offset !== buf.length) throw new Error(`the record ends ${buf.length - res.offset} bytes before the message does`);
    return { file: label, index: 0, packet: toPacket(res.value as Record<string, unknown>, compiled.shape) };
  } catch (err) {
    return { file: label, index: 0, error: `cannot decode the message: ${(err as Error).message}` };
  }
}

/**
 * Decode a .avro or .avro.gz file: an Avro container of any number of packets, or one Confluent-framed
 * record as Rubin's Kafka stream sends it (its writer schema from `schemas`). An unreadable file yields a
 * single error record (index -1).
 */
export async function* decodeAvroFile(path: string, schemas: SchemaSource = SHIPPED_RUBIN_SCHEMAS): AsyncGenerator<DecodedRecord> {
  let bytes: Buffer;
  try {
    bytes = await readFile(path);
  } catch (err) {
    yield { file: path, index: -1, error: `cannot read file: ${(err as Error).message}` };
    return;
  }
  yield* decodeAlertBytes(bytes, path, schemas);
}

/** The bytes of a file or a message: gunzipped if need be, then a container's records one by one, or the framed record. */
export async function* decodeAlertBytes(value: Buffer, label: string, schemas: SchemaSource): AsyncGenerator<DecodedRecord> {
  let bytes = value;
  if (isGzip(bytes)) {
    try {
      bytes = gunzipSync(bytes);
    } catch (err) {
      yield { file: label, index: -1, error: (err as Error).message };
      return;
    }
  }
  if (!isConfluentFramed(bytes)) {
    yield* decodeAvroBuffer(bytes, label);
    return;
  }
  let schemaText: string;
  try {
    schemaText = await schemas.schemaText(bytes.readUInt32BE(1));
  } catch (error) {
    yield { file: label, index: -1, error: (error as Error).message };
    return;
  }
  yield decodeSchemaless(bytes.subarray(5), schemaText, label);
}
