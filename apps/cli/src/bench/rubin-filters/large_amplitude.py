"""Benchmark filter: the trigger more than doubled the template flux at more than 5.2 sigma (scipy.stats)."""
from scipy.stats import norm

import antares.devkit as dk


class LargeAmplitude(dk.Filter):
    TRIGGERING_SURVEY = 'lsst'
    REQUIRED_ALERT_PROPERTIES = ['lsst_diaSource_psfFlux', 'lsst_diaSource_psfFluxErr', 'lsst_diaSource_templateFlux']
    OUTPUT_TAGS = [{'name': 'bench_large_amplitude', 'description': 'Flux change above the template flux, p < 1e-7.'}]

    def run(self, locus):
        p = locus.alert.properties
        flux, err, template = p['lsst_diaSource_psfFlux'], p['lsst_diaSource_psfFluxErr'], p['lsst_diaSource_templateFlux']
        if None in (flux, err, template) or not err > 0 or not template > 0:
            return
        if flux > template and norm.sf(flux / err) < 1e-7:
            locus.tag('bench_large_amplitude')
