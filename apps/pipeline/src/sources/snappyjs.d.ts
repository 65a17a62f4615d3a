// snappyjs ships no type declarations. The decoder uses our own snappy.ts (faster); snappyjs
// stays as the reference implementation in snappy.test.ts. CommonJS: default import = module.exports.
declare module 'snappyjs' {
  const snappy: {
    uncompress<T extends Uint8Array | ArrayBuffer>(compressed: T, maxLength?: number): T;
    compress<T extends Uint8Array | ArrayBuffer>(uncompressed: T): T;
  };
  export default snappy;
}
