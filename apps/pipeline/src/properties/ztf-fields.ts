/**
 * Every field of the ZTF alert `candidate` record, as copied onto stored alerts with a `ztf_` prefix
 * (the alert property catalogue in catalog.ts). Covers schema 4.02 (same order as CANDIDATE in
 * simulate/ztf-schema.ts) plus the fields that only the early (2016 commissioning-era) schema had.
 * Avro long/int -> 'int', float/double -> 'float', string -> 'str'. Longs above 2^53 (candid, PS1
 * object ids) are decoded as decimal strings but are still integers.
 */
export type ZtfFieldType = 'int' | 'float' | 'str';

export interface ZtfCandidateField {
  name: string;
  type: ZtfFieldType;
  doc: string;
}

type Row = [name: string, type: ZtfFieldType, doc: string];

/** The magnitudes, star/galaxy score and distance of the n-th closest Pan-STARRS1 source. */
function ps1Match(n: 1 | 2 | 3): Row[] {
  const which = ['', 'closest', 'second-closest', 'third-closest'][n];
  const band = (b: string): Row => [
    `s${b}mag${n}`,
    'float',
    `PS1 ${b}-band PSF magnitude of the ${which} Pan-STARRS1 source within 30 arcsec (AB mag).`,
  ];
  return [
    ...['g', 'r', 'i', 'z'].map(band),
    [`sgscore${n}`, 'float', `Star/galaxy score of the ${which} PS1 source, 0 (galaxy-like) to 1 (star-like).`],
    [`distpsnr${n}`, 'float', `Distance from the candidate to the ${which} PS1 source within 30 arcsec (arcsec).`],
  ];
}

const psId = (n: 1 | 2 | 3): Row => [
  `objectidps${n}`,
  'int',
  `Pan-STARRS1 object id of the ${['', 'closest', 'second-closest', 'third-closest'][n]} PS1 source within 30 arcsec.`,
];

