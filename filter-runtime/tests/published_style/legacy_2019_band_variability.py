# A 2019 devkit stage in the style of that year's published ones (the bright-microlensing and astrorapid
# stages): get_properties() with its alert_id, get_time_series() rows unpacked as alert_id, mjd, values,
# the variable-star helper, a stream name chosen through a variable, report_error() for odd input.
import numpy as np


def band_variability(ld):
    p = ld.get_properties()
    fid = p.get('ztf_fid')
    if fid is None:
        ld.report_error(tag='bv_no_ztf_band', data={'alert_id': p['alert_id']})
        return
    alert_id, mjd, mag, magerr = ld.get_time_series('ztf_magpsf', 'ztf_sigmapsf', filters={'ztf_fid': fid})
    if len(mjd) < 3:
        return
    mags, errs, times, is_var_star, corrected = ld.get_varstar_corrected_mags(fid=fid)
    weights = 1.0 / magerr ** 2
    chi2 = np.sum(((mag - np.average(mag, weights=weights)) / magerr) ** 2) / (len(mag) - 1)
    ld.set_property('bv_chi2', chi2)
    ld.set_property('bv_n', len(mjd))
    ld.set_property('bv_last_alert', str(alert_id[-1]))
    ld.set_property('bv_mean_mag', float(np.mean(mags)))
    ld.set_property('bv_corrected', int(corrected))
    stream = 'bv_variable_star' if is_var_star else 'bv_variable'
    if chi2 > 10.0:
        ld.send_to_stream(stream)
