// The Rubin (LSST) alert Avro schemas ANTARES can read without a schema registry: versions 9.0, 10.0
// and 11.0 of lsst/alert_packet (schema/9/0, 10/0, 11/0). Field order, types and nullability follow the
// published schemas exactly (Avro binary data is only readable with the schema it was written with);
// doc strings are left out. 10.0 renamed and reshaped 9.0's ssSource fields and replaced its MPCORB
// record with mpc_orbits; 11.0 made ten counts required. The simulator writes its Rubin alerts with
// 10.0 or 11.0.
//
// Rubin's alert stream frames each record in Confluent's wire format, whose schema id is the version
// with two digits for the minor one (7.1 is 701, 10.0 is 1000: lsst/alert_packet's README), so a
// record framed so can be read with these when no registry is at hand (alert-message.ts).

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

/** 9.0's ssSource: the solar-system source before 10.0 renamed and added fields. */
const SS_SOURCE_9 = [
  'ssObjectId long?',
  'diaSourceId long?',
  'eclipticLambda double?',
  'eclipticBeta double?',
  'galacticL double?',
  'galacticB double?',
  'phaseAngle float?',
  'heliocentricDist float?',
  'topocentricDist float?',
  'predictedVMagnitude float?',
  'residualRa double?',
  'residualDec double?',
  ...['heliocentric', 'topocentric'].flatMap((frame) => ['X', 'Y', 'Z', 'VX', 'VY', 'VZ'].map((axis) => `${frame}${axis} float?`)),
];

/** 9.0's MPCORB: the orbit of a known solar-system object (10.0's mpc_orbits). */
const MPCORB_9 = [
  'mpcDesignation string?',
  'ssObjectId long?',
  'mpcH float?',
  'epoch double?',
  'M double?',
  'peri double?',
  'node double?',
  'incl double?',
  'e double?',
  'a double?',
  'q double?',
  't_p double?',
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

/** Counts 11.0 made required (`int` instead of `["null", "int"]`). */
export const COUNTS_REQUIRED_IN_11 = new Set([
  'psfNdata',
  'trailNdata',
  'dipoleNdata',
  'bboxSize',
  ...BANDS.map((b) => `${b}_psfFluxNdata`),
]);

export type RubinSchemaVersion = '9.0' | '10.0' | '11.0';
export const RUBIN_SCHEMA_VERSIONS: readonly RubinSchemaVersion[] = ['9.0', '10.0', '11.0'];

export const rubinNamespace = (version: RubinSchemaVersion) => `lsst.v${version.replace('.', '_')}`;

const RECORDS = {
  diaSource: DIA_SOURCE,
  diaForcedSource: DIA_FORCED_SOURCE,
  diaObject: DIA_OBJECT,
  ssSource: SS_SOURCE,
  mpc_orbits: MPC_ORBITS,
  MPCORB: MPCORB_9,
};

/** One record of a version's schema, named in its namespace. */
export function rubinRecordSchema(version: RubinSchemaVersion, name: keyof typeof RECORDS) {
  const specs = version === '9.0' && name === 'ssSource' ? SS_SOURCE_9 : RECORDS[name];
  const versioned =
    version === '11.0' ? specs.map((spec) => (COUNTS_REQUIRED_IN_11.has(spec.split(' ')[0]) ? spec.replace(/\?$/, '') : spec)) : specs;
  return { type: 'record', namespace: rubinNamespace(version), name, fields: expandFields(versioned) };
}

/** The full `lsst.v<major>_<minor>.alert` schema, its nested records defined inline at first use and then named. */
export function rubinAlertSchema(version: RubinSchemaVersion) {
  const orbits = version === '9.0' ? 'MPCORB' : 'mpc_orbits';
  return {
    type: 'record',
    namespace: rubinNamespace(version),
    name: 'alert',
    fields: [
      { name: 'diaSourceId', type: 'long' },
      { name: 'observation_reason', type: ['null', 'string'], default: null },
      { name: 'target_name', type: ['null', 'string'], default: null },
      { name: 'diaSource', type: rubinRecordSchema(version, 'diaSource') },
      { name: 'prvDiaSources', type: ['null', { type: 'array', items: `${rubinNamespace(version)}.diaSource` }], default: null },
      {
        name: 'prvDiaForcedSources',
        type: ['null', { type: 'array', items: rubinRecordSchema(version, 'diaForcedSource') }],
        default: null,
      },
      { name: 'diaObject', type: ['null', rubinRecordSchema(version, 'diaObject')], default: null },
      { name: 'ssSource', type: ['null', rubinRecordSchema(version, 'ssSource')], default: null },
      { name: orbits, type: ['null', rubinRecordSchema(version, orbits)], default: null },
      { name: 'cutoutDifference', type: ['null', 'bytes'], default: null },
      { name: 'cutoutScience', type: ['null', 'bytes'], default: null },
      { name: 'cutoutTemplate', type: ['null', 'bytes'], default: null },
    ],
  };
}

/** A version's id in Rubin's schema registry: 10.0 is 1000, 9.0 is 900. */
export function rubinSchemaId(version: RubinSchemaVersion): number {
  const [major, minor] = version.split('.').map(Number);
  return major * 100 + minor;
}

const shippedTexts = new Map<number, string>();

/** The writer schema (as JSON text) of a shipped version by its registry id; undefined for any other id. */
export function shippedRubinSchemaText(id: number): string | undefined {
  const version = RUBIN_SCHEMA_VERSIONS.find((v) => rubinSchemaId(v) === id);
  if (version === undefined) return undefined;
  let text = shippedTexts.get(id);
  if (text === undefined) shippedTexts.set(id, (text = JSON.stringify(rubinAlertSchema(version))));
  return text;
}

const SHIPPED_IDS = RUBIN_SCHEMA_VERSIONS.map((version) => `${rubinSchemaId(version)} = ${version}`).join(', ');

/** Why a framed record whose schema id is not a shipped one cannot be read without a registry. */
export function notShippedReason(id: number): string {
  return (
    `Confluent-framed record (schema id ${id}): not one of the Rubin alert schemas ANTARES ships (${SHIPPED_IDS}), ` +
    'and no schema registry is configured (ANTARES_SCHEMA_REGISTRY_URL)'
  );
}
