// The ZTF alert Avro schema, version 4.02 (ZwickyTransientFacility/ztf-avro-alert, schema/4.02),
// which the simulator writes. Field order, types and nullability must match the published
// schema exactly: Avro binary data is only readable with the schema it was written with, and
// consumers match on these names. Field docs are omitted to keep this file short; see
// docs/schema_v4.02.md in the ZTF repository for what each field means.
import avro from 'avsc';

export const ZTF_SCHEMA_VERSION = '4.02';

// Compact field notation: "name type" for a required field, "name type?" for ["null", type] with
// default null, "name type|" for ["null", type] without a default (prv_candidate uses both).
// The fields every candidate and prv_candidate starts with.
const OBSERVATION = [
  'jd double',
  'fid int',
  'pid long',
  'diffmaglim float?',
  'pdiffimfilename string?',
  'programpi string?',
  'programid int',
];

// A detection's own fields, in the order both records have them.
const DETECTION = [
  'candid long',
  'isdiffpos string',
  'tblid long?',
  'nid int?',
  'rcid int?',
  'field int?',
  'xpos float?',
  'ypos float?',
  'ra double',
  'dec double',
  'magpsf float',
  'sigmapsf float',
  'chipsf float?',
  'magap float?',
  'sigmagap float?',
  'distnr float?',
  'magnr float?',
  'sigmagnr float?',
  'chinr float?',
  'sharpnr float?',
  'sky float?',
  'magdiff float?',
  'fwhm float?',
  'classtar float?',
  'mindtoedge float?',
  'magfromlim float?',
  'seeratio float?',
  'aimage float?',
  'bimage float?',
  'aimagerat float?',
  'bimagerat float?',
  'elong float?',
  'nneg int?',
  'nbad int?',
  'rb float?',
  'ssdistnr float?',
  'ssmagnr float?',
  'ssnamenr string?',
  'sumrat float?',
  'magapbig float?',
  'sigmagapbig float?',
  'ranr double',
  'decnr double',
];

const CANDIDATE = [
  ...OBSERVATION,
  ...DETECTION,
  'sgmag1 float?',
  'srmag1 float?',
  'simag1 float?',
  'szmag1 float?',
  'sgscore1 float?',
  'distpsnr1 float?',
  'ndethist int',
  'ncovhist int',
  'jdstarthist double?',
  'jdendhist double?',
  'scorr double?',
  'tooflag int?',
  'objectidps1 long?',
  'objectidps2 long?',
  'sgmag2 float?',
  'srmag2 float?',
  'simag2 float?',
  'szmag2 float?',
  'sgscore2 float?',
  'distpsnr2 float?',
  'objectidps3 long?',
  'sgmag3 float?',
  'srmag3 float?',
  'simag3 float?',
  'szmag3 float?',
  'sgscore3 float?',
  'distpsnr3 float?',
  'nmtchps int',
  'rfid long',
  'jdstartref double',
  'jdendref double',
  'nframesref int',
  'rbversion string',
  'dsnrms float?',
  'ssnrms float?',
  'dsdiff float?',
  'magzpsci float?',
  'magzpsciunc float?',
  'magzpscirms float?',
  'nmatches int',
  'clrcoeff float?',
  'clrcounc float?',
  'zpclrcov float?',
  'zpmed float?',
  'clrmed float?',
  'clrrms float?',
  'neargaia float?',
  'neargaiabright float?',
  'maggaia float?',
  'maggaiabright float?',
  'exptime float?',
  'drb float?',
  'drbversion string',
];

// A prv_candidate is either an earlier detection (all fields set) or a non-detection (upper
// limit: candid, position and photometry null), hence the extra nullability.
const PRV_CANDIDATE = [
  ...OBSERVATION,
  ...DETECTION.map((spec) => (spec.endsWith('?') ? spec : `${spec}|`)),
  'scorr double?',
  'magzpsci float?',
  'magzpsciunc float?',
  'magzpscirms float?',
  'clrcoeff float?',
  'clrcounc float?',
  'rbversion string',
];

// Forced-photometry history, new in 4.x. The simulator leaves fp_hists null, but the field must
// be in the schema for the packets to be 4.02 packets.
const FP_HIST = [
  'field int?',
  'rcid int?',
  'fid int',
  'pid long',
  'rfid long',
  'sciinpseeing float?',
  'scibckgnd float?',
  'scisigpix float?',
  'magzpsci float?',
  'magzpsciunc float?',
  'magzpscirms float?',
  'clrcoeff float?',
  'clrcounc float?',
  'exptime float?',
  'adpctdif1 float?',
  'adpctdif2 float?',
  'diffmaglim float?',
  'programid int',
  'jd double',
  'forcediffimflux float?',
  'forcediffimfluxunc float?',
  'procstatus string?',
  'distnr float?',
  'ranr double',
  'decnr double',
  'magnr float?',
  'sigmagnr float?',
  'chinr float?',
  'sharpnr float?',
];

