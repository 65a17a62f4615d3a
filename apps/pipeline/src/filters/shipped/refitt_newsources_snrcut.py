"""REFITT new sources with an SNR cut: young, rising, well-measured transients, the early-time objects that
REFITT (Recommender Engine For Intelligent Transient Tracking, Sravan et al. 2020) forecasts light
curves for and recommends for follow-up while they are still rising.

All of these, judged at the triggering ZTF detection (time t, band b, magnitude m):

- New source: the first detection ever is at most 10 days before t. "Ever" is the earlier of the
  locus' oldest ZTF detection and ZTF's own `ztf_jdstarthist` (first >= 3 sigma detection at this
  position since the survey began, which also sees detections older than the 30-day packet history).
  Supernovae rise for ~15-20 days, so 10 days keeps the pre-maximum phase.
- Few detections: at most 15 (the larger of the locus' ZTF detections and `ztf_ndethist`); more means
  an old or often-varying source, whatever its dates say.
- Never fainter than the reference: every ZTF detection of the locus is positive (`ztf_isdiffpos`
  't'/'1'). A negative difference means the source is in the reference image: a variable, not new.
- Rising in band b: the trigger is brighter than the earliest detection in b by more than the two
  errors combined (m_first - m > sqrt(sigma_first^2 + sigma^2)); or, when b has no earlier detection, an
  earlier non-detection in b had a limiting magnitude fainter than m (it was fainter than that limit
  before, and is brighter now).
- SNR cut: SNR = 1.0857 / `ztf_sigmapsf` >= 10 (magnitude error <= 0.11) on the trigger, good enough
  photometry to fit a rise.
- Real: the deep-learning real-bogus score `ztf_drb` >= 0.5 when the packet has one (0 means "not
  computed": packets from before the drb model). Young transients are faint, near the detection limit,
  where artefacts are most common, and Level 1 only cuts on the older `rb` (>= 0.55).
- Not a star and not an asteroid: no star-like Pan-STARRS1 source within 1" (`ztf_sgscore1` > 0.5 with
  `ztf_distpsnr1` <= 1"; flaring M dwarfs are the main impostors of young transients) and no known solar
  system object within 5" (`ztf_ssdistnr`).

Cost: one pass over the alerts, no numpy.
"""
import math

import antares.devkit as dk

MAX_AGE_DAYS = 10.0
MAX_DETECTIONS = 15
MIN_SNR = 10.0
MIN_DRB = 0.5
STAR_SGSCORE_MIN = 0.5  # strictly above; 0.5 itself is ZTF's "not classified"
STAR_RADIUS_ARCSEC = 1.0
SSO_RADIUS_ARCSEC = 5.0
MAG_ERR_TO_FLUX_FRACTION = 1.0857362047581294  # 2.5 / ln(10)
JD_TO_MJD = 2400000.5
POSITIVE = ('t', '1', 1, True)


def _number(value):
    return value if isinstance(value, (int, float)) and math.isfinite(value) else None


class RefittNewsourcesSnrcut(dk.Filter):
    NAME = 'REFITT new sources (SNR cut)'
    REQUIRED_ALERT_PROPERTIES = ['ztf_isdiffpos', 'ztf_sigmapsf', 'ant_mag', 'ant_passband']
    OUTPUT_TAGS = [
        {
            'name': 'refitt_newsources_snrcut',
            'description': 'Young rising transient for REFITT: first detected at most 10 days before the '
                           'triggering ZTF detection, at most 15 detections, all positive, brighter than '
                           'its earliest detection or an earlier limit in the same band, SNR >= 10, drb >= 0.5, '
                           'and no star-like PS1 source within 1" or known asteroid within 5".',
        },
    ]

    def run(self, locus):
        trigger = locus.alert
        props = trigger.properties
        mag = _number(props.get('ant_mag'))
        sigma = _number(props.get('ztf_sigmapsf'))
        band = props.get('ant_passband')
        if mag is None or sigma is None or not sigma > 0 or MAG_ERR_TO_FLUX_FRACTION / sigma < MIN_SNR:
            return
        drb = _number(props.get('ztf_drb')) or None  # 0 = not computed
        if (drb is not None and drb < MIN_DRB) or self._stellar_or_moving(props):
            return
        t = trigger.mjd
        first_time = t
        detections = 0
        first_in_band = None  # (mag, magerr) of the earliest detection in the trigger's band
        deepest_limit = None  # faintest limiting magnitude of an earlier non-detection in that band
        for alert in locus.alerts:  # oldest first
            if alert.mjd > t or alert.survey != 'ztf':
                continue
            p = alert.properties
            m = _number(p.get('ant_mag'))
            if m is None:
                limit = _number(p.get('ant_maglim'))
                if p.get('ant_passband') == band and alert.mjd < t and limit is not None \
                        and (deepest_limit is None or limit > deepest_limit):
                    deepest_limit = limit
                continue
            if p.get('ztf_isdiffpos') not in POSITIVE:
                return  # in the reference image: not a new source
            detections += 1
            first_time = min(first_time, alert.mjd)
            if p.get('ant_passband') == band and first_in_band is None and alert is not trigger:
                first_in_band = (m, _number(p.get('ant_magerr')) or 0.0)
        jdstarthist = _number(props.get('ztf_jdstarthist'))
        if jdstarthist is not None and jdstarthist > 0:
            first_time = min(first_time, jdstarthist - JD_TO_MJD)
        if t - first_time > MAX_AGE_DAYS:
            return
        if max(detections, _number(props.get('ztf_ndethist')) or 0) > MAX_DETECTIONS:
            return
        if first_in_band is not None:
            rising = first_in_band[0] - mag > math.hypot(first_in_band[1], sigma)
        else:
            rising = deepest_limit is not None and deepest_limit > mag
        if rising:
            locus.tag('refitt_newsources_snrcut')

    @staticmethod
    def _stellar_or_moving(props):
        distpsnr1 = _number(props.get('ztf_distpsnr1'))
        sgscore1 = _number(props.get('ztf_sgscore1'))
        if distpsnr1 is not None and 0 <= distpsnr1 <= STAR_RADIUS_ARCSEC and sgscore1 is not None \
                and sgscore1 > STAR_SGSCORE_MIN:
            return True
        ssdistnr = _number(props.get('ztf_ssdistnr'))
        return ssdistnr is not None and 0 <= ssdistnr <= SSO_RADIUS_ARCSEC
