import { describe, expect, it } from 'vitest';
import { parseLightcurve } from '../../api/lightcurve';
import { buildMarks, matchesSelection } from './lightcurve-marks';
import { alertTypeLabel, alertTypeOf, passbandColor, sortPassbands } from './survey-codes';

const HEADER = 'time,alert_id,ant_mjd,ant_survey,ant_ra,ant_dec,ant_passband,ant_mag,ant_magerr,ant_maglim,ant_mag_corrected,ant_magerr_corrected,ant_magulim_corrected,ant_magllim_corrected';

describe('survey codes on the charts', () => {
  it('gives the seven passbands of ZTF and Rubin seven distinct colours', () => {
    const bands = ['u', 'g', 'r', 'i', 'z', 'y', 'R'];
    expect(new Set(bands.map(passbandColor)).size).toBe(7);
    expect(passbandColor('R')).not.toBe(passbandColor('r'));
    expect(passbandColor('Y')).toBe(passbandColor('unknown'));
    expect(sortPassbands(['y', 'R', 'g', 'z', 'r', 'u', 'i', 'g', 'q'])).toEqual(['u', 'g', 'r', 'R', 'i', 'z', 'y', 'q']);
  });

  it('reads the alert type from ant_survey, else from the alert id prefix', () => {
    expect(alertTypeOf({ alert_id: 'x', ant_survey: 3 })).toBe(3);
    expect(alertTypeOf({ alert_id: 'lsst:169298432598474793' })).toBe(3);
    expect(alertTypeOf({ alert_id: 'lsst_forced:169298432598474793' })).toBe(4);
    expect(alertTypeOf({ alert_id: 'ztf_candidate:2552120390115015005' })).toBe(1);
    expect(alertTypeOf({ alert_id: 'ztf_upper_limit:ZTF21abc-123' })).toBe(2);
    expect(alertTypeOf({ alert_id: 'other' })).toBeUndefined();
    expect([1, 2, 3, 4, 9].map((code) => alertTypeLabel(code))).toEqual(['ZTF candidate', 'ZTF upper limit', 'Rubin detection', 'Rubin forced photometry', 'Survey code 9']);
    expect(alertTypeLabel(4, 'short')).toBe('Rubin forced phot.');
  });

  it('draws Rubin detections as magnitudes and empty forced photometry as upper limits, keeping the long ids', () => {
    const csv = [
      HEADER,
      'x,lsst:169298432598474793,60800.1,3,10,20,r,21.5,0.1,,,,,',
      'x,lsst_forced:169298432598474794,60801.1,4,10,20,y,,,23.9,,,,',
      'x,lsst_forced:169298432598474795,60802.1,4,10,20,u,22.1,0.3,,,,,',
      'x,ztf_candidate:2552120390115015005,60803.1,1,10,20,R,19.5,0.1,20.5,,,,',
    ].join('\n');
    const points = parseLightcurve(csv);
    expect(points[0].alert_id).toBe('lsst:169298432598474793');
    const marks = buildMarks(points, new Map());
    expect(marks.map((m) => [m.passband, m.kind, m.alertType])).toEqual([
      ['r', 'magnitude', 3],
      ['y', 'upper_limit', 4],
      ['u', 'magnitude', 4],
      ['R', 'magnitude', 1],
    ]);
    expect(marks.filter((m) => matchesSelection(m, { alertType: 4 })).map((m) => m.passband)).toEqual(['y', 'u']);
    expect(marks.filter((m) => matchesSelection(m, { passband: 'r' })).map((m) => m.alertId)).toEqual(['lsst:169298432598474793']);
  });
});
