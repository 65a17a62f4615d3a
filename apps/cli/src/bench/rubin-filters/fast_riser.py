"""Benchmark filter: a young source rising faster than 0.15 mag/day in some Rubin band (the pipeline's
per-band linear-fit slopes, numpy)."""
import numpy as np

import antares.devkit as dk

BANDS = 'ugrizy'


class FastRiser(dk.Filter):
    TRIGGERING_SURVEY = 'lsst'
    OUTPUT_TAGS = [{'name': 'bench_fast_riser', 'description': 'Rising faster than 0.15 mag/day, at most 30 detections.'}]

    def run(self, locus):
        props = locus.properties
        if props.get('num_mag_values', 0) > 30:
            return
        slopes = np.array([props.get(f'feature_linear_fit_slope_magn_{b}', np.nan) for b in BANDS], dtype=float)
        if np.any(slopes < -0.15):
            locus.tag('bench_fast_riser')
