# A ZTF-only filter as published ones are written (class API A): it declares what it reads in INPUT_*
# and then indexes the ZTF columns of the timeseries without checking they exist. On a Rubin-only locus
# (no ztf_object_id) ANTARES must skip it rather than let it fail.
import warnings

import astropy
import numpy as np

import antares.devkit as dk


class ZtfSpread(dk.Filter):
    INPUT_LOCUS_PROPERTIES = ['ztf_object_id']
    INPUT_ALERT_PROPERTIES = ['ztf_fid', 'ant_mjd']
    OUTPUT_LOCUS_PROPERTIES = [{'name': 'zo_spread', 'type': 'float', 'description': 'largest peak-to-peak ZTF magnitude of one band'}]
    OUTPUT_TAGS = [{'name': 'zo_large_spread', 'description': 'peak-to-peak over 0.5 mag in one ZTF band'}]

    def run(self, locus):
        with warnings.catch_warnings():
            warnings.simplefilter('ignore', astropy.table.TableReplaceWarning)
            df = locus.timeseries.to_pandas()
        data = df[['ant_mjd', 'ztf_fid', 'ztf_magpsf']].dropna()
        spreads = [np.ptp(data['ztf_magpsf'][data['ztf_fid'] == band].values)
                   for band in (1, 2) if (data['ztf_fid'] == band).sum() >= 2]
        if not spreads:
            return
        locus.properties['zo_spread'] = float(max(spreads))
        if max(spreads) > 0.5:
            locus.tag('zo_large_spread')
