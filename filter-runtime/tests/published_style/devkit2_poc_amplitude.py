"""In the style of filters written for the devkit 2 proof of concept (`devkit2_poc.models`): modules
kept on the class and set in setup(), OUTPUT_TAGS in a BaseFilter, the timeseries through pandas."""
import warnings

from devkit2_poc.models import BaseFilter


class AmplitudeFilter(BaseFilter):
    NAME = 'Large amplitude in one band'
    ERROR_SLACK_CHANNEL = 'U0000000'
    INPUT_LOCUS_PROPERTIES = []
    INPUT_ALERT_PROPERTIES = []
    OUTPUT_LOCUS_PROPERTIES = [
        {'name': 'poc_amplitude', 'type': 'float', 'description': 'largest peak-to-peak amplitude of a band'},
        {'name': 'poc_band', 'type': 'str', 'description': 'the band of that amplitude'},
    ]
    OUTPUT_TAGS = [{'name': 'poc_large_amplitude', 'description': 'more than 1 mag peak to peak in a band'}]
    np = None

    def setup(self):
        import numpy as np
        self.np = np

    def _run(self, locus):
        import astropy.table
        with warnings.catch_warnings():
            warnings.simplefilter('ignore', astropy.table.TableReplaceWarning)
            df = locus.timeseries().to_pandas()
        data = df[['ant_mjd', 'ant_passband', 'ant_mag', 'ant_magerr']].dropna()
        best = None
        for band in self.np.unique(data['ant_passband']):
            mags = data[data['ant_passband'] == band]['ant_mag'].values
            if len(mags) >= 3 and (best is None or mags.max() - mags.min() > best[0]):
                best = (mags.max() - mags.min(), band)
        if best is None:
            return
        locus.set_property('poc_amplitude', best[0])
        locus.set_property('poc_band', str(best[1]))
        if best[0] > 1.0:
            locus.tag('poc_large_amplitude')
