"""Nuclear transient: a real brightening at the centre of a galaxy (tidal disruption events, AGN flares,
nuclear supernovae), from the triggering ZTF alert.

All of these, on the triggering alert:

- Brighter than the reference image (`ztf_isdiffpos` 't'/'1'): a nuclear flare adds light; a negative
  difference at a nucleus is usually a variable AGN below its reference level or a bad subtraction.
- On the nucleus: the nearest source in the ZTF reference image is within 0.5 pixel (`ztf_distnr`,
  pixels of 1.01"; ~0.5"), about the astrometric scatter of a faint ZTF detection and the
  half-arcsecond scale that ZTF nuclear-transient (TDE) searches use.
- That source is a galaxy: the nearest Pan-STARRS1 source is within 1" (`ztf_distpsnr1`; PS1 centroids
  of extended galaxies are less precise than point sources) and galaxy-like (0 <= `ztf_sgscore1` < 0.5;
  0.5 exactly is ZTF's "not classified", -999 "no source"). A star at the position is a variable
  star, not a nucleus.
- Real, not an artefact: subtraction residuals of bright galaxy cores are the commonest bogus alerts,
  so a stricter real-bogus cut than Level 1's rb >= 0.55: `ztf_rb` >= 0.65 and, when the packet has it,
  the deep-learning score `ztf_drb` >= 0.8. A drb of exactly 0 is "not computed": packets from before the
  drb model (2019) carry 0, as the 2018 alerts re-served by ALeRCE in ../shared/data show.

Alerts without these fields (history rows, upper limits, other surveys) are skipped through
REQUIRED_ALERT_PROPERTIES. Cost: a few dict lookups.
"""
import math

import antares.devkit as dk

MAX_DISTNR_PIXELS = 0.5
MAX_DISTPSNR1_ARCSEC = 1.0
GALAXY_SGSCORE_MAX = 0.5  # strictly below
MIN_RB = 0.65
MIN_DRB = 0.8
POSITIVE = ('t', '1', 1, True)


def _number(value):
    return value if isinstance(value, (int, float)) and math.isfinite(value) else None


class NuclearTransient(dk.Filter):
    NAME = 'Nuclear transient'
    REQUIRED_ALERT_PROPERTIES = ['ztf_isdiffpos', 'ztf_distnr', 'ztf_distpsnr1', 'ztf_sgscore1', 'ztf_rb']
    OUTPUT_TAGS = [
        {
            'name': 'nuclear_transient',
            'description': 'Positive, real (rb >= 0.65, drb >= 0.8) ZTF detection within 0.5 pixel of a '
                           'reference-image source that is a galaxy-like Pan-STARRS1 source within 1" '
                           '(sgscore1 < 0.5): a transient at the nucleus of a galaxy.',
        },
    ]

    def run(self, locus):
        props = locus.alert.properties
        if props.get('ztf_isdiffpos') not in POSITIVE:
            return
        distnr = _number(props.get('ztf_distnr'))
        distpsnr1 = _number(props.get('ztf_distpsnr1'))
        sgscore1 = _number(props.get('ztf_sgscore1'))
        rb = _number(props.get('ztf_rb'))
        drb = _number(props.get('ztf_drb')) or None  # 0 = not computed
        if distnr is None or not 0 <= distnr <= MAX_DISTNR_PIXELS:
            return
        if distpsnr1 is None or not 0 <= distpsnr1 <= MAX_DISTPSNR1_ARCSEC:
            return
        if sgscore1 is None or not 0 <= sgscore1 < GALAXY_SGSCORE_MAX:
            return
        if rb is None or rb < MIN_RB or (drb is not None and drb < MIN_DRB):
            return
        locus.tag('nuclear_transient')