interface AvroField {
  name: string;
  type: string | string[];
  default?: null;
}

function expandFields(specs: string[]): AvroField[] {
  return specs.map((spec) => {
    const [name, t] = spec.split(' ');
    if (t.endsWith('?')) return { name, type: ['null', t.slice(0, -1)], default: null };
    if (t.endsWith('|')) return { name, type: ['null', t.slice(0, -1)] };
    return { name, type: t };
  });
}

const names = (specs: string[]) => specs.map((spec) => spec.split(' ')[0]);
/** Field names in schema order, for building records with all fields present. */
export const CANDIDATE_FIELDS = names(CANDIDATE);
export const PRV_CANDIDATE_FIELDS = names(PRV_CANDIDATE);

function record(name: string, specs: string[]) {
  return { type: 'record', name, namespace: 'ztf.alert', version: ZTF_SCHEMA_VERSION, fields: expandFields(specs) };
}

/** The full `ztf.alert` schema with its nested records defined inline (first use) and then by name. */
export const ZTF_ALERT_SCHEMA = {
  type: 'record',
  name: 'alert',
  namespace: 'ztf',
  doc: 'avro alert schema for ZTF (www.ztf.caltech.edu)',
  version: ZTF_SCHEMA_VERSION,
  fields: [
    { name: 'schemavsn', type: 'string' },
    { name: 'publisher', type: 'string' },
    { name: 'objectId', type: 'string' },
    { name: 'candid', type: 'long' },
    { name: 'candidate', type: record('candidate', CANDIDATE) },
    { name: 'prv_candidates', type: ['null', { type: 'array', items: record('prv_candidate', PRV_CANDIDATE) }], default: null },
    { name: 'fp_hists', type: ['null', { type: 'array', items: record('fp_hist', FP_HIST) }], default: null },
    { name: 'cutoutScience', type: ['null', record('cutout', ['fileName string', 'stampData bytes'])], default: null },
    { name: 'cutoutTemplate', type: ['null', 'ztf.alert.cutout'], default: null },
    { name: 'cutoutDifference', type: ['null', 'ztf.alert.cutout'], default: null },
  ],
} as const;

const LONG_MIN = -(1n << 63n);
const LONG_MAX = (1n << 63n) - 1n;
const scratch = Buffer.alloc(8);

function toBigInt(v: unknown): bigint {
  if (typeof v === 'bigint') return v;
  if (typeof v === 'number' && Number.isSafeInteger(v)) return BigInt(v);
  if (typeof v === 'string' && /^-?\d+$/.test(v)) return BigInt(v);
  throw new Error(`not a 64-bit integer: ${String(v)}`);
}

/**
 * Avro long as BigInt. avsc's default long rejects values above 2^53, and ZTF candids (~3e18)
 * and PS1 object ids (~1e17) are above it. Writes accept bigint or safe-integer numbers; reads
 * always return bigint.
 */
export const bigIntLongType = avro.types.LongType.__with({
  fromBuffer: (buf: Buffer) => buf.readBigInt64LE(),
  toBuffer: (n: bigint | number) => {
    // avsc packs these 8 bytes into its own buffer straight away, so one scratch buffer will do.
    scratch.writeBigInt64LE(typeof n === 'bigint' ? n : BigInt(n));
    return scratch;
  },
  fromJSON: (v: unknown) => toBigInt(v),
  toJSON: (n: bigint) => n.toString(),
  // avsc runs every value of a ["null", long] union through this check (nulls included), so it
  // must be cheap and must not throw.
  isValid: (n: unknown) => (typeof n === 'bigint' ? n >= LONG_MIN && n <= LONG_MAX : typeof n === 'number' && Number.isSafeInteger(n)),
  compare: (a: bigint, b: bigint) => (a < b ? -1 : a > b ? 1 : 0),
});

/** Parse any schema (e.g. a file's embedded writer schema) with BigInt longs. */
export function typeWithBigIntLongs(schema: unknown): avro.Type {
  return avro.Type.forSchema(schema as avro.Schema, { registry: { long: bigIntLongType } });
}

/** avsc Type for writing/reading simulated 4.02 packets. */
export function ztfAlertType(): avro.Type {
  return typeWithBigIntLongs(ZTF_ALERT_SCHEMA);
}
