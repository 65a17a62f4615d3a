"""One filter using every package the sandbox promises, each for one real computation on the locus
(apps/web's Filters page lists them: antares_runtime/environment.py)."""
import io

import emcee
import extinction
import healpy
import iminuit
import iminuit.cost
import matplotlib
import matplotlib.pyplot as plt
import numpy as np
import requests
import skimage.filters
import sncosmo
import torch
import xgboost
import yaml

import antares.devkit as dk

matplotlib.use('Agg')

PACKAGE_PROPERTIES = ['torch_mean_mag', 'mpl_png_ok', 'yaml_threshold', 'requests_error', 'sncosmo_flux',
                      'extinction_g', 'iminuit_slope', 'emcee_mean', 'healpy_pixel', 'skimage_otsu',
                      'xgboost_score']
CONFIG = """
threshold: 0.25
bands: [g, R]
"""


class EveryPackage(dk.Filter):
    OUTPUT_LOCUS_PROPERTIES = [{'name': n, 'type': 'str' if n == 'requests_error' else 'float',
                                'description': 'computed with ' + n.split('_')[0]} for n in PACKAGE_PROPERTIES]
    OUTPUT_TAGS = [{'name': 'every_package_bright', 'description': 'the xgboost model scores it above the threshold'}]

    def setup(self):
        self.config = yaml.safe_load(CONFIG)
        rng = np.random.default_rng(1)
        x = rng.uniform(14, 21, size=(200, 1))
        self.model = xgboost.XGBRegressor(n_estimators=8, max_depth=2, nthread=1, random_state=0)
        self.model.fit(x, (x[:, 0] < 18).astype(float))

    def run(self, locus):
        ts = locus.timeseries
        detected = ts[~ts['ant_mag'].mask]
        if len(detected) < 3:
            return
        t = np.asarray(detected['ant_mjd'], dtype=float)
        mag = np.asarray(detected['ant_mag'], dtype=float)
        props = locus.properties
        props['torch_mean_mag'] = float(torch.tensor(mag, dtype=torch.float64).mean())
        fig, ax = plt.subplots(figsize=(2, 2), dpi=50)
        ax.plot(t, mag, 'o')
        buf = io.BytesIO()
        fig.savefig(buf, format='png')
        plt.close(fig)
        props['mpl_png_ok'] = float(buf.getvalue()[:8] == b'\x89PNG\r\n\x1a\n')
        props['yaml_threshold'] = self.config['threshold']
        try:
            requests.get('http://192.0.2.1/', timeout=2)
            props['requests_error'] = 'none'
        except requests.exceptions.RequestException as exc:
            props['requests_error'] = type(exc).__name__
        wave = np.linspace(3000.0, 9000.0, 61)
        shape = np.array([[0.2], [0.5], [1.0], [0.5], [0.2]])
        source = sncosmo.TimeSeriesSource(np.linspace(-20.0, 20.0, 5), wave, np.ones((5, wave.size)) * 1e-15 * shape)
        band = sncosmo.Bandpass(np.array([4000.0, 4500.0, 5000.0, 5500.0]), np.array([0.0, 1.0, 1.0, 0.0]), name='box')
        props['sncosmo_flux'] = float(sncosmo.Model(source=source).bandflux(band, 0.0)) * 1e15
        props['extinction_g'] = float(extinction.fitzpatrick99(np.array([4770.0]), 3.1 * 0.1)[0])
        m = iminuit.Minuit(iminuit.cost.LeastSquares(t - t[0], mag, np.full(mag.size, 0.1),
                                                     lambda x, a, b: a + b * x), a=mag[0], b=0.0)
        m.migrad()
        props['iminuit_slope'] = float(m.values['b'])
        sampler = emcee.EnsembleSampler(4, 1, lambda x: -0.5 * float(((x[0] - mag.mean()) / 0.5) ** 2))
        state = np.random.default_rng(2).normal(mag.mean(), 0.1, size=(4, 1))
        sampler.random_state = np.random.RandomState(3).get_state()
        sampler.run_mcmc(state, 30)
        props['emcee_mean'] = float(sampler.get_chain().mean())
        props['healpy_pixel'] = float(healpy.ang2pix(64, locus.ra, locus.dec, lonlat=True))
        props['skimage_otsu'] = float(skimage.filters.threshold_otsu(mag))
        score = float(self.model.predict(np.array([[mag[-1]]]))[0])
        props['xgboost_score'] = score
        if score > self.config['threshold']:
            locus.tag('every_package_bright')
