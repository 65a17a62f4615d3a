// The Rubin (LSST) alert Avro schema, version 10.0 (lsst/alert_packet, schema/10/0), which the simulator
// writes for its Rubin alerts, and 11.0 (schema/11/0: the same fields, ten counts no longer nullable). Field order, types and nullability follow the published schema exactly
// (Avro binary data is only readable with the schema it was written with); doc strings are left out.
// Cutouts are plain FITS bytes (not gzipped, unlike ZTF's).
import type avro from 'avsc';

import { varint } from './encoder.ts';
import { typeWithBigIntLongs } from './ztf-schema.ts';

export const LSST_SCHEMA_VERSION = '10.0';
export type LsstSchemaVersion = '10.0' | '11.0';
const namespaceOf = (version: LsstSchemaVersion) => `lsst.v${version.replace('.', '_')}`;

// Compact field notation as in ztf-schema.ts: "name type" for a required field, "name type?" for
// ["null", type] with default null. "ts" is a long holding a timestamp-micros logical type.
const DIA_SOURCE = [
  'diaSourceId long',
  'visit long',
  'detector int',
  'diaObjectId long?',
  'ssObjectId long?',
  'parentDiaSourceId long?',
  'midpointMjdTai double',
  'ra double',
  'raErr float?',
  'dec double',
  'decErr float?',
  'ra_dec_Cov float?',
  'x float',
  'xErr float?',
  'y float',
  'yErr float?',
  'centroid_flag boolean?',
  'apFlux float?',
  'apFluxErr float?',
  'apFlux_flag boolean?',
  'apFlux_flag_apertureTruncated boolean?',
  'isNegative boolean?',
  'snr float?',
  'psfFlux float?',
  'psfFluxErr float?',
  'psfLnL float?',
  'psfChi2 float?',
  'psfNdata int?',
  'psfFlux_flag boolean?',
  'psfFlux_flag_edge boolean?',
  'psfFlux_flag_noGoodPixels boolean?',
  'trailFlux float?',
  'trailFluxErr float?',
  'trailRa double?',
  'trailRaErr float?',
  'trailDec double?',
  'trailDecErr float?',
  'trailLength float?',
  'trailLengthErr float?',
  'trailAngle float?',
  'trailAngleErr float?',
  'trailChi2 float?',
  'trailNdata int?',
  'trail_flag_edge boolean?',
  'dipoleMeanFlux float?',
  'dipoleMeanFluxErr float?',
  'dipoleFluxDiff float?',
  'dipoleFluxDiffErr float?',
  'dipoleLength float?',
  'dipoleAngle float?',
  'dipoleChi2 float?',
  'dipoleNdata int?',
  'scienceFlux float?',
  'scienceFluxErr float?',
  'forced_PsfFlux_flag boolean?',
  'forced_PsfFlux_flag_edge boolean?',
  'forced_PsfFlux_flag_noGoodPixels boolean?',
  'templateFlux float?',
  'templateFluxErr float?',
  'ixx float?',
  'iyy float?',
  'ixy float?',
  'ixxPSF float?',
  'iyyPSF float?',
  'ixyPSF float?',
  'shape_flag boolean?',
  'shape_flag_no_pixels boolean?',
  'shape_flag_not_contained boolean?',
  'shape_flag_parent_source boolean?',
  'extendedness float?',
  'reliability float?',
  'band string?',
  'isDipole boolean?',
  'dipoleFitAttempted boolean?',
  'timeProcessedMjdTai double',
  'timeWithdrawnMjdTai double?',
  'bboxSize int?',
  'pixelFlags boolean?',
  'pixelFlags_bad boolean?',
  'pixelFlags_cr boolean?',
  'pixelFlags_crCenter boolean?',
  'pixelFlags_edge boolean?',
  'pixelFlags_nodata boolean?',
  'pixelFlags_nodataCenter boolean?',
  'pixelFlags_interpolated boolean?',
  'pixelFlags_interpolatedCenter boolean?',
  'pixelFlags_offimage boolean?',
  'pixelFlags_saturated boolean?',
  'pixelFlags_saturatedCenter boolean?',
  'pixelFlags_suspect boolean?',
  'pixelFlags_suspectCenter boolean?',
  'pixelFlags_streak boolean?',
  'pixelFlags_streakCenter boolean?',
  'pixelFlags_injected boolean?',
  'pixelFlags_injectedCenter boolean?',
  'pixelFlags_injected_template boolean?',
  'pixelFlags_injected_templateCenter boolean?',
  'glint_trail boolean?',
];

const DIA_FORCED_SOURCE = [
  'diaForcedSourceId long',
  'diaObjectId long',
  'ra double',
  'dec double',
  'visit long',
  'detector int',
  'psfFlux float?',
  'psfFluxErr float?',
  'midpointMjdTai double',
  'scienceFlux float?',
  'scienceFluxErr float?',
  'band string?',
  'timeProcessedMjdTai double',
  'timeWithdrawnMjdTai double?',
];

