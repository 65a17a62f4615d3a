"""Benchmark filter: a positive Rubin detection within 0.5" of a catalogued galaxy's centre (scipy KD-tree
over the same galaxy data file as host_galaxy)."""
import io

import numpy as np
from scipy.spatial import cKDTree

import antares.devkit as dk


def unit(ra, dec):
    ra, dec = np.radians(ra), np.radians(dec)
    return np.stack([np.cos(dec) * np.cos(ra), np.cos(dec) * np.sin(ra), np.sin(dec)], axis=-1)


class NuclearHost(dk.Filter):
    TRIGGERING_SURVEY = 'lsst'
    REQUIRES_FILES = ['galaxies.npy']
    OUTPUT_TAGS = [{'name': 'bench_nuclear', 'description': 'Positive detection within 0.5 arcsec of a galaxy centre.'}]

    def setup(self):
        galaxies = np.load(io.BytesIO(self.files['galaxies.npy']))
        self.tree = cKDTree(unit(galaxies[:, 0], galaxies[:, 1]))

    def run(self, locus):
        p = locus.alert.properties
        if p.get('lsst_diaSource_isNegative') or not (p.get('lsst_diaSource_psfFlux') or 0) > 0:
            return
        where = unit(p['lsst_diaSource_ra'], p['lsst_diaSource_dec'])
        if self.tree.query_ball_point(where, np.radians(0.5 / 3600)):
            locus.tag('bench_nuclear')
