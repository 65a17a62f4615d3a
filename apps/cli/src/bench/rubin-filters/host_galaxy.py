"""Benchmark filter: the nearest catalogued galaxy within 3 of its radii, its redshift and separation
written on the locus (a KD-tree over a catalogue data file, scipy)."""
import io

import numpy as np
from scipy.spatial import cKDTree

import antares.devkit as dk


def unit(ra, dec):
    ra, dec = np.radians(ra), np.radians(dec)
    return np.stack([np.cos(dec) * np.cos(ra), np.cos(dec) * np.sin(ra), np.sin(dec)], axis=-1)


class HostGalaxy(dk.Filter):
    REQUIRES_FILES = ['galaxies.npy']
    OUTPUT_LOCUS_PROPERTIES = [
        {'name': 'bench_host_z', 'type': 'float', 'description': 'Redshift of the host galaxy'},
        {'name': 'bench_host_sep', 'type': 'float', 'description': 'Separation from the host [arcsec]'},
    ]
    OUTPUT_TAGS = [{'name': 'bench_host_galaxy', 'description': 'Within 3 radii of a catalogued galaxy.'}]

    def setup(self):
        self.galaxies = np.load(io.BytesIO(self.files['galaxies.npy']))  # ra, dec, radius [arcsec], z
        self.tree = cKDTree(unit(self.galaxies[:, 0], self.galaxies[:, 1]))

    def run(self, locus):
        chord, i = self.tree.query(unit(locus.ra, locus.dec), k=1,
                                   distance_upper_bound=np.radians(60 / 3600))
        if not np.isfinite(chord):
            return
        sep = float(np.degrees(2 * np.arcsin(chord / 2)) * 3600)
        if sep <= 3 * self.galaxies[i, 2]:
            locus.properties['bench_host_z'] = float(self.galaxies[i, 3])
            locus.properties['bench_host_sep'] = sep
            locus.tag('bench_host_galaxy')
