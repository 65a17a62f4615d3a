"""Benchmark filter: a blue (g - r < -0.1), young (first detection at most 20 days before the newest)
source, from the pipeline's per-band weighted mean magnitudes (numpy)."""
import numpy as np

import antares.devkit as dk


class BlueTransient(dk.Filter):
    TRIGGERING_SURVEY = 'lsst'
    OUTPUT_TAGS = [{'name': 'bench_blue_transient', 'description': 'g - r below -0.1, first detected at most 20 days earlier.'}]

    def run(self, locus):
        p = locus.properties
        g, r = p.get('feature_weighted_mean_magn_g'), p.get('feature_weighted_mean_magn_r')
        first, last = p.get('oldest_alert_observation_time'), p.get('newest_alert_observation_time')
        if None in (g, r, first, last) or last - first > 20:
            return
        if np.subtract(g, r) < -0.1:
            locus.tag('bench_blue_transient')
