"""High SNR: loci with at least one very well measured ZTF detection, or a very well measured triggering
Rubin detection.

The ANTARES default filter of the same name (the devkit notebook's `HighSNR`) with two refinements:

- SNR is computed exactly from the PSF-fit magnitude error. sigma_mag = 2.5 / ln(10) * sigma_F / F, so
  SNR = F / sigma_F = 1.0857 / sigmapsf. The notebook used 1 / sigmapsf, which understates the SNR by
  8.6 %; the thresholds are the notebook's: SNR > 50 in ZTF g and SNR > 55 in ZTF R. Other passbands
  (ZTF i, other surveys) have no threshold and are never tagged.
- Every ZTF detection of the locus is checked, not only the triggering one: the pipeline runs Level 2
  once per batch on a locus' newest alert, so a high-SNR alert that was not the newest of its batch (or
  arrived in a packet's history) would otherwise never be seen. Upper limits have no sigmapsf.
- Rubin: SNR = `lsst_diaSource_psfFlux` / `lsst_diaSource_psfFluxErr` > 200 in any band, on the
  triggering DiaSource (a brightening: a negative difference flux is never tagged). Rubin collects about
  28 times the light of ZTF in its 30 s exposure (6.4 m effective aperture against 1.2 m): a source of the
  brightness that reaches ZTF's SNR 50 has about sqrt(28) = 5.3 times that SNR in the source-noise limit,
  less where sky noise counts; 200 keeps about ZTF's brightness. Only the trigger: a Rubin locus holds a
  year of DiaSources (100-200), and reading their properties would send every one of them to the
  worker for a detection that, being older, was the trigger of its own alert when it arrived.

Cost: one pass over the ZTF alerts, no numpy; Rubin's trigger only; other alerts are passed over unread.
"""
import antares.devkit as dk

# Per-passband thresholds on SNR = 1.0857 / ztf_sigmapsf (ant_passband names: g, R, i).
SNR_THRESHOLD = {'g': 50.0, 'R': 55.0}
RUBIN_SNR_THRESHOLD = 200.0
# 2.5 / ln(10): converts a magnitude error into a fractional flux error.
MAG_ERR_TO_FLUX_FRACTION = 1.0857362047581294


class HighSNR(dk.Filter):
    NAME = 'High SNR'
    OUTPUT_TAGS = [
        {
            'name': 'high_snr',
            'description': 'Locus has one or more ZTF detections with a high signal-to-noise ratio '
                           '(SNR = 1.0857 / sigmapsf above 50 in g or 55 in R), or its triggering Rubin '
                           'detection has psfFlux / psfFluxErr above 200.',
        },
    ]

    def run(self, locus):
        if locus.alert.survey == 'lsst' and _rubin_snr(locus.alert.properties) > RUBIN_SNR_THRESHOLD:
            locus.tag('high_snr')
            return
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


def _rubin_snr(props):
    """psfFlux / psfFluxErr of a Rubin DiaSource; 0 when either is missing or the error is not positive."""
    flux, error = props.get('lsst_diaSource_psfFlux'), props.get('lsst_diaSource_psfFluxErr')
    if not isinstance(flux, (int, float)) or not isinstance(error, (int, float)) or not error > 0:
        return 0.0
    return flux / error
