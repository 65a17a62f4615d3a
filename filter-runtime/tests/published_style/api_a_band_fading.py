"""Class API A, as the devkit notebooks teach it (`import antares.devkit as dk`): is the locus fading in
the band of its triggering alert? Reads the timeseries the way authors do, upper limits included:
`band['ztf_nbad'].filled(np.nan)` needs a float column where upper limits lack the value."""
import numpy as np

import antares.devkit as dk


class BandFading(dk.Filter):
    NAME = 'Fading in the triggering band'
    ERROR_SLACK_CHANNEL = ''
    REQUIRED_ALERT_PROPERTIES = ['ztf_fid']
    OUTPUT_LOCUS_PROPERTIES = [
        {'name': 'fading_rate', 'type': 'float', 'description': 'mag per day over clean detections in the band'},
        {'name': 'fading_upper_limits', 'type': 'int', 'description': 'upper limits in the band'},
    ]
    OUTPUT_TAGS = [{'name': 'fading_in_band', 'description': 'fainter by more than 0.02 mag per day'}]

    def run(self, locus):
        fid = locus.alert.properties['ztf_fid']
        ts = locus.timeseries
        band = ts[ts['ztf_fid'] == fid]
        nbad = band['ztf_nbad'].filled(np.nan)  # upper limits have no nbad
        mag = band['ant_mag'].filled(np.nan)
        lc = locus.lightcurve
        upper = lc[lc['ant_mag'].isna()]
        locus.properties['fading_upper_limits'] = int(np.isnan(mag).sum())
        assert len(upper) >= locus.properties['fading_upper_limits']
        clean = (nbad == 0) & np.isfinite(mag)
        t = np.asarray(band['ant_mjd'], dtype=float)[clean]
        if len(np.unique(t)) < 2:
            return
        slope = np.polyfit(t - t[0], mag[clean], 1)[0]
        locus.properties['fading_rate'] = slope
        if slope > 0.02:
            locus.tag('fading_in_band')
