"""Benchmark filter: a logistic real/bogus model whose coefficients are a JSON data file (numpy, scipy.special)."""
import json

import numpy as np
from scipy.special import expit

import antares.devkit as dk


class RealBogusModel(dk.Filter):
    TRIGGERING_SURVEY = 'lsst'
    REQUIRES_FILES = ['real_bogus_model.json']
    OUTPUT_ALERT_PROPERTIES = [{'name': 'bench_real_score', 'type': 'float', 'description': 'Logistic real score'}]
    OUTPUT_TAGS = [{'name': 'bench_ml_real', 'description': 'Logistic real/bogus score above 0.97.'}]

    def setup(self):
        model = json.loads(self.files['real_bogus_model.json'])
        self.features = model['features']
        self.weights = np.array(model['weights'], dtype=float)
        self.bias = float(model['bias'])

    def run(self, locus):
        p = locus.alert.properties
        x = np.array([p.get('lsst_diaSource_' + f) or 0.0 for f in self.features], dtype=float)
        score = float(expit(self.bias + self.weights @ np.log1p(np.abs(x))))
        locus.alert.properties['bench_real_score'] = score
        if score > 0.97:
            locus.tag('bench_ml_real')
