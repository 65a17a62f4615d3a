"""Benchmark filter: a bright star within 2" (a KD-tree over a catalogue data file, scipy)."""
import io

import numpy as np
from scipy.spatial import cKDTree

import antares.devkit as dk


def unit(ra, dec):
    ra, dec = np.radians(ra), np.radians(dec)
    return np.stack([np.cos(dec) * np.cos(ra), np.cos(dec) * np.sin(ra), np.sin(dec)], axis=-1)


class StarVeto(dk.Filter):
    REQUIRES_FILES = ['bright_stars.npy']
    OUTPUT_TAGS = [{'name': 'bench_near_star', 'description': 'A catalogued bright star lies within 2 arcsec.'}]

    def setup(self):
        stars = np.load(io.BytesIO(self.files['bright_stars.npy']))
        self.tree = cKDTree(unit(stars[:, 0], stars[:, 1]))
        self.radius = 2 * np.radians(2.0 / 3600 / 2)  # chord of 2 arcsec

    def run(self, locus):
        if self.tree.query_ball_point(unit(locus.ra, locus.dec), self.radius):
            locus.tag('bench_near_star')
