"""Benchmark filter: a periodic-looking variable: Stetson K and beyond-1-std of the pipeline's features
in two bands, with a chi-square test of the amplitude against the mean error (scipy.stats)."""
from scipy.stats import chi2

import antares.devkit as dk


class VariableStar(dk.Filter):
    OUTPUT_TAGS = [{'name': 'bench_variable', 'description': 'Variable in two bands (amplitude significant at p < 1e-6).'}]

    def run(self, locus):
        p = locus.properties
        n = p.get('num_mag_values', 0)
        if n < 20:
            return
        bands = 0
        for b in 'ugrizy':
            amp, sd = p.get(f'feature_amplitude_magn_{b}'), p.get(f'feature_standard_deviation_magn_{b}')
            if amp is None or not sd:
                continue
            if chi2.sf((amp / sd) ** 2 * 2, 2) < 1e-6 or p.get(f'feature_stetson_k_magn_{b}', 1) < 0.7:
                bands += 1
        if bands >= 2:
            locus.tag('bench_variable')
