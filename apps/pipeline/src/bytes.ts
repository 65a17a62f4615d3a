// The byte signatures that tell the pipeline's inputs apart (files, Kafka messages, uploads, cutouts):
// one place for the magic numbers, below every folder that reads bytes.

/** A gzip stream starts 0x1f 0x8b (ZTF cutouts, gzipped alert files and messages). */
const GZIP_MAGIC = Uint8Array.of(0x1f, 0x8b);
/** An Avro Object Container File starts "Obj" 1 (ZTF's alert files and Kafka messages). */
export const AVRO_CONTAINER_MAGIC = Uint8Array.of(0x4f, 0x62, 0x6a, 0x01);

/** Whether `bytes` begin with `magic`. */
export function startsWith(bytes: Uint8Array, magic: Uint8Array): boolean {
  if (bytes.length < magic.length) return false;
  for (let i = 0; i < magic.length; i++) if (bytes[i] !== magic[i]) return false;
  return true;
}

/** True if the bytes start with the gzip magic number (0x1f 0x8b). */
export function isGzip(bytes: Uint8Array): boolean {
  return startsWith(bytes, GZIP_MAGIC);
}

/** True if the bytes start as an Avro Object Container File does. */
export function isAvroContainer(bytes: Uint8Array): boolean {
  return startsWith(bytes, AVRO_CONTAINER_MAGIC);
}

/**
 * True if the bytes may be one record in Confluent's wire format (Rubin's Kafka messages): a zero byte,
 * a 4-byte schema id, then the record. An Avro container starts with "Obj", gzip with 0x1f.
 */
export function isConfluentFramed(bytes: Uint8Array): boolean {
  return bytes.length > 5 && bytes[0] === 0;
}
