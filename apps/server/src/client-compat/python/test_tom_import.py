"""A TOM Toolkit-style import (what tom_antares' AntaresDataService does, without Django): search, then a target
from each result and its photometry from locus.lightcurve, labelled by ant_survey (1, 2 ZTF, 3 DECam, 4 LSST)."""
import json
import math

import numpy as np
from astropy.time import Time, TimezoneInfo

from conftest import expected_alerts
from test_locus import TIME_TOLERANCE_DAYS

SURVEYS = {1: 'ZTF', 2: 'ZTF', 3: 'DECAT', 4: 'LSST'}  # tom_antares' table (antares_devkit.models.SURVEYS)


def finite(value):
    return isinstance(value, float) and np.isfinite(value)


def serialize_locus(locus):
    return {'name': locus.locus_id, 'ra': locus.ra, 'dec': locus.dec, 'mag': locus.properties.get('newest_alert_magnitude', ''),
            'tags': locus.tags, 'aliases': [locus.locus_id] + [locus.properties[k] for k in ['ztf_object_id'] if locus.properties.get(k)],
            'reduced_datums': {'photometry': json.loads(locus.lightcurve.to_json(orient='records'))}}


def reduced_datums(photometry):
    datums = []
    for datum in photometry:
        if not finite(datum['ant_mag']) and not finite(datum['ant_maglim']):
            continue
        datums.append({
            'alert_id': datum['alert_id'],
            'timestamp': Time(datum['time'], format='iso', scale='utc').to_datetime(TimezoneInfo()),
            'telescope': SURVEYS[datum['ant_survey']],
            'brightness': datum['ant_mag'] if finite(datum['ant_mag']) else None,
            'brightness_error': datum['ant_magerr'] if finite(datum['ant_magerr']) else None,
            'limit': datum['ant_maglim'] if finite(datum['ant_maglim']) else None,
            'bandpass': datum['ant_passband'],
        })
    return datums


def check_target(locus, target, expected):
    assert (target['name'], target['ra'], target['dec']) == (locus.locus_id, locus.ra, locus.dec)
    alerts = expected_alerts(expected, locus)
    datums = reduced_datums(target['reduced_datums']['photometry'])
    assert sorted(d['alert_id'] for d in datums) == sorted(a.alert_id for a in alerts.values() if a.mag is not None or a.maglim is not None)
    for datum in datums:
        alert = alerts[datum['alert_id']]
        assert datum['telescope'] == ('ZTF' if alert.alert_id.startswith('ztf_') else 'LSST'), datum
        mjd = Time(datum['timestamp']).mjd
        assert abs(mjd - alert.mjd) < TIME_TOLERANCE_DAYS and datum['bandpass'] == alert.passband
        for served, wanted in ((datum['brightness'], alert.mag), (datum['limit'], alert.maglim), (datum['brightness_error'], alert.magerr)):
            # DataFrame.to_json keeps 10 decimal places.
            assert (served is None) == (wanted is None) and (served is None or math.isclose(served, wanted, rel_tol=1e-9, abs_tol=1e-10))
    return datums


def test_import_the_results_of_a_tom_query(search, expected, facts):
    # The TOM form's filters: number of measurements, newest magnitude, and (with filters run) a tag.
    filters = [{'range': {'properties.num_mag_values': {'gte': 2, 'lte': 500}}},
               {'range': {'properties.newest_alert_magnitude': {'gte': 10, 'lte': 23}}}]
    if facts['level2']:
        filters.append({'terms': {'tags': sorted(facts['tags'])}})
    loci = list(search.search({'query': {'bool': {'filter': filters}}}))
    assert len(loci) >= 20
    telescopes = set()
    for locus in loci:
        target = serialize_locus(locus)
        telescopes |= {d['telescope'] for d in check_target(locus, target, expected)}
        assert set(target['tags']) & set(facts['tags']) if facts['level2'] else True
    assert 'ZTF' in telescopes


def test_import_by_ztf_id_and_by_antares_id(search, expected):
    for object_id in sorted(expected.ztf)[::9]:
        locus = search.get_by_ztf_object_id(object_id)
        target = serialize_locus(locus)
        check_target(locus, target, expected)
        assert object_id in target['aliases'] or object_id in locus.properties['survey']['ztf']['id']
        again = search.get_by_id(target['name'])
        check_target(again, serialize_locus(again), expected)


def test_rubin_photometry_is_labelled_lsst(search, expected):
    for object_id in sorted(expected.rubin)[::15]:
        locus = search.get_by_lsst_dia_object_id(object_id)
        datums = check_target(locus, serialize_locus(locus), expected)
        assert datums and {d['telescope'] for d in datums if d['alert_id'].startswith('lsst')} == {'LSST'}