/** Schema 4.02 candidate fields. */
const SCHEMA_402: Row[] = [
  ['jd', 'float', 'Julian date at the start of the exposure (days).'],
  ['fid', 'int', 'Filter id of the exposure: 1 for g, 2 for R, 3 for i.'],
  ['pid', 'int', 'Processing id of the science image, used to retrieve it from the IRSA archive.'],
  ['diffmaglim', 'float', 'Expected 5-sigma limiting magnitude of the difference image for PSF-fit photometry (AB mag).'],
  ['pdiffimfilename', 'str', 'File name of the positive (science minus reference) difference image.'],
  ['programpi', 'str', 'Principal investigator of the observing program that took the exposure.'],
  ['programid', 'int', 'Observing program of the exposure: 1 public, 2 partnership (collaboration), 3 Caltech.'],
  ['candid', 'int', 'Unique id of this candidate (detection) in the ZTF operations database.'],
  [
    'isdiffpos',
    'str',
    "'t' (or '1') when the candidate is from positive (science minus reference) subtraction, 'f' (or '0') when negative.",
  ],
  ['tblid', 'int', 'Internal pipeline id of the candidate in the source table extracted from its image.'],
  ['nid', 'int', 'Night id of the observation (a ZTF night counter).'],
  ['rcid', 'int', 'Readout channel of the camera that saw the candidate, 0 to 63 (16 CCDs times 4 quadrants).'],
  ['field', 'int', 'ZTF survey field id of the exposure.'],
  ['xpos', 'float', 'Column position of the candidate on the image (pixels).'],
  ['ypos', 'float', 'Row position of the candidate on the image (pixels).'],
  ['ra', 'float', 'Right ascension of the candidate (degrees, J2000).'],
  ['dec', 'float', 'Declination of the candidate (degrees, J2000).'],
  ['magpsf', 'float', 'Magnitude from PSF-fit photometry of the difference image (AB mag).'],
  ['sigmapsf', 'float', 'One-sigma uncertainty of magpsf (mag).'],
  ['chipsf', 'float', 'Reduced chi-square of the PSF fit (dimensionless).'],
  ['magap', 'float', 'Magnitude in an 8-pixel-diameter aperture on the difference image (AB mag).'],
  ['sigmagap', 'float', 'One-sigma uncertainty of magap (mag).'],
  ['distnr', 'float', 'Distance to the nearest source of the reference-image PSF catalog, searched within 30 arcsec (pixels).'],
  ['magnr', 'float', 'Magnitude of the nearest reference-image catalog source within 30 arcsec (AB mag).'],
  ['sigmagnr', 'float', 'One-sigma uncertainty of magnr (mag).'],
  ['chinr', 'float', 'DAOPhot chi statistic of the nearest reference-image catalog source (dimensionless).'],
  ['sharpnr', 'float', 'DAOPhot sharpness of the nearest reference-image catalog source, near 0 for point sources (dimensionless).'],
  ['sky', 'float', 'Local sky background level around the candidate (DN).'],
  ['magdiff', 'float', 'Aperture minus PSF-fit magnitude, magap - magpsf (mag).'],
  ['fwhm', 'float', 'Full width at half maximum of the source assuming a Gaussian core, from SExtractor (pixels).'],
  ['classtar', 'float', 'SExtractor star/galaxy classifier output, 0 (extended) to 1 (point-like).'],
  ['mindtoedge', 'float', 'Distance from the candidate to the nearest image edge (pixels).'],
  ['magfromlim', 'float', 'Limiting magnitude minus aperture magnitude, diffmaglim - magap (mag).'],
  ['seeratio', 'float', 'Ratio of the difference-image FWHM to the science-image FWHM (dimensionless).'],
  ['aimage', 'float', 'RMS extent of the windowed source profile along its major axis, from SExtractor (pixels).'],
  ['bimage', 'float', 'RMS extent of the windowed source profile along its minor axis, from SExtractor (pixels).'],
  ['aimagerat', 'float', 'Major-axis extent over the FWHM, aimage / fwhm (dimensionless).'],
  ['bimagerat', 'float', 'Minor-axis extent over the FWHM, bimage / fwhm (dimensionless).'],
  ['elong', 'float', 'Elongation of the source, aimage / bimage (dimensionless).'],
  ['nneg', 'int', 'Number of negative pixels in the 5x5-pixel stamp around the candidate (count).'],
  ['nbad', 'int', 'Number of pixels already flagged bad in the 5x5-pixel stamp around the candidate (count).'],
  ['rb', 'float', 'Real-bogus score from the random-forest classifier, 0 (bogus) to 1 (real).'],
  ['ssdistnr', 'float', 'Distance to the nearest known solar-system object, -999 when there is none (arcsec).'],
  ['ssmagnr', 'float', 'Magnitude (usually V, from the MPC) of the nearest known solar-system object, -999 when none (mag).'],
  ['ssnamenr', 'str', "MPC name or number of the nearest known solar-system object, the string 'null' when there is none."],
  [
    'sumrat',
    'float',
    'Sum of the pixel values over the sum of their absolute values in the median-filtered 5x5 stamp, 1 when all positive (dimensionless).',
  ],
  ['magapbig', 'float', 'Magnitude in an 18-pixel-diameter aperture on the difference image (AB mag).'],
  ['sigmagapbig', 'float', 'One-sigma uncertainty of magapbig (mag).'],
  ['ranr', 'float', 'Right ascension of the nearest reference-image catalog source (degrees, J2000).'],
  ['decnr', 'float', 'Declination of the nearest reference-image catalog source (degrees, J2000).'],
  ...ps1Match(1),
  ['ndethist', 'int', 'Number of detections within 1.5 arcsec since the survey began, on the same field and readout channel (count).'],
  ['ncovhist', 'int', 'Number of times the position was imaged on any field and readout channel since the survey began (count).'],
  ['jdstarthist', 'float', 'Julian date of the earliest detection counted in ndethist (days).'],
  ['jdendhist', 'float', 'Julian date of the latest detection counted in ndethist (days).'],
  ['scorr', 'float', 'Peak-pixel signal-to-noise ratio in the PSF-matched-filter detection image (dimensionless).'],
  ['tooflag', 'int', '1 when the exposure was a Target-of-Opportunity observation, 0 for a regular one.'],
  psId(1),
  psId(2),
  ...ps1Match(2),
  psId(3),
  ...ps1Match(3),
  ['nmtchps', 'int', 'Number of Pan-STARRS1 sources within 30 arcsec of the candidate (count).'],
  ['rfid', 'int', 'Processing id of the reference image, used to retrieve it from the IRSA archive.'],
  ['jdstartref', 'float', 'Julian date of the earliest exposure stacked into the reference image (days).'],
  ['jdendref', 'float', 'Julian date of the latest exposure stacked into the reference image (days).'],
  ['nframesref', 'int', 'Number of exposures stacked into the reference image (count).'],
  ['rbversion', 'str', 'Version label of the random-forest real-bogus model that produced rb.'],
  ['dsnrms', 'float', 'Difference-image value at the candidate over the difference-image RMS (dimensionless).'],
  ['ssnrms', 'float', 'PSF-convolved difference-image value at the candidate over its RMS (dimensionless).'],
  ['dsdiff', 'float', 'Difference of the two significance ratios, dsnrms - ssnrms (dimensionless).'],
  ['magzpsci', 'float', 'Photometric zero point of the science image (mag).'],
  ['magzpsciunc', 'float', 'Uncertainty of the science-image zero point magzpsci (mag).'],
  ['magzpscirms', 'float', 'RMS scatter of instrumental minus PS1 calibrator magnitudes in the science-image calibration (mag).'],
  ['nmatches', 'int', 'Number of PS1 calibrator stars used to calibrate the science image (count).'],
  ['clrcoeff', 'float', 'Color-term coefficient of the linear photometric calibration fit of the science image (mag per mag).'],
  ['clrcounc', 'float', 'Uncertainty of the color-term coefficient clrcoeff (mag per mag).'],
  ['zpclrcov', 'float', 'Covariance of the zero point and the color coefficient in the calibration fit (mag^2).'],
  ['zpmed', 'float', 'Zero point from the median of instrumental minus PS1 calibrator magnitudes (mag).'],
  ['clrmed', 'float', 'Median PS1 color of the calibrator stars, g-r for the g and R filters and r-i for i (mag).'],
  ['clrrms', 'float', 'RMS spread of the PS1 colors of the calibrator stars (mag).'],
  ['neargaia', 'float', 'Distance to the closest Gaia DR1 source of any brightness within 90 arcsec (arcsec).'],
  ['neargaiabright', 'float', 'Distance to the closest Gaia DR1 source brighter than G = 14 within 90 arcsec (arcsec).'],
  ['maggaia', 'float', 'Gaia G magnitude of the closest Gaia DR1 source within 90 arcsec (mag).'],
  ['maggaiabright', 'float', 'Gaia G magnitude of the closest Gaia DR1 source brighter than G = 14 within 90 arcsec (mag).'],
  ['exptime', 'float', 'Exposure time of the science image (seconds).'],
  ['drb', 'float', 'Real-bogus score from the deep-learning (CNN) classifier, 0 (bogus) to 1 (real).'],
  ['drbversion', 'str', 'Version label of the deep-learning real-bogus model that produced drb.'],
];

