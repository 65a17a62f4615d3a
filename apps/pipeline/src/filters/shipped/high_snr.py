"""High SNR: loci with at least one very well measured ZTF detection.

The ANTARES default filter of the same name (the devkit notebook's `HighSNR`) with two refinements:

- SNR is computed exactly from the PSF-fit magnitude error. sigma_mag = 2.5 / ln(10) * sigma_F / F, so
  SNR = F / sigma_F = 1.0857 / sigmapsf. The notebook used 1 / sigmapsf, which understates the SNR by
  8.6 %; the thresholds are the notebook's: SNR > 50 in ZTF g and SNR > 55 in ZTF R. Other passbands
  (ZTF i, other surveys) have no threshold and are never tagged.
- Every ZTF detection of the locus is checked, not only the triggering one: the pipeline runs Level 2
  once per batch on a locus' newest alert, so a high-SNR alert that was not the newest of its batch (or
  arrived in a packet's history) would otherwise never be seen. Upper limits have no sigmapsf.

Cost: one pass over the ZTF alerts, no numpy; other surveys' alerts are passed over unread.
"""
import antares.devkit as dk

# Per-passband thresholds on SNR = 1.0857 / ztf_sigmapsf (ant_passband names: g, R, i).
SNR_THRESHOLD = {'g': 50.0, 'R': 55.0}
# 2.5 / ln(10): converts a magnitude error into a fractional flux error.
MAG_ERR_TO_FLUX_FRACTION = 1.0857362047581294


class HighSNR(dk.Filter):
    NAME = 'High SNR'
    OUTPUT_TAGS = [
        {
            'name': 'high_snr',
            'description': 'Locus has one or more ZTF detections with a high signal-to-noise ratio '
                           '(SNR = 1.0857 / sigmapsf above 50 in g or 55 in R).',
        },
    ]

    def run(self, locus):
        for alert in locus.alerts:
            if alert.survey != 'ztf':
                continue  # checked first: reading another survey's properties would decode them for nothing
            props = alert.properties
            threshold = SNR_THRESHOLD.get(props.get('ant_passband'))
            sigma = props.get('ztf_sigmapsf')
            if threshold is None or not isinstance(sigma, (int, float)) or not sigma > 0:
                continue
            if MAG_ERR_TO_FLUX_FRACTION / sigma > threshold:
                locus.tag('high_snr')
                return
