/**
 * Every field of the Rubin (LSST) `diaSource` and `diaForcedSource` records, as copied onto stored
 * alerts with an `lsst_diaSource_` / `lsst_diaForcedSource_` prefix (the alert property catalogue in
 * catalog.ts). Covers the union of alert schemas 7.4, 9.0, 10.0 and 11.0 (7.4 has many more
 * covariances and a few fields later dropped; 9.0 added scienceFlux, templateFlux, isDipole, the
 * processing times and glint_trail). Avro long/int -> 'int', float/double -> 'float', string -> 'str',
 * boolean -> 'bool'. Rubin ids exceed 2^53 and are stored as decimal strings, but are still integers.
 */
export type LsstFieldType = 'int' | 'float' | 'str' | 'bool';

export interface LsstField {
  name: string;
  type: LsstFieldType;
  doc: string;
}

type Row = [name: string, type: LsstFieldType, doc: string];

const unitSuffix = (unit?: string) => (unit ? ` (${unit})` : '');
const err = (of: string, unit?: string): Row => [`${of}Err`, 'float', `Uncertainty of ${of}${unitSuffix(unit)}.`];
const cov = (a: string, b: string): Row => [`${a}_${b}_Cov`, 'float', `Covariance of ${a} and ${b}.`];
/** Every covariance between the given measured quantities, in schema order (a_b for a before b). */
const covariances = (names: string[]): Row[] => names.flatMap((a, i) => names.slice(i + 1).map((b) => cov(a, b)));
const flag = (name: string, says: string): Row => [name, 'bool', `Set when ${says}.`];

/** pixelFlags_<what> (anywhere in the footprint) and pixelFlags_<what>Center (the 3x3 pixels at the centroid). */
function pixelFlags(what: string, pixel: string): Row[] {
  return [
    flag(`pixelFlags_${what}`, `the source footprint contains ${pixel}`),
    flag(`pixelFlags_${what}Center`, `the 3x3 pixels around the centroid contain ${pixel}`),
  ];
}