/** Per-band DiaObject aggregates, in the schema's order (each group runs over u g r i z y). */
const BANDS = ['u', 'g', 'r', 'i', 'z', 'y'] as const;
const perBand = (fields: string[]) => BANDS.flatMap((b) => fields.map((f) => `${b}_${f}`));
const DIA_OBJECT = [
  'diaObjectId long',
  'validityStartMjdTai double',
  'ra double',
  'raErr float?',
  'dec double',
  'decErr float?',
  'ra_dec_Cov float?',
  ...perBand([
    'psfFluxMean float?',
    'psfFluxMeanErr float?',
    'psfFluxSigma float?',
    'psfFluxNdata int?',
    'fpFluxMean float?',
    'fpFluxMeanErr float?',
  ]),
  ...perBand(['scienceFluxMean float?', 'scienceFluxMeanErr float?']),
  ...perBand(['psfFluxMin float?', 'psfFluxMax float?', 'psfFluxMaxSlope float?', 'psfFluxErrMean float?']),
  'firstDiaSourceMjdTai double?',
  'lastDiaSourceMjdTai double?',
  'nDiaSources int',
];

const SS_SOURCE = [
  'diaSourceId long',
  'ssObjectId long',
  'designation string?',
  'eclLambda double',
  'eclBeta double',
  'galLon double',
  'galLat double',
  'elongation float?',
  'phaseAngle float?',
  'topoRange float?',
  'topoRangeRate float?',
  'helioRange float?',
  'helioRangeRate float?',
  'ephRa double?',
  'ephDec double?',
  'ephVmag float?',
  'ephRate float?',
  'ephRateRa float?',
  'ephRateDec float?',
  'ephOffset float?',
  'ephOffsetRa double?',
  'ephOffsetDec double?',
  'ephOffsetAlongTrack float?',
  'ephOffsetCrossTrack float?',
  'helio_x float?',
  'helio_y float?',
  'helio_z float?',
  'helio_vx float?',
  'helio_vy float?',
  'helio_vz float?',
  'helio_vtot float?',
  'topo_x float?',
  'topo_y float?',
  'topo_z float?',
  'topo_vx float?',
  'topo_vy float?',
  'topo_vz float?',
  'topo_vtot float?',
  'diaDistanceRank int?',
];

/** The orbital elements of an MPCORB record, each with its uncertainty (`<name>_unc`). */
const ORBIT_ELEMENTS = [
  'a',
  'q',
  'e',
  'i',
  'node',
  'argperi',
  'peri_time',
  'yarkovsky',
  'srp',
  'a1',
  'a2',
  'a3',
  'dt',
  'mean_anomaly',
  'period',
  'mean_motion',
];

const MPC_ORBITS = [
  'id int',
  'designation string',
  'packed_primary_provisional_designation string',
  'unpacked_primary_provisional_designation string',
  'mpc_orb_jsonb string?',
  'created_at ts?',
  'updated_at ts?',
  'orbit_type_int int?',
  'u_param int?',
  'nopp int?',
  'arc_length_total double?',
  'arc_length_sel double?',
  'nobs_total int?',
  'nobs_total_sel int?',
  ...ORBIT_ELEMENTS.map((n) => `${n} double?`),
  ...ORBIT_ELEMENTS.map((n) => `${n}_unc double?`),
  'epoch_mjd double?',
  'h double?',
  'g double?',
  'not_normalized_rms double?',
  'normalized_rms double?',
  'earth_moid double?',
  'fitting_datetime ts?',
];

interface AvroField {
  name: string;
  type: unknown;
  default?: null;
}

function expandFields(specs: string[]): AvroField[] {
  return specs.map((spec) => {
    const [name, t] = spec.split(' ');
    const base = t.replace(/\?$/, '');
    const type = base === 'ts' ? { type: 'long', logicalType: 'timestamp-micros' } : base;
    return t.endsWith('?') ? { name, type: ['null', type], default: null } : { name, type };
  });
}

const names = (specs: string[]) => specs.map((spec) => spec.split(' ')[0]);
/** Field names in schema order, for building records with every field present. */
export const DIA_SOURCE_FIELDS = names(DIA_SOURCE);
export const DIA_FORCED_SOURCE_FIELDS = names(DIA_FORCED_SOURCE);
export const DIA_OBJECT_FIELDS = names(DIA_OBJECT);

/** Fields 11.0 made required (`int` instead of `["null", "int"]`). */
const REQUIRED_IN_11 = new Set(['psfNdata', 'trailNdata', 'dipoleNdata', 'bboxSize', ...BANDS.map((b) => `${b}_psfFluxNdata`)]);

function record(version: LsstSchemaVersion, name: string, specs: string[]) {
  const versioned =
    version === '10.0' ? specs : specs.map((spec) => (REQUIRED_IN_11.has(spec.split(' ')[0]) ? spec.replace(/\?$/, '') : spec));
  return { type: 'record', namespace: namespaceOf(version), name, fields: expandFields(versioned) };
}

