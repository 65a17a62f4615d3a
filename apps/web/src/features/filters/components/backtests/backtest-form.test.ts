import { describe, expect, it } from 'vitest';

import { backtestRequest, durationText, EMPTY_FORM, shareText } from './backtest-form';

describe('backtest form', () => {
  it('sends the cap alone when the window and search are blank', () => {
    expect(backtestRequest(EMPTY_FORM)).toEqual({ request: { max_loci: 1000 } });
  });

  it('takes dates as whole UTC days and MJDs as they are', () => {
    const dates = backtestRequest({ ...EMPTY_FORM, from: '2000-01-01', to: '2000-01-01' });
    expect(dates).toEqual({ request: { max_loci: 1000, from_mjd: 51544, to_mjd: 51545 } });
    const mjd = backtestRequest({ ...EMPTY_FORM, unit: 'mjd', from: '60000.5', to: '60010' });
    expect(mjd).toEqual({ request: { max_loci: 1000, from_mjd: 60000.5, to_mjd: 60010 } });
  });

  it('names the problem with a bad window, cap or search', () => {
    expect(backtestRequest({ ...EMPTY_FORM, from: '2001-13-01' })).toEqual({ problem: 'From must be a date (YYYY-MM-DD).' });
    expect(backtestRequest({ ...EMPTY_FORM, unit: 'mjd', from: '10', to: '5' })).toEqual({ problem: 'From must not be after To.' });
    expect(backtestRequest({ ...EMPTY_FORM, maxLoci: '0' })).toHaveProperty('problem');
    expect(backtestRequest({ ...EMPTY_FORM, search: '{"query":' })).toHaveProperty('problem');
    expect(backtestRequest({ ...EMPTY_FORM, search: '[1]' })).toHaveProperty('problem');
    const search = { query: { bool: { filter: [{ terms: { tags: ['a'] } }] } } };
    expect(backtestRequest({ ...EMPTY_FORM, search: JSON.stringify(search) })).toEqual({
      request: { max_loci: 1000, elasticsearch_query: search },
    });
  });

  it('writes durations and shares for people', () => {
    expect(durationText(12.4)).toBe('12 s');
    expect(durationText(200)).toBe('3 min 20 s');
    expect(durationText(3900)).toBe('1 h 5 min');
    expect(shareText(0.00012)).toBe('0.012 %');
    expect(shareText(0.25)).toBe('25.0 %');
    expect(shareText(null)).toBe('n/a');
  });
});
