# A Level 1 style function of 2018-19 (the pipeline page's `locus_data` filters): reads the alert's
# properties with get_properties(), halts on a likely bogus detection, else sends it to a stream.
def bogus_or_streak(locus_data):
    p = locus_data.get_properties()
    try:
        if p.get('ztf_rb') is not None:
            assert p['ztf_rb'] >= 0.55
        if p.get('ztf_nbad') is not None:
            assert p['ztf_nbad'] == 0
        if p.get('ztf_magdiff') is not None:
            assert -1.0 <= p['ztf_magdiff'] <= 1.0
    except AssertionError:
        raise locus_data.get_halt()
    if p['ztf_elong'] > 1.6:
        locus_data.send_to_stream('elongated_real')
