// The records of an Avro container file as their bytes, one at a time, with what writing them again
// into another container needs (the writer schema as written, the sync marker): for the packets' sizes,
// and for benchmarks that deal a night's packets out between files without decoding and encoding them.
import avro from 'avsc';

export interface ContainerHeader {
  schemaText: string;
  sync: Buffer;
}

/** Hands each record's bytes to `onRecord` as the file is read; resolves with the file's header at its end. */
export function readContainerRecords(file: string, onRecord: (record: Buffer) => void): Promise<ContainerHeader> {
  return new Promise((resolve, reject) => {
    let schemaText = '';
    let sync: Buffer = Buffer.alloc(16);
    // noDecode: the decoder only finds each record's end (by the writer schema) and hands its bytes over.
    avro
      .createFileDecoder(file, { noDecode: true })
      .on('metadata', (_type: unknown, _codec: unknown, header: { meta: Record<string, Buffer>; sync: Buffer }) => {
        schemaText = header.meta['avro.schema'].toString();
        sync = header.sync;
      })
      .on('data', onRecord)
      .on('error', reject)
      .on('end', () => resolve({ schemaText, sync }));
  });
}
