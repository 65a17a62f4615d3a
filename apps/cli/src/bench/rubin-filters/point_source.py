"""Benchmark filter: a point-like difference source, its second moments within 10 % of the PSF's
(numpy, astropy.units for the FWHM)."""
import numpy as np
import astropy.units as u

import antares.devkit as dk

SIGMA_TO_FWHM = 2 * np.sqrt(2 * np.log(2))


class PointSource(dk.Filter):
    TRIGGERING_SURVEY = 'lsst'
    REQUIRED_ALERT_PROPERTIES = ['lsst_diaSource_ixx', 'lsst_diaSource_iyy', 'lsst_diaSource_ixxPSF', 'lsst_diaSource_iyyPSF']
    OUTPUT_ALERT_PROPERTIES = [{'name': 'bench_fwhm', 'type': 'float', 'description': 'PSF FWHM [arcsec]'}]
    OUTPUT_TAGS = [{'name': 'bench_point_source', 'description': 'Second moments within 10 % of the PSF.'}]

    def run(self, locus):
        p = locus.alert.properties
        size = p['lsst_diaSource_ixx'] + p['lsst_diaSource_iyy']
        psf = p['lsst_diaSource_ixxPSF'] + p['lsst_diaSource_iyyPSF']
        if not psf or psf <= 0:
            return
        fwhm = (SIGMA_TO_FWHM * np.sqrt(psf / 2) * u.arcsec).to_value(u.arcsec)
        locus.alert.properties['bench_fwhm'] = float(fwhm)
        if abs(size / psf - 1) < 0.1:
            locus.tag('bench_point_source')
