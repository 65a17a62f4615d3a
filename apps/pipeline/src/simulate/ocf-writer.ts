// Minimal Avro Object Container File writer for records that are already Avro-encoded (see
// encoder.ts). We write the container ourselves rather than with avsc's BlockEncoder because
// that re-derives the header schema from the parsed Type (dropping the "version" attributes real
// ZTF headers carry) and draws a random sync marker, while we need the exact schema text in the
// header and a seeded sync marker for byte-identical output. Layout: "Obj\x01", metadata
// map<bytes>, 16-byte sync, then blocks of (long count, long byteSize, data, sync).
import { type FileHandle, open } from 'node:fs/promises';
import { deflateRawSync } from 'node:zlib';

import avro from 'avsc';

import { AVRO_CONTAINER_MAGIC } from '../bytes.ts';

export type OcfCodec = 'null' | 'deflate';

const HEADER_TYPE = avro.Type.forSchema({
  type: 'record',
  name: 'org.apache.avro.file.Header',
  fields: [
    { name: 'magic', type: { type: 'fixed', name: 'Magic', size: 4 } },
    { name: 'meta', type: { type: 'map', values: 'bytes' } },
    { name: 'sync', type: { type: 'fixed', name: 'Sync', size: 16 } },
  ],
});
const LONG = avro.Type.forSchema('long');
/** Uncompressed bytes per block before flushing (avsc's default block size too). */
const BLOCK_TARGET = 64 * 1024;

export class OcfWriter {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private count = 0;
  private constructor(
    private readonly file: FileHandle,
    private readonly codec: OcfCodec,
    private readonly sync: Buffer,
  ) {}

  /** Create (truncate) `path` and write the header. `schemaJson` is stored verbatim as the writer schema. */
  static async create(path: string, schemaJson: string, sync: Buffer, codec: OcfCodec): Promise<OcfWriter> {
    if (sync.length !== 16) throw new Error('OCF sync marker must be 16 bytes');
    const file = await open(path, 'w');
    const header = HEADER_TYPE.toBuffer({
      magic: Buffer.from(AVRO_CONTAINER_MAGIC),
      meta: { 'avro.schema': Buffer.from(schemaJson), 'avro.codec': Buffer.from(codec) },
      sync,
    });
    await file.write(header);
    return new OcfWriter(file, codec, sync);
  }

  /** Append one record, already Avro-encoded with the schema given to create(). */
  async append(buf: Buffer): Promise<void> {
    this.pending.push(buf);
    this.pendingBytes += buf.length;
    this.count++;
    if (this.pendingBytes >= BLOCK_TARGET) await this.flush();
  }

  private async flush(): Promise<void> {
    if (this.count === 0) return;
    const raw = Buffer.concat(this.pending, this.pendingBytes);
    // Level 1: most of each packet is already-gzipped cutouts, so harder deflating buys little.
    const data = this.codec === 'deflate' ? deflateRawSync(raw, { level: 1 }) : raw;
    await this.file.write(Buffer.concat([LONG.toBuffer(this.count), LONG.toBuffer(data.length), data, this.sync]));
    this.pending = [];
    this.pendingBytes = 0;
    this.count = 0;
  }

  async close(): Promise<void> {
    try {
      await this.flush();
    } finally {
      await this.file.close();
    }
  }
}
