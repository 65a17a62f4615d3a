import { describe, expect, it } from 'vitest';

import { parseLightcurve } from '@/features/locus-detail/api/lightcurve';

import { buildMarks, matchesSelection } from './lightcurve-marks';
import { alertTypeCode, alertTypeLabel, alertTypeOf, passbandColor, sortAlertTypes, sortPassbands } from './survey-codes';

const HEADER =
  'time,alert_id,ant_mjd,ant_survey,ant_ra,ant_dec,ant_passband,ant_mag,ant_magerr,ant_maglim,ant_mag_corrected,ant_magerr_corrected,ant_magulim_corrected,ant_magllim_corrected';

describe('survey codes on the charts', () => {
  it('gives the seven passbands of ZTF and Rubin seven distinct colours', () => {
    const bands = ['u', 'g', 'r', 'i', 'z', 'y', 'R'];
    expect(new Set(bands.map(passbandColor)).size).toBe(7);
    expect(passbandColor('R')).not.toBe(passbandColor('r'));
    expect(passbandColor('Y')).toBe(passbandColor('unknown'));
    expect(sortPassbands(['y', 'R', 'g', 'z', 'r', 'u', 'i', 'g', 'q'])).toEqual(['u', 'g', 'r', 'R', 'i', 'z', 'y', 'q']);
  });

  it('reads ant_survey as clients do (1, 2 ZTF, 3 DECam, 4 Rubin), Rubin forced photometry by its id, else the id prefix alone', () => {
    expect(alertTypeOf({ alert_id: 'x', ant_survey: 1 })).toBe('ztf_detection');
    expect(alertTypeOf({ alert_id: 'x', ant_survey: 2 })).toBe('ztf_upper_limit');
    expect(alertTypeOf({ alert_id: 'decam:1', ant_survey: 3, ant_mag: 20 })).toBe('decam');
    expect(alertTypeOf({ alert_id: 'lsst:169298432598474793', ant_survey: 4, ant_mag: 21 })).toBe('rubin_detection');
    expect(alertTypeOf({ alert_id: 'lsst_forced:169298432598474793', ant_survey: 4, ant_mag: 21 })).toBe('rubin_forced');
    expect(alertTypeOf({ alert_id: 'lsst_forced:169298432598474793', ant_survey: 4 })).toBe('rubin_upper_limit');
    expect(alertTypeOf({ alert_id: 'lsst:169298432598474793' })).toBe('rubin_detection');
    expect(alertTypeOf({ alert_id: 'lsst_forced:169298432598474793' })).toBe('rubin_upper_limit');
    expect(alertTypeOf({ alert_id: 'ztf_candidate:2552120390115015005' })).toBe('ztf_detection');
    expect(alertTypeOf({ alert_id: 'ztf_upper_limit:ZTF21abc-123' })).toBe('ztf_upper_limit');
    expect(alertTypeOf({ alert_id: 'x', ant_survey: 9 })).toBe('survey_9');
    expect(alertTypeOf({ alert_id: 'other' })).toBeUndefined();
    const types = sortAlertTypes([
      'survey_9',
      'rubin_upper_limit',
      'rubin_forced',
      'rubin_detection',
      'decam',
      'ztf_upper_limit',
      'ztf_detection',
      'rubin_forced',
    ]);
    expect(types.map((type) => `${alertTypeCode(type)} ${alertTypeLabel(type)}`)).toEqual([
      '1 ZTF detection',
      '2 ZTF upper limit',
      '3 DECam',
      '4 Rubin detection',
      '4 Rubin forced measurement',
      '4 Rubin upper limit',
      '9 Survey code 9',
    ]);
    expect(alertTypeLabel('rubin_forced', 'short')).toBe('Rubin forced meas.');
  });

  it('draws Rubin detections as magnitudes and empty forced photometry as upper limits, keeping the long ids', () => {
    const csv = [
      HEADER,
      'x,lsst:169298432598474793,60800.1,4,10,20,r,21.5,0.1,,,,,',
      'x,lsst_forced:169298432598474794,60801.1,4,10,20,y,,,23.9,,,,',
      'x,lsst_forced:169298432598474795,60802.1,4,10,20,u,22.1,0.3,,,,,',
      'x,ztf_candidate:2552120390115015005,60803.1,1,10,20,R,19.5,0.1,20.5,,,,',
    ].join('\n');
    const points = parseLightcurve(csv);
    expect(points[0].alert_id).toBe('lsst:169298432598474793');
    const marks = buildMarks(points, new Map());
    expect(marks.map((m) => [m.passband, m.kind, m.alertType])).toEqual([
      ['r', 'magnitude', 'rubin_detection'],
      ['y', 'upper_limit', 'rubin_upper_limit'],
      ['u', 'magnitude', 'rubin_forced'],
      ['R', 'magnitude', 'ztf_detection'],
    ]);
    expect(marks.filter((m) => matchesSelection(m, { alertType: 'rubin_forced' })).map((m) => m.passband)).toEqual(['u']);
    expect(marks.filter((m) => matchesSelection(m, { alertType: 'rubin_detection' })).map((m) => m.passband)).toEqual(['r']);
    expect(marks.filter((m) => matchesSelection(m, { passband: 'r' })).map((m) => m.alertId)).toEqual(['lsst:169298432598474793']);
  });
});
