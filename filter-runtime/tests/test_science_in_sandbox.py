"""Filters in the style of community ones that lean on the scientific stack (astropy coordinates, time
and periodograms, scipy fits and statistics, statsmodels regression, a pickled scikit-learn model from
REQUIRES_FILES) run inside the bubblewrap sandbox on real ZTF loci; each value they store is compared
with the same computation done here, outside the sandbox, straight from the alert packets."""
import math
import pickle

import pytest

import realdata

pytestmark = pytest.mark.skipif(not realdata.available(), reason='../shared/data is not here')

SCIENCE_FILTER = '''
import pickle

import numpy as np
import scipy.optimize
import scipy.stats
import statsmodels.api as sm
import astropy.units as u
from astropy.coordinates import SkyCoord
from astropy.time import Time
from astropy.timeseries import LombScargle

import antares.devkit as dk


def line(t, a, b):
    return a + b * t


class ScienceStack(dk.Filter):
    INPUT_ALERT_PROPERTIES = ['ant_mag', 'ant_magerr']
    OUTPUT_LOCUS_PROPERTIES = [
        {'name': 'sci_galactic_b', 'type': 'float', 'description': 'Galactic latitude (astropy)'},
        {'name': 'sci_first_isot', 'type': 'str', 'description': 'first detection, ISO time (astropy)'},
        {'name': 'sci_ls_power', 'type': 'float', 'description': 'peak Lomb-Scargle power (astropy)'},
        {'name': 'sci_fit_slope', 'type': 'float', 'description': 'mag per day (scipy curve_fit)'},
        {'name': 'sci_wls_slope', 'type': 'float', 'description': 'mag per day (statsmodels WLS)'},
        {'name': 'sci_skew', 'type': 'float', 'description': 'skewness of magnitudes (scipy.stats)'},
        {'name': 'sci_anomaly', 'type': 'float', 'description': 'IsolationForest score (scikit-learn)'},
    ]
    OUTPUT_TAGS = [{'name': 'sci_fading', 'description': 'fading by more than 0.01 mag per day'}]
    REQUIRES_FILES = ['isolation_forest.pkl']

    def setup(self):
        self.model = pickle.loads(self.files['isolation_forest.pkl'])

    def run(self, locus):
        ts = locus.timeseries
        detected = ts[~ts['ant_mag'].mask]
        if len(detected) < 3:
            return
        t = np.asarray(detected['ant_mjd'], dtype=float)
        mag = np.asarray(detected['ant_mag'], dtype=float)
        err = np.asarray(detected['ant_magerr'], dtype=float)
        sky = SkyCoord(locus.ra * u.deg, locus.dec * u.deg, frame='icrs')
        locus.properties['sci_galactic_b'] = float(sky.galactic.b.deg)
        locus.properties['sci_first_isot'] = Time(t[0], format='mjd', scale='utc').isot
        frequency, power = LombScargle(t, mag, err).autopower(minimum_frequency=0.05, maximum_frequency=2.0,
                                                              samples_per_peak=5)
        locus.properties['sci_ls_power'] = float(power.max())
        (_, slope), _ = scipy.optimize.curve_fit(line, t - t[0], mag, sigma=err, p0=(mag[0], 0.0))
        locus.properties['sci_fit_slope'] = float(slope)
        wls = sm.WLS(mag, sm.add_constant(t - t[0]), weights=1.0 / err ** 2).fit()
        locus.properties['sci_wls_slope'] = float(wls.params[1])
        locus.properties['sci_skew'] = float(scipy.stats.skew(mag))
        features = [[mag.mean(), mag.std(), len(mag)]]
        locus.properties['sci_anomaly'] = float(self.model.score_samples(features)[0])
        if wls.params[1] > 0.01:
            locus.tag('sci_fading')
'''


def expected(locus, model):
    """The same numbers, computed here from the locus dict (not through the runtime's locus object)."""
    import numpy as np
    import scipy.stats
    import statsmodels.api as sm
    import astropy.units as u
    from astropy.coordinates import SkyCoord
    from astropy.time import Time
    from astropy.timeseries import LombScargle
    points = sorted((a['mjd'], a['properties']['ant_mag'], a['properties']['ant_magerr'])
                    for a in locus['alerts'] if 'ant_mag' in a['properties'])
    if len(points) < 3:
        return None
    t, mag, err = (np.array(column, dtype=float) for column in zip(*points))
    _, power = LombScargle(t, mag, err).autopower(minimum_frequency=0.05, maximum_frequency=2.0, samples_per_peak=5)
    wls = sm.WLS(mag, sm.add_constant(t - t[0]), weights=1.0 / err ** 2).fit()
    return {
        'sci_galactic_b': SkyCoord(locus['ra'] * u.deg, locus['dec'] * u.deg).galactic.b.deg,
        'sci_first_isot': Time(t[0], format='mjd', scale='utc').isot,
        'sci_ls_power': power.max(),
        'sci_fit_slope': wls.params[1],  # curve_fit of a line with sigma=err minimises the same sum
        'sci_wls_slope': wls.params[1],
        'sci_skew': scipy.stats.skew(mag),
        'sci_anomaly': model.score_samples([[mag.mean(), mag.std(), len(mag)]])[0],
    }


def test_scientific_stack_filter_in_the_sandbox_matches_the_same_maths_outside(sandboxed_worker, ztf):
    import numpy as np
    from sklearn.ensemble import IsolationForest
    model = IsolationForest(n_estimators=50, random_state=0).fit(
        np.random.default_rng(0).normal([18.5, 0.3, 6.0], [1.0, 0.1, 3.0], size=(200, 3)))
    worker = sandboxed_worker()
    loaded = worker.load('science', SCIENCE_FILTER, files={'isolation_forest.pkl': pickle.dumps(model)})
    assert loaded['ok'], loaded
    reports, _ = worker.run('science', realdata.strip_private(ztf))
    assert [r['status'] for r in reports] == ['ok'] * len(ztf), [r.get('error') for r in reports if r['status'] != 'ok'][:1]
    compared = 0
    for locus, report in zip(ztf, reports):
        want = expected(locus, model)
        got = report['new_locus_properties']
        if want is None:
            assert got == {} and report['new_tags'] == []
            continue
        compared += 1
        assert set(got) == set(want), locus['locus_id']
        assert got['sci_first_isot'] == want.pop('sci_first_isot')
        for name, value in want.items():
            if not math.isfinite(value):  # PROTOCOL.md: JSON has no NaN/inf, a float output stores null
                assert got[name] is None, (locus['locus_id'], name)
                continue
            # curve_fit iterates to the WLS answer (about 1e-6 apart); the rest is the same closed form.
            rel = 1e-4 if name == 'sci_fit_slope' else 1e-9
            assert got[name] == pytest.approx(value, rel=rel, abs=1e-12), (locus['locus_id'], name)
        assert report['new_tags'] == (['sci_fading'] if want['sci_wls_slope'] > 0.01 else [])
    assert compared >= 100, f'only {compared} real loci had 3 detections'
    assert any(r['new_tags'] for r in reports) and not all(r['new_tags'] for r in reports if r['new_locus_properties'])
