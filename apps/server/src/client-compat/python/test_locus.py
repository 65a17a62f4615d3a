"""A locus through the client: get_by_id, and the lazily fetched lightcurve (pandas), timeseries (astropy),
alerts, coordinates and to_devkit, checked value by value against the packets."""
import math

import astropy.units as u
import numpy as np
import pandas as pd
import pytest
from astropy.coordinates import SkyCoord
from astropy.time import Time
from astropy.timeseries import TimeSeries

from conftest import expected_alerts, survey_ids

# The CSV's time column is to the millisecond.
TIME_TOLERANCE_DAYS = 1.2e-3 / 86400
COLUMNS = ['time', 'alert_id', 'ant_mjd', 'ant_survey', 'ant_ra', 'ant_dec', 'ant_passband', 'ant_mag', 'ant_magerr',
           'ant_maglim', 'ant_mag_corrected', 'ant_magerr_corrected', 'ant_magulim_corrected', 'ant_magllim_corrected']


def same(value, wanted):
    """A stored number against the packet's (None: missing, which the CSV and pandas make NaN)."""
    if wanted is None:
        return value is None or (isinstance(value, float) and math.isnan(value))
    return value is not None and math.isclose(float(value), float(wanted), rel_tol=1e-12, abs_tol=1e-12)


def check_lightcurve(frame, alerts):
    assert isinstance(frame, pd.DataFrame) and list(frame.columns) == COLUMNS
    assert sorted(frame['alert_id']) == sorted(alerts)
    assert list(frame['ant_mjd']) == sorted(frame['ant_mjd'])  # oldest first
    for row in frame.itertuples(index=False):
        alert = alerts[row.alert_id]
        assert same(row.ant_mjd, alert.mjd) and row.ant_survey == alert.survey and row.ant_passband == alert.passband, row
        assert same(row.ant_mag, alert.mag) and same(row.ant_magerr, alert.magerr) and same(row.ant_maglim, alert.maglim), row
        assert same(row.ant_ra, alert.ra) and same(row.ant_dec, alert.dec), row
        assert abs(Time(row.time, format='iso', scale='utc').mjd - alert.mjd) < TIME_TOLERANCE_DAYS, row


@pytest.fixture(scope='module')
def sample(every_locus, expected):
    """Every real locus (ZTF and Rubin) and every eighth demo one."""
    real = [locus for locus in every_locus
            if not (set(survey_ids(locus)[0]) | set(survey_ids(locus)[1])) <= expected.demo_objects]
    demo = [locus for locus in every_locus if locus not in real]
    return real + demo[::8]


def test_lightcurve_of_every_locus_found_by_search(every_locus, expected):
    # Search results carry no lightcurve: the client fetches /v1/loci/{id} for it (what TOMs do for each result).
    for locus in every_locus:
        check_lightcurve(locus.lightcurve, expected_alerts(expected, locus))


def test_get_by_id(search, sample, expected):
    for listed in sample:
        locus = search.get_by_id(listed.locus_id)
        assert locus is not None and locus.locus_id == listed.locus_id
        assert (locus.ra, locus.dec, locus.tags, locus.catalogs) == (listed.ra, listed.dec, listed.tags, listed.catalogs)
        assert locus.properties == listed.properties
        alerts = expected_alerts(expected, locus)
        mags = [a.mag for a in alerts.values() if a.mag is not None]
        assert locus.properties['num_alerts'] == len(alerts) and locus.properties['num_mag_values'] == len(mags)
        if mags:
            assert same(locus.properties['brightest_alert_magnitude'], min(mags))
        check_lightcurve(locus.lightcurve, alerts)


