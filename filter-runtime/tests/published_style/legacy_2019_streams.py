# A filter in the style of the 2019 ANTARES devkit notebook: a plain function of the locus, the
# unprefixed property names of that time, streams instead of tags, alert annotations.
import antares.dev_kit as dk

dk.init()


def snr_of(properties):
    return 1.0 / properties['ztf_sigmapsf']


def bright_real_transient(locus):
    p = locus.alert.properties
    if p['passband'] not in ('g', 'R'):
        return
    locus.alert.properties['legacy_snr'] = snr_of(p)
    alert_ids, mjd, mags = locus.get_time_series('ant_mag')
    locus.set_property('legacy_n_detections', len(mags))
    if p['ztf_rb'] < 0.3:
        raise locus.halt
    if p['mag'] < 18.5 and p['ztf_rb'] >= 0.65 and len(mags) >= 2 and detection_span(locus) > 1.0:
        locus.send_to_stream('legacy_bright_real')


def detection_span(locus):
    """A helper taking the locus too, defined after the filter: not the filter (it acts on nothing)."""
    _, mjd, _ = locus.get_time_series('ant_mag')
    return mjd[-1] - mjd[0] if len(mjd) else 0.0
