import { once } from 'node:events';
import type { Writable } from 'node:stream';

import { type Kysely, sql } from 'kysely';
import type pg from 'pg';

import type { Database } from './schema.ts';

/** The parts of pg's connection a COPY FROM STDIN drives, which its type declarations leave out. */
interface CopyConnection {
  endCopyFrom(): void;
  sendCopyFail(message: string): void;
  stream: Writable;
}

/**
 * `COPY ... FROM STDIN` through the pg driver, as a submittable query (`client.query(copy)`; await
 * `copy.done`): pg has no COPY API of its own, and the repository depends on no COPY package. Chunks
 * are sent as the socket drains, so a multi-gigabyte load never sits in memory.
 */
export class CopyIn implements pg.Submittable {
  readonly done: Promise<number>;
  private resolve!: (rows: number) => void;
  private reject!: (error: Error) => void;
  private error: Error | undefined;
  private rows = 0;

  constructor(
    private readonly text: string,
    private readonly chunks: Iterable<string | Uint8Array>,
  ) {
    this.done = new Promise((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
  }

  submit(connection: pg.Connection): void {
    connection.query(this.text);
  }

  handleCopyInResponse(pgConnection: pg.Connection): void {
    const connection = pgConnection as unknown as CopyConnection;
    this.send(connection).catch((error: unknown) => {
      this.error = error instanceof Error ? error : new Error(String(error));
      connection.sendCopyFail(this.error.message);
    });
  }

  private async send(connection: CopyConnection): Promise<void> {
    const stream = connection.stream;
    // Corked, a message's header and bytes leave in one write, and so do small chunks (a row's fields
    // before its cutout, then the cutout) up to WRITE_BYTES: one system call, not one per chunk. As two
    // writes per message, the server spent a third more CPU on the same COPY (the Rubin benchmark's
    // first five nights: 2.9 s against 2.2 s). Uncorked before waiting for the socket to drain.
    let corked = 0;
    stream.cork();
    try {
      for (const chunk of this.chunks) {
        // An error reported by the server mid-copy (a duplicate key) ends it: stop producing. The server
        // still waits for the end of the copy before it answers again, so it is always sent.
        if (this.error) break;
        corked += writeCopyData(stream, typeof chunk === 'string' ? Buffer.from(chunk) : asBuffer(chunk));
        if (corked < WRITE_BYTES) continue;
        stream.uncork();
        corked = 0;
        if (stream.writableNeedDrain) await once(stream, 'drain');
        stream.cork();
      }
    } finally {
      stream.uncork();
    }
    if (this.error) connection.sendCopyFail(this.error.message);
    else connection.endCopyFrom();
  }

  handleCommandComplete(message: { text?: string }): void {
    this.rows = Number(/\d+$/.exec(message.text ?? '')?.[0] ?? 0);
  }

  handleError(error: Error): void {
    // pg stops counting this as its active query on an error, so no ReadyForQuery reaches it: settle now.
    // The copy is still ended (send) before the server answers the connection's next statement.
    this.error = error;
    this.reject(error);
  }

  handleReadyForQuery(): void {
    if (this.error) this.reject(this.error);
    else this.resolve(this.rows);
  }

  // Not sent during COPY FROM; pg calls them only for other statements.
  handleRowDescription(): void {}
  handleDataRow(): void {}
  handleEmptyQuery(): void {}
  handlePortalSuspended(): void {}
  handleCopyData(): void {}
}

/** Bytes of CopyData written to a corked socket before it is uncorked (CopyIn.send). */
const WRITE_BYTES = 1 << 20;

/**
 * A CopyData message ('d', its length, the bytes) written straight to the (corked) socket; returns the
 * bytes written. pg's own sendCopyFromChunk first copies every chunk into its growing message buffer
 * (0.3 s of a Rubin year's 100 MB of alert rows).
 */
function writeCopyData(stream: Writable, bytes: Buffer): number {
  if (!stream.writable) throw new Error('the database connection closed during COPY');
  const header = Buffer.allocUnsafe(5);
  header[0] = 0x64;
  header.writeInt32BE(bytes.length + 4, 1);
  stream.write(header);
  stream.write(bytes);
  return bytes.length + 5;
}

/**
 * COPY data written straight into buffers of about 1 MB, each taken when full: text as UTF-8, and for
 * the binary format, integers and bytes. Concatenating strings and encoding them afterwards flattened
 * and copied every row's text twice more (0.8 s of a Rubin year's rows, with the garbage it left);
 * binary rows were a few small buffers per field, concatenated again.
 */
export class CopyChunks {
  private buffer = Buffer.allocUnsafe(CHUNK_BYTES + CHUNK_SLACK);
  /** Where the bytes not taken yet start: a chunk taken is a view, and the next goes on after it. */
  private start = 0;
  private used = 0;

  text(text: string): void {
    // A UTF-16 code unit is at most 3 bytes of UTF-8: only a text that might not fit is measured.
    if (text.length * 3 > this.buffer.length - this.used) this.room(Buffer.byteLength(text));
    this.used += this.buffer.write(text, this.used);
  }

  /**
   * Binary format: a field's length, then its bytes; text as UTF-8. `versionByte`, when given, comes
   * first and is counted in the length (jsonb's format version).
   */
  field(value: string | Uint8Array, versionByte?: number): void {
    // Counted from `start`: making room may move the bytes not taken yet to a new buffer.
    const lengthAt = this.used - this.start;
    this.int32(0);
    if (versionByte !== undefined) {
      this.room(1);
      this.buffer[this.used++] = versionByte;
    }
    if (typeof value === 'string') this.text(value);
    else this.bytes(value);
    this.buffer.writeInt32BE(this.used - this.start - lengthAt - 4, this.start + lengthAt);
  }

  /** Binary format: a float8 field (its length, then the IEEE 754 double, big-endian). */
  float8(value: number): void {
    this.room(12);
    this.used = this.buffer.writeInt32BE(8, this.used);
    this.used = this.buffer.writeDoubleBE(value, this.used);
  }

  /** Binary format: a jsonb field, whose bytes are its format's version (1), then its JSON text. */
  jsonb(text: string): void {
    this.field(text, JSONB_VERSION);
  }

  bytes(value: Uint8Array): void {
    this.room(value.length);
    this.buffer.set(value, this.used);
    this.used += value.length;
  }

  int16(value: number): void {
    this.room(2);
    this.used = this.buffer.writeInt16BE(value, this.used);
  }

  int32(value: number): void {
    this.room(4);
    this.used = this.buffer.writeInt32BE(value, this.used);
  }

  get full(): boolean {
    return this.used - this.start >= CHUNK_BYTES;
  }

  get empty(): boolean {
    return this.used === this.start;
  }

  /**
   * The bytes written since the last take. The next ones go on after them in the same buffer, never
   * over them (the socket may still hold them), or to a new buffer once less than the slack is left.
   */
  take(): Buffer {
    const taken = this.buffer.subarray(this.start, this.used);
    if (this.buffer.length - this.used < CHUNK_SLACK) {
      this.buffer = Buffer.allocUnsafe(CHUNK_BYTES + CHUNK_SLACK);
      this.used = 0;
    }
    this.start = this.used;
    return taken;
  }

  /** Makes room for `bytes` more: a new buffer holding what was not taken yet, larger for a value larger than the slack. */
  private room(bytes: number): void {
    if (bytes <= this.buffer.length - this.used) return;
    const pending = this.used - this.start;
    const bigger = Buffer.allocUnsafe(Math.max(pending + bytes + CHUNK_SLACK, CHUNK_BYTES + CHUNK_SLACK));
    this.buffer.copy(bigger, 0, this.start, this.used);
    this.buffer = bigger;
    this.start = 0;
    this.used = pending;
  }
}

const CHUNK_BYTES = 1 << 20;
/** The only version of jsonb's binary format (PostgreSQL's jsonb_recv). */
const JSONB_VERSION = 1;
const CHUNK_SLACK = 256 << 10;

/**
 * Rows in COPY's binary format (`WITH (FORMAT binary)`), each field text (sent as UTF-8) or bytes, none
 * NULL, in chunks of about 1 MB. Bytes of PASSED_ON_BYTES or more (a cutout) are a chunk of their own,
 * the caller's memory as it is: copying every Rubin cutout into the chunks (three of about 9 KB a
 * packet) cost more than the rest of the COPY's preparation, mostly in the fresh memory it wrote
 * into. Smaller values are copied into the chunk (a bytea parameter was copied four times over by
 * the driver's growing buffers).
 */
export function* binaryCopyChunks(rows: Iterable<ReadonlyArray<string | Uint8Array>>): Generator<Buffer> {
  const chunks = new CopyChunks();
  chunks.bytes(BINARY_HEADER);
  for (const row of rows) {
    chunks.int16(row.length);
    for (const field of row) {
      if (typeof field === 'string' || field.length < PASSED_ON_BYTES) {
        chunks.field(field);
        continue;
      }
      chunks.int32(field.length);
      yield chunks.take();
      yield asBuffer(field);
    }
    if (chunks.full) yield chunks.take();
  }
  chunks.int16(-1); // the end of data
  yield chunks.take();
}

/** Bytes at least this long go to COPY as they are, not copied into a chunk (binaryCopyChunks). */
const PASSED_ON_BYTES = 4096;

/** Signature, flags and header extension length of COPY's binary format. */
export const BINARY_HEADER = Buffer.concat([Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1'), Buffer.alloc(8)]);

/** The bytes as a Buffer over the same memory: Buffer.from(bytes) would copy them (5 % of a Rubin batch's time for its cutouts). */
export function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/**
 * Runs a COPY in `db`'s transaction on a PostgreSQL server, inside a savepoint; the rows copied, or
 * undefined when it could not be used: not a connection of ours (embedded PGlite), or a row stored
 * already (COPY has no ON CONFLICT, so the savepoint undoes it and the caller INSERTs instead).
 */
export async function copyUnlessStored(
  db: Kysely<Database>,
  text: string,
  chunks: Iterable<string | Uint8Array>,
): Promise<number | undefined> {
  const client = await copyClientOf(db);
  if (!client) return undefined;
  await sql`SAVEPOINT copy_in`.execute(db);
  try {
    const copied = await client.query(new CopyIn(text, chunks)).done;
    await sql`RELEASE SAVEPOINT copy_in`.execute(db);
    return copied;
  } catch (error) {
    if ((error as { code?: unknown }).code !== UNIQUE_VIOLATION) throw error;
    await sql`ROLLBACK TO SAVEPOINT copy_in`.execute(db);
    return undefined;
  }
}

const UNIQUE_VIOLATION = '23505';

// The pg client behind each server connection, by backend pid: Kysely does not hand out the client of
// a transaction, and COPY needs it (AlertRepository.insertMany). Filled as pools connect (open.ts).
const clientsByPid = new Map<number, pg.ClientBase>();

/** Records every client `pool` connects, for copyClientOf. */
export function trackCopyClients(pool: pg.Pool): void {
  pool.on('connect', (client) => {
    const pid = (client as unknown as { processID: number }).processID;
    clientsByPid.set(pid, client);
    client.on('end', () => {
      if (clientsByPid.get(pid) === client) clientsByPid.delete(pid);
    });
  });
}

/**
 * The pg client running `db`'s statements (a transaction's connection), found by its backend pid and
 * checked by database name; undefined when it is not one of ours (embedded PGlite).
 */
export async function copyClientOf(db: Kysely<Database>): Promise<pg.ClientBase | undefined> {
  const { rows } = await sql<{ pid: number; database: string }>`SELECT pg_backend_pid() AS pid, current_database() AS database`.execute(db);
  const client = clientsByPid.get(rows[0].pid);
  const database = (client as unknown as { database?: string } | undefined)?.database;
  return client && database === rows[0].database ? client : undefined;
}