def test_alerts(sample, expected):
    for locus in sample:
        wanted = expected_alerts(expected, locus)
        alerts = locus.alerts
        assert sorted(a.alert_id for a in alerts) == sorted(wanted)
        for alert in alerts:
            source = wanted[alert.alert_id]
            props = alert.properties
            assert same(alert.mjd, source.mjd) and props['ant_survey'] == source.survey and alert.processed_at is not None
            assert isinstance(alert.grav_wave_events, list)
            if alert.alert_id.startswith('ztf_candidate:'):
                assert str(props['ztf_candid']) == str(source.raw['candid']) and same(props['ztf_magpsf'], source.raw['magpsf'])
                assert props['ztf_fid'] == source.raw['fid'] and same(props['ztf_rb'], source.raw.get('rb'))
            elif alert.alert_id.startswith('lsst:'):
                assert str(props['lsst_diaSource_diaSourceId']) == str(source.raw['diaSourceId'])
                assert same(props['lsst_diaSource_psfFlux'], source.raw['psfFlux']) and same(props.get('ant_mag'), source.mag)
            elif alert.alert_id.startswith('lsst_forced:'):
                assert props['ant_forced_photometry'] is True and same(props.get('ant_mag'), source.mag)


def masked(column, i):
    return column is None or np.ma.is_masked(column[i]) or (isinstance(column[i], float) and math.isnan(column[i]))


def test_timeseries(sample, expected):
    for locus in sample[::3]:
        series = locus.timeseries
        wanted = expected_alerts(expected, locus)
        assert isinstance(series, TimeSeries) and len(series) == len(wanted)
        alerts = locus.alerts
        # One row per alert, in the order the alerts come, at the alert's time.
        assert np.allclose(series.time.mjd, [a.mjd for a in alerts], rtol=0, atol=1e-8)
        assert np.allclose(series.time.mjd, [wanted[a.alert_id].mjd for a in alerts], rtol=0, atol=1e-8)

        def column(name):
            return series[name] if name in series.colnames else None
        mags, magerrs, maglims = column('ant_mag'), column('ant_magerr'), column('ant_maglim')
        for i, alert in enumerate(alerts):
            source = wanted[alert.alert_id]
            assert series['ant_survey'][i] == source.survey and series['ant_passband'][i] == source.passband, alert.alert_id
            assert same(float(series['ant_mjd'][i]), source.mjd)
            for values, value in ((mags, source.mag), (magerrs, source.magerr), (maglims, source.maglim)):
                if value is None:
                    assert masked(values, i), alert.alert_id
                else:
                    assert same(float(values[i]), value), alert.alert_id
            if alert.alert_id.startswith('ztf_candidate:'):
                assert series['ztf_fid'][i] == source.raw['fid'] and same(float(series['ztf_magpsf'][i]), source.raw['magpsf'])


def test_coordinates(sample, expected):
    for locus in sample:
        centre = locus.coordinates
        assert isinstance(centre, SkyCoord)
        assert math.isclose(centre.ra.deg, locus.ra, abs_tol=1e-12) and math.isclose(centre.dec.deg, locus.dec, abs_tol=1e-12)
        # Every detection the locus holds lies near its centre (alerts join a locus within 1").
        for alert in expected_alerts(expected, locus).values():
            if alert.ra is not None:
                assert centre.separation(SkyCoord(alert.ra * u.deg, alert.dec * u.deg)) < 2 * u.arcsec


def test_to_devkit(sample, expected):
    for locus in sample[::4]:
        devkit = locus.to_devkit()
        assert devkit['id'] == locus.locus_id and (devkit['ra'], devkit['dec']) == (locus.ra, locus.dec)
        assert devkit['user_tags'] == locus.tags and devkit['old_properties'] == locus.properties
        assert devkit['catalog_objects'] == {} and devkit['grav_wave_events_metadata'] == {}
        wanted = expected_alerts(expected, locus)
        assert sorted(a['id'] for a in devkit['alerts']) == sorted(wanted)
        for alert in devkit['alerts']:
            assert same(alert['mjd'], wanted[alert['id']].mjd) and isinstance(alert['grav_wave_events'], list)
