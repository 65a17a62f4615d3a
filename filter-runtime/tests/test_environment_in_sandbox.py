"""The packages the filter environment promises (antares_runtime/environment.py) import inside the real
bubblewrap sandbox, under its memory and process limits, and each does one real computation on real ZTF
loci, checked against the same computation done here; a package we do not provide fails with a message
naming it and what is available."""
import os

import numpy as np
import pytest

import realdata
from antares_runtime.environment import PROVIDED_PACKAGES, REQUIRED_PACKAGES, missing_module_message

pytestmark = pytest.mark.skipif(not realdata.available(), reason='../shared/data is not here')
EVERY_PACKAGE = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'published_style', 'every_package.py')


def require_optional_packages():
    missing = []
    for module, _, debian, _ in PROVIDED_PACKAGES:
        try:
            __import__(module)
        except ImportError:
            missing.append(debian)
    if missing:
        message = f'the filter environment lacks {", ".join(missing)}: apt-get install -y {" ".join(missing)}'
        if os.environ.get('CI') == 'true':
            pytest.fail(message)
        pytest.skip(message)


def expected(locus):
    """The same numbers, computed here from the locus dict with the same packages."""
    import emcee
    import extinction
    import healpy
    import iminuit
    import iminuit.cost
    import skimage.filters
    import sncosmo
    import xgboost
    dets = sorted((a for a in locus['alerts'] if 'ant_mag' in a['properties']), key=lambda a: a['mjd'])
    t = np.array([a['mjd'] for a in dets])
    mag = np.array([a['properties']['ant_mag'] for a in dets])
    out = {'torch_mean_mag': mag.mean(), 'mpl_png_ok': 1.0, 'yaml_threshold': 0.25, 'requests_error': 'ConnectionError',
           'healpy_pixel': float(healpy.ang2pix(64, locus['ra'], locus['dec'], lonlat=True)),
           'skimage_otsu': float(skimage.filters.threshold_otsu(mag)),
           'extinction_g': float(extinction.fitzpatrick99(np.array([4770.0]), 0.31)[0]),
           'iminuit_slope': np.polyfit(t - t[0], mag, 1)[0]}  # equal errors: the least-squares line
    minuit = iminuit.Minuit(iminuit.cost.LeastSquares(t - t[0], mag, 0.1, lambda x, a, b: a + b * x), a=mag[0], b=0.0)
    minuit.migrad()
    assert minuit.values['b'] == pytest.approx(out['iminuit_slope'], rel=1e-3, abs=1e-6)
    out['iminuit_slope'] = minuit.values['b']
    wave = np.linspace(3000.0, 9000.0, 61)
    source = sncosmo.TimeSeriesSource(np.array([-20.0, -10.0, 0.0, 10.0, 20.0]), wave,
                                      np.outer([0.2, 0.5, 1.0, 0.5, 0.2], np.full(wave.size, 1e-15)))
    band = sncosmo.Bandpass([4000.0, 4500.0, 5000.0, 5500.0], [0.0, 1.0, 1.0, 0.0])
    out['sncosmo_flux'] = float(sncosmo.Model(source=source).bandflux(band, 0.0)) * 1e15
    sampler = emcee.EnsembleSampler(4, 1, lambda x: -0.5 * float(((x[0] - mag.mean()) / 0.5) ** 2))
    sampler.random_state = np.random.RandomState(3).get_state()
    sampler.run_mcmc(np.random.default_rng(2).normal(mag.mean(), 0.1, size=(4, 1)), 30)
    out['emcee_mean'] = float(sampler.get_chain().mean())
    x = np.random.default_rng(1).uniform(14, 21, size=(200, 1))
    model = xgboost.XGBRegressor(n_estimators=8, max_depth=2, nthread=1, random_state=0).fit(x, (x[:, 0] < 18).astype(float))
    out['xgboost_score'] = float(model.predict(np.array([[mag[-1]]]))[0])
    return out


