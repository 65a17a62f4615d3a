"""Benchmark filter: Galactic E(B-V) at the locus from a dust-map data file (a 0.5 deg grid, numpy)."""
import io

import numpy as np

import antares.devkit as dk


class Extinction(dk.Filter):
    REQUIRES_FILES = ['ebv_grid.npy']
    OUTPUT_LOCUS_PROPERTIES = [{'name': 'bench_ebv', 'type': 'float', 'description': 'Galactic E(B-V) [mag]'}]
    OUTPUT_TAGS = [{'name': 'bench_low_extinction', 'description': 'Galactic E(B-V) below 0.05 mag.'}]

    def setup(self):
        self.grid = np.load(io.BytesIO(self.files['ebv_grid.npy']))  # dec rows from -90, ra columns from 0

    def run(self, locus):
        rows, cols = self.grid.shape
        r = min(rows - 1, int((locus.dec + 90) / 180 * rows))
        c = min(cols - 1, int(locus.ra / 360 * cols))
        ebv = float(self.grid[r, c])
        locus.properties['bench_ebv'] = ebv
        if ebv < 0.05:
            locus.tag('bench_low_extinction')
