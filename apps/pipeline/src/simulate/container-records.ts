// The records of an Avro container file as their bytes, with what writing them again into another
// container needs (the writer schema as written, the sync marker): for benchmarks that deal a night's
// packets out between files without decoding and encoding them again.
import avro from 'avsc';

export interface ContainerRecords {
  schemaText: string;
  sync: Buffer;
  records: Buffer[];
}

export function containerRecords(file: string): Promise<ContainerRecords> {
  return new Promise((resolve, reject) => {
    let schemaText = '';
    let sync: Buffer = Buffer.alloc(16);
    const records: Buffer[] = [];
    // noDecode: the decoder only finds each record's end (by the writer schema) and hands its bytes over.
    avro
      .createFileDecoder(file, { noDecode: true })
      .on('metadata', (_type: unknown, _codec: unknown, header: { meta: Record<string, Buffer>; sync: Buffer }) => {
        schemaText = header.meta['avro.schema'].toString();
        sync = header.sync;
      })
      .on('data', (record: Buffer) => records.push(record))
      .on('error', reject)
      .on('end', () => resolve({ schemaText, sync, records }));
  });
}
