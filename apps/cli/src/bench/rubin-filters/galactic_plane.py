"""Benchmark filter: Galactic latitude of the locus (astropy for the frame, numpy per locus)."""
import numpy as np
from astropy.coordinates import SkyCoord
import astropy.units as u

import antares.devkit as dk


class GalacticPlane(dk.Filter):
    OUTPUT_LOCUS_PROPERTIES = [{'name': 'bench_galactic_b', 'type': 'float', 'description': 'Galactic latitude [deg]'}]
    OUTPUT_TAGS = [{'name': 'bench_galactic_plane', 'description': 'Within 10 deg of the Galactic plane.'}]

    def setup(self):
        # The ICRS -> Galactic rotation, from astropy once: per locus a matrix product, not a frame transform (~1 ms).
        basis = SkyCoord(x=[1, 0, 0], y=[0, 1, 0], z=[0, 0, 1], representation_type='cartesian', frame='icrs')
        self.rotation = np.array(basis.galactic.cartesian.xyz.to_value(u.one))

    def run(self, locus):
        ra, dec = np.radians(locus.ra), np.radians(locus.dec)
        v = np.array([np.cos(dec) * np.cos(ra), np.cos(dec) * np.sin(ra), np.sin(dec)])
        b = float(np.degrees(np.arcsin(np.clip(self.rotation.T @ v, -1, 1)[2])))
        locus.properties['bench_galactic_b'] = b
        if abs(b) < 10:
            locus.tag('bench_galactic_plane')
