"""Rubin quality transient: a real, positive, cleanly measured Rubin detection of a young source.

The Rubin counterpart of the ZTF quality cuts that nuclear_transient and refitt_newsources_snrcut make,
on the triggering DiaSource (`lsst_diaSource_*`, TRIGGERING_SURVEY 'lsst'). All of these:

- Real: Rubin's machine-learned `reliability` >= 0.9. Level 1 keeps every DiaSource above 5 sigma
  without flagged pixels at the centroid; artefacts of difference imaging (bad subtractions, ghosts,
  cosmic rays on the template) still pass it and are what `reliability` scores.
- A brightening: `psfFlux` > 0 and `isNegative` not set. A negative difference is a source fainter than
  in the template: a variable star or an AGN below its reference level, not a new transient.
- Well measured: SNR = `psfFlux` / `psfFluxErr` >= 10 (magnitude error <= 0.11), good enough to follow
  a light curve from; and none of the measurement flags Level 1 lets through: `shape_flag`,
  `psfFlux_flag_edge`, `pixelFlags_edge`, `pixelFlags_cr` (a cosmic ray anywhere in the footprint),
  `pixelFlags_interpolatedCenter`, `pixelFlags_streak`, `isDipole`.
- Young: the locus' first Rubin detection (`lsst:` alert) is at most 10 days before the trigger, and the
  trigger is not its only one (a second detection rules out most single-visit artefacts that slipped
  past `reliability`). Supernovae rise for ~15-20 days: 10 days keeps the rise. Rubin packets carry a
  year of DiaSources, so an old variable has its old detections on the locus.

Yield on the benchmark's simulated Rubin survey (`npm run bench -- filters --survey rubin`): about 5 % of
the alerts; the simulation is rich in young bright transients (real Rubin visits far less so).

Cost: the trigger's properties and the other alerts' ids and times only (no history decoded).
"""
import math

import antares.devkit as dk

MIN_RELIABILITY = 0.9
MIN_SNR = 10.0
MAX_AGE_DAYS = 10.0
MIN_DETECTIONS = 2
P = 'lsst_diaSource_'
BAD_FLAGS = [P + f for f in ('shape_flag', 'psfFlux_flag_edge', 'pixelFlags_edge', 'pixelFlags_cr',
                             'pixelFlags_interpolatedCenter', 'pixelFlags_streak', 'isDipole')]


def _number(value):
    return value if isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value) else None


class RubinQualityTransient(dk.Filter):
    NAME = 'Rubin quality transient'
    TRIGGERING_SURVEY = 'lsst'
    REQUIRED_ALERT_PROPERTIES = [P + 'reliability', P + 'psfFlux', P + 'psfFluxErr']
    OUTPUT_TAGS = [
        {
            'name': 'rubin_quality_transient',
            'description': 'Real (reliability >= 0.9), positive, well-measured (psfFlux / psfFluxErr >= 10, no '
                           'edge, cosmic-ray, interpolation, streak, shape or dipole flag) Rubin detection of a '
                           'source first detected by Rubin at most 10 days earlier, with at least 2 detections.',
        },
    ]

    def run(self, locus):
        trigger = locus.alert
        props = trigger.properties
        reliability = _number(props.get(P + 'reliability'))
        flux = _number(props.get(P + 'psfFlux'))
        error = _number(props.get(P + 'psfFluxErr'))
        if reliability is None or reliability < MIN_RELIABILITY:
            return
        if flux is None or error is None or not error > 0 or flux <= 0 or props.get(P + 'isNegative') is True:
            return
        if flux / error < MIN_SNR or any(props.get(flag) is True for flag in BAD_FLAGS):
            return
        # Detections only: forced photometry (lsst_forced:) of earlier visits is mostly precovery limits.
        times = [a.mjd for a in locus.alerts if str(a.alert_id).startswith('lsst:') and a.mjd is not None]
        if len(times) < MIN_DETECTIONS or trigger.mjd is None or trigger.mjd - min(times) > MAX_AGE_DAYS:
            return
        locus.tag('rubin_quality_transient')
