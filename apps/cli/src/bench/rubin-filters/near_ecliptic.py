"""Benchmark filter: loci near the ecliptic with a trailed triggering detection (astropy frame, numpy)."""
import numpy as np
from astropy.coordinates import BarycentricMeanEcliptic, SkyCoord
import astropy.units as u

import antares.devkit as dk


class NearEcliptic(dk.Filter):
    TRIGGERING_SURVEY = 'lsst'
    OUTPUT_TAGS = [{'name': 'bench_near_ecliptic', 'description': 'Within 5 deg of the ecliptic, trailed more than the PSF.'}]

    def setup(self):
        basis = SkyCoord(x=[1, 0, 0], y=[0, 1, 0], z=[0, 0, 1], representation_type='cartesian', frame='icrs')
        self.rotation = np.array(basis.transform_to(BarycentricMeanEcliptic()).cartesian.xyz.to_value(u.one))

    def run(self, locus):
        ra, dec = np.radians(locus.ra), np.radians(locus.dec)
        v = np.array([np.cos(dec) * np.cos(ra), np.cos(dec) * np.sin(ra), np.sin(dec)])
        beta = np.degrees(np.arcsin(np.clip(self.rotation.T @ v, -1, 1)[2]))
        if abs(beta) >= 5:
            return
        p = locus.alert.properties
        trail, ixx = p.get('lsst_diaSource_trailLength'), p.get('lsst_diaSource_ixxPSF')
        if trail is not None and ixx and trail > 2.3548 * np.sqrt(ixx):
            locus.tag('bench_near_ecliptic')