/** The full `lsst.v10_0.alert` (or v11_0) schema, its nested records defined inline at first use and then named. */
export function lsstAlertSchema(version: LsstSchemaVersion = '10.0') {
  return {
    type: 'record',
    namespace: namespaceOf(version),
    name: 'alert',
    fields: [
      { name: 'diaSourceId', type: 'long' },
      { name: 'observation_reason', type: ['null', 'string'], default: null },
      { name: 'target_name', type: ['null', 'string'], default: null },
      { name: 'diaSource', type: record(version, 'diaSource', DIA_SOURCE) },
      { name: 'prvDiaSources', type: ['null', { type: 'array', items: `${namespaceOf(version)}.diaSource` }], default: null },
      {
        name: 'prvDiaForcedSources',
        type: ['null', { type: 'array', items: record(version, 'diaForcedSource', DIA_FORCED_SOURCE) }],
        default: null,
      },
      { name: 'diaObject', type: ['null', record(version, 'diaObject', DIA_OBJECT)], default: null },
      { name: 'ssSource', type: ['null', record(version, 'ssSource', SS_SOURCE)], default: null },
      { name: 'mpc_orbits', type: ['null', record(version, 'mpc_orbits', MPC_ORBITS)], default: null },
      { name: 'cutoutDifference', type: ['null', 'bytes'], default: null },
      { name: 'cutoutScience', type: ['null', 'bytes'], default: null },
      { name: 'cutoutTemplate', type: ['null', 'bytes'], default: null },
    ],
  };
}

export const LSST_ALERT_SCHEMA = lsstAlertSchema('10.0');

/** avsc Type for writing/reading simulated Rubin alerts (64-bit ids as BigInt). */
export function lsstAlertType(version: LsstSchemaVersion = '10.0'): avro.Type {
  return typeWithBigIntLongs(lsstAlertSchema(version));
}

/**
 * 11.0 requires the counts 10.0 allowed to be null. The simulator leaves some unmeasured (null, e.g.
 * trailNdata, or a band without detections); for 11.0 they are written as 0, as Rubin fills them.
 */
function withRequiredCounts(row: Row): Row {
  let out: Row | undefined;
  for (const name of REQUIRED_IN_11) {
    if (name in row && (row[name] === null || row[name] === undefined)) (out ??= { ...row })[name] = 0;
  }
  return out ?? row;
}

type Row = Record<string, unknown>;

/**
 * Encodes alerts in pieces, as encoder.ts does for ZTF: a record's encoding is its fields' encodings
 * concatenated, so DiaSource and DiaForcedSource rows (each repeated in every later alert of the
 * object) are encoded once and the arrays are assembled from their bytes. Same bytes as encoding the
 * whole record with lsstAlertType() (tested).
 */
export class LsstAlertEncoder {
  private readonly head: avro.Type;
  private readonly source: avro.Type;
  private readonly forced: avro.Type;
  private readonly tail: avro.Type;

  constructor(readonly version: LsstSchemaVersion = '10.0') {
    const fields = lsstAlertSchema(version).fields;
    const at = (name: string) => fields.findIndex((f) => f.name === name);
    const part = (from: number, to: number) =>
      typeWithBigIntLongs({ type: 'record', namespace: namespaceOf(version), name: 'alert', fields: fields.slice(from, to) });
    this.head = part(0, at('diaSource'));
    this.source = typeWithBigIntLongs(record(version, 'diaSource', DIA_SOURCE));
    this.forced = typeWithBigIntLongs(record(version, 'diaForcedSource', DIA_FORCED_SOURCE));
    this.tail = part(at('diaObject'), fields.length);
  }

  encodeSource(row: Row): Buffer {
    return this.source.toBuffer(this.version === '10.0' ? row : withRequiredCounts(row));
  }

  encodeForced(row: Row): Buffer {
    return this.forced.toBuffer(row);
  }

  /** Bytes of a whole alert: `head` holds the fields before diaSource, `tail` those after the histories. */
  encode(head: Row, diaSource: Buffer, prvDiaSources: Buffer[] | null, prvDiaForcedSources: Buffer[] | null, tail: Row): Buffer {
    const parts = [this.head.toBuffer(head), diaSource];
    for (const rows of [prvDiaSources, prvDiaForcedSources]) {
      // ["null", array]: branch 0 is null; an array is one block (count, items) and the 0 end marker.
      if (rows === null) parts.push(varint(0));
      else parts.push(varint(1), ...(rows.length > 0 ? [varint(rows.length), ...rows] : []), varint(0));
    }
    const diaObject = tail.diaObject as Row | null | undefined;
    parts.push(this.tail.toBuffer(this.version === '10.0' || !diaObject ? tail : { ...tail, diaObject: withRequiredCounts(diaObject) }));
    return Buffer.concat(parts);
  }
}
