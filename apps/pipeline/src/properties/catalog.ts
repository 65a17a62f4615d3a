import { LSST_DIA_FORCED_SOURCE_FIELDS, LSST_DIA_SOURCE_FIELDS } from './lsst-fields.ts';
import { ZTF_CANDIDATE_FIELDS } from './ztf-fields.ts';

/**
 * The catalogue of alert and locus properties the pipeline writes, served by /v1/alert_properties and
 * /v1/loci_properties. It is defined next to the code that produces the properties so they stay in step.
 */
export interface PropertyDefinition {
  id: string;
  type: 'int' | 'float' | 'str' | 'bool' | 'list' | 'dict';
  origin: string;
  description: string;
  es_mapping: string;
}

const es = (type: PropertyDefinition['type']) =>
  ({ int: 'long', float: 'double', str: 'keyword', bool: 'boolean', list: 'keyword', dict: 'object' })[type];

const def = (id: string, type: PropertyDefinition['type'], origin: string, description: string): PropertyDefinition => ({
  id,
  type,
  origin,
  description,
  es_mapping: es(type),
});

const ANT_ALERT_PROPERTIES: PropertyDefinition[] = [
  def('ant_mjd', 'float', 'antares', 'Modified Julian date of the observation (ZTF jd - 2400000.5, Rubin midpointMjdTai).'),
  def(
    'ant_survey',
    'int',
    'antares',
    'Survey of the alert, as clients read it: 1 ZTF detection (candidate), 2 ZTF upper limit, 3 DECam, 4 LSST (Rubin: detections lsst:<diaSourceId> and forced photometry lsst_forced:<diaForcedSourceId>).',
  ),
  def(
    'ant_forced_photometry',
    'bool',
    'antares',
    'true on forced photometry (Rubin DiaForcedSources, alert ids lsst_forced:<id>): a measurement when flux/error >= 5, else an upper limit (no ant_mag, ant_maglim set). Absent on detections and ZTF alerts.',
  ),
  def('ant_ra', 'float', 'antares', 'Right ascension of the detection (degrees, ICRS).'),
  def('ant_dec', 'float', 'antares', 'Declination of the detection (degrees, ICRS).'),
  def('ant_passband', 'str', 'antares', 'Passband of the observation: g, R or i for ZTF; u, g, r, i, z or y for Rubin.'),
  def(
    'ant_mag',
    'float',
    'antares',
    'PSF-fit magnitude of the difference-image detection (ZTF magpsf; for Rubin 31.4 - 2.5 log10 |psfFlux / nJy|).',
  ),
  def('ant_magerr', 'float', 'antares', 'Uncertainty of ant_mag (ZTF sigmapsf; for Rubin from psfFluxErr).'),
  def(
    'ant_maglim',
    'float',
    'antares',
    '5-sigma limiting magnitude of the difference image (ZTF diffmaglim; for Rubin the magnitude of 5 psfFluxErr).',
  ),
  def('ant_mag_corrected', 'float', 'antares', 'Magnitude corrected for the reference source flux (only where the correction succeeds).'),
  def('ant_magerr_corrected', 'float', 'antares', 'Uncertainty of ant_mag_corrected.'),
  def('ant_magulim_corrected', 'float', 'antares', 'Upper limit of the corrected magnitude, where only bounded.'),
  def('ant_magllim_corrected', 'float', 'antares', 'Lower limit of the corrected magnitude, where only bounded.'),
  def('ant_time_received', 'int', 'antares', 'Unix time (seconds) at which ANTARES received the alert.'),
  def('ant_input_msg_time', 'int', 'antares', 'Unix time (seconds) of the input message that carried the alert.'),
  def('ztf_object_id', 'str', 'ztf', 'ZTF object identifier (objectId) of the packet.'),
];