def test_every_promised_package_computes_in_the_sandbox(sandboxed_worker, ztf):
    require_optional_packages()
    loci = [locus for locus in realdata.strip_private(ztf)
            if sum('ant_mag' in a['properties'] for a in locus['alerts']) >= 3][::8]
    worker = sandboxed_worker(locus_timeout_s=10.0)
    with open(EVERY_PACKAGE, encoding='utf-8') as fh:
        loaded = worker.load('every', fh.read())
    assert loaded['ok'], loaded.get('error')
    reports, done = worker.run('every', loci)
    assert len(loci) >= 10 and [r['status'] for r in reports] == ['ok'] * len(loci), [r.get('error') for r in reports][:2]
    tagged = 0
    for locus, report in zip(loci, reports):
        want = expected(locus)
        got = report['new_locus_properties']
        assert got.keys() == want.keys()
        for name, value in want.items():
            assert got[name] == (value if isinstance(value, str) else pytest.approx(value, rel=1e-6, abs=1e-9)), name
        assert report['new_tags'] == (['every_package_bright'] if want['xgboost_score'] > 0.25 else [])
        tagged += bool(report['new_tags'])
    assert 0 < tagged < len(loci)
    assert done['maxrss_kb'] < 2048 * 1024  # torch, xgboost and the rest fit the worker's memory limit


def test_matplotlib_is_headless_and_writes_its_cache_inside_the_sandbox(sandboxed_worker):
    require_optional_packages()
    worker = sandboxed_worker()
    code = ('import os, matplotlib\nimport matplotlib.pyplot as plt\nprint(matplotlib.get_backend(), '
            'matplotlib.get_cachedir(), os.environ["HOME"])\nfig = plt.figure(); fig.savefig("/tmp/x.png")\n'
            'print(os.path.getsize("/tmp/x.png") > 0)\nimport antares.devkit as dk\nclass F(dk.Filter):\n'
            '    def run(self, locus): pass\n')
    loaded = worker.load('mpl', code)
    assert loaded['ok'], loaded.get('error')
    backend, cache, home, wrote = loaded['stdout'].split()
    assert backend.lower() == 'agg' and cache.startswith('/tmp/') and home == '/tmp' and wrote == 'True'


@pytest.mark.parametrize('where', ['module', 'run'])
def test_a_package_we_do_not_provide_is_named(sandboxed_worker, where):
    worker = sandboxed_worker()
    head = 'import astroquery.jplhorizons\n' if where == 'module' else ''
    body = '        import astroquery.jplhorizons\n' if where == 'run' else '        pass\n'
    code = f'{head}import antares.devkit as dk\nclass F(dk.Filter):\n    def run(self, locus):\n{body}'
    loaded = worker.load('missing', code)
    if where == 'module':
        error = loaded['error']
    else:
        assert loaded['ok']
        reports, _ = worker.run('missing', [realdata_tiny()])
        error = reports[0]['error']
        assert reports[0]['status'] == 'error'
    assert error['type'] == 'ModuleNotFoundError'
    assert error['message'].startswith("this filter imports 'astroquery', which the ANTARES filter environment does "
                                       'not provide; available: numpy, scipy, pandas, astropy, statsmodels, '
                                       'scikit-learn (import sklearn), matplotlib, PyTorch (import torch)')
    assert 'antares.dev_kit' in error['message'] and 'astroquery' in error['traceback']


def realdata_tiny():
    from conftest import tiny_locus
    return tiny_locus()


def test_the_environment_list():
    names = [entry[0] for entry in PROVIDED_PACKAGES]
    assert names[:5] == list(REQUIRED_PACKAGES) and len(set(names)) == len(names) == 17
    assert missing_module_message(ModuleNotFoundError("No module named 'sklearn.nope'", name='sklearn.nope')) is None
    assert missing_module_message(ModuleNotFoundError('x', name='json')) is None
    message = missing_module_message(ModuleNotFoundError('x', name='lightgbm.sklearn'))
    assert message.startswith("this filter imports 'lightgbm', which the ANTARES filter environment does not provide")