const DIA_SOURCE: Row[] = [
  ['diaSourceId', 'int', 'Unique id of this difference-image source (64-bit, a decimal string above 2^53).'],
  ['visit', 'int', 'Id of the visit (exposure) in which the source was measured.'],
  ['detector', 'int', 'Id of the camera detector (CCD) on which the source was measured.'],
  [
    'diaObjectId',
    'int',
    'Id of the DiaObject (static-sky object) the source was associated with; null when it went to a solar-system object.',
  ],
  ['ssObjectId', 'int', 'Id of the known solar-system object the source was attributed to; null or 0 when none.'],
  ['parentDiaSourceId', 'int', 'Id of the source this one was deblended from, if any.'],
  ['midpointMjdTai', 'float', 'Time of the middle of the exposure as a Modified Julian Date in TAI (days).'],
  ['ra', 'float', 'Right ascension of the source centroid (degrees, ICRS).'],
  err('ra', 'degrees'),
  ['dec', 'float', 'Declination of the source centroid (degrees, ICRS).'],
  err('dec', 'degrees'),
  cov('ra', 'dec'),
  ['x', 'float', 'Column of the centroid on the detector (pixels).'],
  err('x', 'pixels'),
  ['y', 'float', 'Row of the centroid on the detector (pixels).'],
  err('y', 'pixels'),
  cov('x', 'y'),
  flag('centroid_flag', 'the centroid measurement failed'),
  ['apFlux', 'float', 'Flux in a 12-pixel-radius aperture on the difference image (nJy).'],
  err('apFlux', 'nJy'),
  flag('apFlux_flag', 'the aperture flux measurement failed'),
  flag('apFlux_flag_apertureTruncated', 'the aperture did not fit inside the image'),
  flag('is_negative', 'the source is significantly negative on the difference image (older name of isNegative)'),
  flag('isNegative', 'the source is significantly negative on the difference image (fainter than in the template)'),
  ['snr', 'float', 'Signal-to-noise ratio of the detection on the difference image.'],
  ['psfFlux', 'float', 'PSF-fit flux on the difference image, the change since the template; negative when fainter (nJy).'],
  err('psfFlux', 'nJy'),
  ['psfRa', 'float', 'Right ascension of the PSF-model centroid (degrees).'],
  err('psfRa', 'degrees'),
  ['psfDec', 'float', 'Declination of the PSF-model centroid (degrees).'],
  err('psfDec', 'degrees'),
  cov('psfFlux', 'psfRa'),
  cov('psfFlux', 'psfDec'),
  cov('psfRa', 'psfDec'),
  ['psfLnL', 'float', 'Natural logarithm of the likelihood of the PSF-model fit.'],
  ['psfChi2', 'float', 'Chi-square of the PSF-model fit.'],
  ['psfNdata', 'int', 'Number of pixels used in the PSF-model fit.'],
  flag('psfFlux_flag', 'the PSF flux fit failed'),
  flag('psfFlux_flag_edge', 'the source was too close to the image edge for the full PSF model'),
  flag('psfFlux_flag_noGoodPixels', 'too few unmasked pixels were left to fit the PSF model'),
  ['trailFlux', 'float', 'Flux of the trailed-source (moving object) model fitted to the difference image (nJy).'],
  err('trailFlux', 'nJy'),
  ['trailRa', 'float', 'Right ascension of the trailed-model centroid (degrees).'],
  err('trailRa', 'degrees'),
  ['trailDec', 'float', 'Declination of the trailed-model centroid (degrees).'],
  err('trailDec', 'degrees'),
  ['trailLength', 'float', 'Length of the fitted trail (arcsec).'],
  err('trailLength', 'arcsec'),
  ['trailAngle', 'float', 'Position angle of the fitted trail, east of north (degrees).'],
  err('trailAngle', 'degrees'),
  ...covariances(['trailFlux', 'trailRa', 'trailDec', 'trailLength', 'trailAngle']),
  ['trailLnL', 'float', 'Natural logarithm of the likelihood of the trailed-model fit.'],
  ['trailChi2', 'float', 'Chi-square of the trailed-model fit.'],
  ['trailNdata', 'int', 'Number of pixels used in the trailed-model fit.'],
  flag('trail_flag_edge', 'the fitted trail reaches the edge of the image'),
  ['dipoleMeanFlux', 'float', 'Mean absolute flux of the two lobes of the dipole-model fit (nJy).'],
  err('dipoleMeanFlux', 'nJy'),
  ['dipoleFluxDiff', 'float', 'Difference between the absolute fluxes of the two dipole lobes (nJy).'],
  err('dipoleFluxDiff', 'nJy'),
  ['dipoleRa', 'float', 'Right ascension of the dipole-model centroid (degrees).'],
  err('dipoleRa', 'degrees'),
  ['dipoleDec', 'float', 'Declination of the dipole-model centroid (degrees).'],
  err('dipoleDec', 'degrees'),
  ['dipoleLength', 'float', 'Separation of the two dipole lobes (arcsec).'],
  err('dipoleLength', 'arcsec'),
  ['dipoleAngle', 'float', 'Position angle of the dipole axis from the negative to the positive lobe, east of north (degrees).'],
  err('dipoleAngle', 'degrees'),
  ...covariances(['dipoleMeanFlux', 'dipoleFluxDiff', 'dipoleRa', 'dipoleDec', 'dipoleLength', 'dipoleAngle']),
  ['dipoleLnL', 'float', 'Natural logarithm of the likelihood of the dipole-model fit.'],
  ['dipoleChi2', 'float', 'Chi-square of the dipole-model fit.'],
  ['dipoleNdata', 'int', 'Number of pixels used in the dipole-model fit.'],
  flag('forced_PsfFlux_flag', 'forced PSF photometry on the visit (science) image failed'),
  flag('forced_PsfFlux_flag_edge', 'the source was too close to the edge of the visit image for forced PSF photometry'),
  flag('forced_PsfFlux_flag_noGoodPixels', 'too few unmasked pixels were left for forced PSF photometry on the visit image'),
  ['snapDiffFlux', 'float', 'PSF flux measured on the difference between the two snaps of the visit (nJy).'],
  err('snapDiffFlux', 'nJy'),
  ['fpBkgd', 'float', 'Sky background level at the source position.'],
  err('fpBkgd'),
  ['ixx', 'float', 'Adaptive second moment of the source light along x (nJy arcsec^2).'],
  err('ixx'),
  ['iyy', 'float', 'Adaptive second moment of the source light along y (nJy arcsec^2).'],
  err('iyy'),
  ['ixy', 'float', 'Adaptive cross moment (xy) of the source light (nJy arcsec^2).'],
  err('ixy'),
  ...covariances(['ixx', 'iyy', 'ixy']),
  ['ixxPSF', 'float', 'Adaptive second moment of the PSF along x at the source position (nJy arcsec^2).'],
  ['iyyPSF', 'float', 'Adaptive second moment of the PSF along y at the source position (nJy arcsec^2).'],
  ['ixyPSF', 'float', 'Adaptive cross moment (xy) of the PSF at the source position (nJy arcsec^2).'],
  flag('shape_flag', 'the shape (second moments) measurement failed'),
  flag('shape_flag_no_pixels', 'there were no pixels to measure the shape on'),
  flag('shape_flag_not_contained', 'the centre lies outside the bounding box of the footprint'),
  flag('shape_flag_parent_source', 'the source is a blended parent rather than a deblended child'),
  ['extendedness', 'float', 'How extended the source is compared with the PSF, from 0 (point-like) to 1 (extended).'],
  ['reliability', 'float', 'Machine-learned probability (0 to 1) that the source is a real astrophysical change, not an artefact.'],
  ['band', 'str', 'Rubin filter of the visit: u, g, r, i, z or y.'],
  flag('dipoleFitAttempted', 'a dipole model was fitted to the source'),
  flag('pixelFlags', 'reading the footprint mask failed, so the other pixelFlags may be wrong'),
  flag('pixelFlags_bad', 'the source footprint contains a pixel marked bad'),
  ...pixelFlags('cr', 'a cosmic-ray hit'),
  flag('pixelFlags_edge', 'part of the footprint lies outside the usable image area'),
  ...pixelFlags('nodata', 'a pixel without data'),
  ...pixelFlags('interpolated', 'an interpolated pixel'),
  flag('pixelFlags_offimage', 'the source centre lies off the image'),
  ...pixelFlags('saturated', 'a saturated pixel'),
  ...pixelFlags('suspect', 'a pixel marked suspect (e.g. non-linear)'),
  ...pixelFlags('streak', 'a pixel on a satellite or other streak'),
  ...pixelFlags('injected', 'a pixel with an injected synthetic source'),
  ...pixelFlags('injected_template', 'a pixel with a synthetic source injected into the template'),
  ['scienceFlux', 'float', 'Forced PSF flux on the visit (science) image at the source position (nJy).'],
  err('scienceFlux', 'nJy'),
  ['templateFlux', 'float', 'Forced PSF flux on the template image at the DiaObject position (nJy).'],
  err('templateFlux', 'nJy'),
  flag('isDipole', 'a dipole model fits the source well (typically a subtraction residual)'),
  ['timeProcessedMjdTai', 'float', 'Time this record was produced, as a Modified Julian Date in TAI (days).'],
  ['timeWithdrawnMjdTai', 'float', 'Time this record was withdrawn as invalid, as a Modified Julian Date in TAI; null while valid.'],
  ['bboxSize', 'int', 'Side of the square bounding box that holds the detection footprint (pixels).'],
  flag('glint_trail', 'the source is part of a glint trail (a reflection or satellite glint)'),
];