/**
 * Fields of the early commissioning-era schema (2016 test packets), dropped before schema 3.0: a
 * single star-catalog match and the closest galaxy of the Local Universe table. Those packets also
 * wrote isdiffpos as an int (1/0); it is listed once above, as 'str'.
 */
const EARLY_SCHEMA: Row[] = [
  ['strcat', 'int', 'Catalog of the nearest star within 1.5 arcsec, 1 PTF reference catalog, 2 SDSS or 3 PS1 (early schema only).'],
  ['sgmag', 'float', 'Magnitude of the closest source in the catalog given by strcat (mag; early schema only).'],
  ['sgscore', 'float', 'Star/galaxy score of the closest source, defined by the catalog given by strcat (early schema only).'],
  ['luid', 'int', 'Id of the closest galaxy of the Local Universe table, found by an elliptical search (early schema only).'],
  ['name', 'str', 'Name of the closest Local Universe galaxy (early schema only).'],
  ['ra_lu', 'float', 'Right ascension of the closest Local Universe galaxy (degrees, J2000; early schema only).'],
  ['dec_lu', 'float', 'Declination of the closest Local Universe galaxy (degrees, J2000; early schema only).'],
  ['a', 'float', 'Semi-major axis of the isophotal ellipse of the closest Local Universe galaxy (pixels; early schema only).'],
  ['b2arat', 'float', 'Minor-to-major axis ratio of the closest Local Universe galaxy (dimensionless; early schema only).'],
  ['pa', 'float', 'Position angle of the isophotal ellipse of the closest Local Universe galaxy (degrees; early schema only).'],
  ['dm', 'float', 'Distance modulus of the closest Local Universe galaxy (mag; early schema only).'],
  ['dmkin', 'float', 'Kinematic (redshift-based) distance modulus of the closest Local Universe galaxy (mag; early schema only).'],
  ['btc', 'float', 'Corrected absolute B-band magnitude of the closest Local Universe galaxy (mag; early schema only).'],
  ['objtype', 'float', 'Numeric morphological type of the closest Local Universe galaxy (early schema only).'],
  ['m21', 'float', '21-cm (HI line) magnitude of the closest Local Universe galaxy (mag; early schema only).'],
  ['source', 'str', 'Catalog from which the closest Local Universe galaxy was taken (early schema only).'],
];

export const ZTF_CANDIDATE_FIELDS: ZtfCandidateField[] = [...SCHEMA_402, ...EARLY_SCHEMA].map(([name, type, doc]) => ({ name, type, doc }));