const LOCUS_PROPERTIES: PropertyDefinition[] = [
  def('num_alerts', 'int', 'antares', 'Number of alerts (detections and upper limits) of the locus.'),
  def('num_mag_values', 'int', 'antares', 'Number of alerts with a magnitude (detections).'),
  def('newest_alert_id', 'str', 'antares', 'Id of the newest detection.'),
  def('newest_alert_magnitude', 'float', 'antares', 'Magnitude of the newest detection.'),
  def('newest_alert_observation_time', 'float', 'antares', 'Observation time (MJD) of the newest detection.'),
  def('oldest_alert_id', 'str', 'antares', 'Id of the oldest detection.'),
  def('oldest_alert_magnitude', 'float', 'antares', 'Magnitude of the oldest detection.'),
  def('oldest_alert_observation_time', 'float', 'antares', 'Observation time (MJD) of the oldest detection.'),
  def('brightest_alert_id', 'str', 'antares', 'Id of the brightest detection.'),
  def('brightest_alert_magnitude', 'float', 'antares', 'Magnitude of the brightest detection.'),
  def('brightest_alert_observation_time', 'float', 'antares', 'Observation time (MJD) of the brightest detection.'),
  def('is_corrected', 'str', 'antares', '"true" when any detection has a reference-corrected magnitude, else "false".'),
  def('ztf_object_id', 'str', 'ztf', 'ZTF object id of the locus (the first one seen).'),
  def('ztf_ssnamenr', 'str', 'ztf', 'Name of the nearest known solar-system object, from the newest detection that has one.'),
  def(
    'survey',
    'dict',
    'antares',
    'Per-survey identifiers: survey.ztf.id, rcid, field and ssnamenr lists; for Rubin, survey.lsst.dia_object_id and ss_object_id lists of decimal strings (the ids exceed 2^53).',
  ),
];

const FEATURES: Array<[string, string]> = [
  ['amplitude', 'Half the difference between the maximum and minimum value.'],
  ['mean', 'Mean value.'],
  ['median', 'Median value.'],
  ['weighted_mean', 'Mean weighted by inverse squared errors.'],
  ['standard_deviation', 'Sample standard deviation.'],
  ['skew', 'Adjusted Fisher-Pearson skewness.'],
  ['kurtosis', 'Unbiased excess kurtosis.'],
  ['stetson_k', 'Stetson K robust kurtosis measure.'],
  ['percent_amplitude', 'Largest absolute deviation from the median.'],
  ['beyond_1_std', 'Fraction of points more than one standard deviation from the mean.'],
  ['linear_fit_slope', 'Slope (per day) of a weighted linear fit against time.'],
];

/** Light-curve features, per band and per magnitude/flux series. */
function featureProperties(): PropertyDefinition[] {
  const out: PropertyDefinition[] = [];
  for (const band of ['g', 'r', 'i']) {
    for (const [series, label] of [
      ['magn', 'magnitudes'],
      ['flux', 'fluxes (microjansky)'],
    ]) {
      for (const [name, description] of FEATURES) {
        out.push(
          def(
            `feature_${name}_${series}_${band}`,
            'float',
            'antares',
            `${description} Of the ${band}-band ${label}; present with at least two detections (skew three, kurtosis four).`,
          ),
        );
      }
    }
  }
  return out;
}

/** The ZTF candidate fields, copied onto alerts with a ztf_ prefix. */
const ztfCandidateFields: PropertyDefinition[] = ZTF_CANDIDATE_FIELDS.map((f) => def(`ztf_${f.name}`, f.type, 'ztf', f.doc));

/** The Rubin DiaSource and DiaForcedSource fields, copied onto alerts with their record's prefix. */
const lsstFields: PropertyDefinition[] = [
  ...LSST_DIA_SOURCE_FIELDS.map((f) => def(`lsst_diaSource_${f.name}`, f.type, 'lsst', f.doc)),
  ...LSST_DIA_FORCED_SOURCE_FIELDS.map((f) => def(`lsst_diaForcedSource_${f.name}`, f.type, 'lsst', f.doc)),
];

export function alertPropertyCatalog(): PropertyDefinition[] {
  const seen = new Set(ANT_ALERT_PROPERTIES.map((p) => p.id));
  return [...ANT_ALERT_PROPERTIES, ...[...ztfCandidateFields, ...lsstFields].filter((p) => !seen.has(p.id))];
}

export function locusPropertyCatalog(): PropertyDefinition[] {
  return [...LOCUS_PROPERTIES, ...featureProperties()];
}