const DIA_FORCED_SOURCE: Row[] = [
  ['diaForcedSourceId', 'int', 'Unique id of this forced measurement (64-bit, a decimal string above 2^53).'],
  ['diaObjectId', 'int', 'Id of the DiaObject at whose position the flux was measured.'],
  ['ra', 'float', 'Right ascension of the DiaObject position that was measured (degrees, ICRS).'],
  ['dec', 'float', 'Declination of the DiaObject position that was measured (degrees, ICRS).'],
  ['visit', 'int', 'Id of the visit (exposure) that was measured.'],
  ['detector', 'int', 'Id of the camera detector (CCD) that was measured.'],
  ['psfFlux', 'float', 'PSF flux at the DiaObject position on the difference image; may be insignificant or negative (nJy).'],
  err('psfFlux', 'nJy'),
  ['midpointMjdTai', 'float', 'Time of the middle of the exposure as a Modified Julian Date in TAI (days).'],
  ['band', 'str', 'Rubin filter of the visit: u, g, r, i, z or y.'],
  ['scienceFlux', 'float', 'PSF flux at the DiaObject position on the visit (science) image (nJy).'],
  err('scienceFlux', 'nJy'),
  ['timeProcessedMjdTai', 'float', 'Time this record was produced, as a Modified Julian Date in TAI (days).'],
  ['timeWithdrawnMjdTai', 'float', 'Time this record was withdrawn as invalid, as a Modified Julian Date in TAI; null while valid.'],
];

const toFields = (rows: Row[]): LsstField[] => rows.map(([name, type, doc]) => ({ name, type, doc }));

/** DiaSource fields, stored on detections as `lsst_diaSource_<name>`. */
export const LSST_DIA_SOURCE_FIELDS: readonly LsstField[] = toFields(DIA_SOURCE);
/** DiaForcedSource fields, stored on forced-photometry points as `lsst_diaForcedSource_<name>`. */
export const LSST_DIA_FORCED_SOURCE_FIELDS: readonly LsstField[] = toFields(DIA_FORCED_SOURCE);
