"""Two filters in the devkit2 style, as a chain (ADR 0055): a host-galaxy association writes the
redshift and a nuclear flag, and a duration filter reads them through its event dictionary with the
time series as a pandas frame. Each file defines one filter; the test loads them with class_name."""
import numpy as np
from astropy.cosmology import Planck18

from devkit2_poc.models import BaseFilter


class HostAssociation(BaseFilter):
    NAME = 'Host association (test catalogue)'
    INPUT_LOCUS_PROPERTIES = []
    OUTPUT_LOCUS_PROPERTIES = [
        {'name': 'best_redshift', 'type': 'float', 'description': 'redshift of the likeliest host'},
        {'name': 'nuclear', 'type': 'int', 'description': '1 when within 0.5" of the host centre'},
    ]
    OUTPUT_TAGS = [{'name': 'has_host', 'description': 'a host galaxy was found'}]

    def setup(self):
        # A stand-in catalogue: redshift and offset (arcsec) by declination band.
        self.catalogue = {-1: (0.031, 2.4), 0: (0.12, 0.3)}
        self.input_properties = []

    def _run(self, event_dict, ts):
        band = int(np.floor(event_dict['dec'] / 10.0))
        if band not in self.catalogue:
            event_dict['has_host'] = False
            return event_dict
        z, offset = self.catalogue[band]
        event_dict['best_redshift'] = z
        event_dict['nuclear'] = int(offset < 0.5)
        event_dict['has_host'] = True
        return event_dict


class LongLivedTransient(BaseFilter):
    NAME = 'Long-lived non-nuclear transients'
    INPUT_LOCUS_PROPERTIES = []
    INPUT_ALERT_PROPERTIES = ['ant_mag', 'ant_passband']
    OUTPUT_LOCUS_PROPERTIES = [
        {'name': 'lum_dist_mpc', 'type': 'float', 'description': 'luminosity distance of the host'},
        {'name': 'rest_duration', 'type': 'float', 'description': 'rest-frame days between first and last alert'},
        {'name': 'peak_abs_mag', 'type': 'float', 'description': 'brightest absolute magnitude'},
    ]
    OUTPUT_TAGS = [{'name': 'long_lived', 'description': 'non-nuclear, longer than 50 rest-frame days'}]

    def setup(self):
        self.input_properties = ['best_redshift', 'nuclear']

    def _run(self, event_dict, ts):
        ts.dropna(subset=['ant_mag'], inplace=True)
        if len(ts) < 2:
            return event_dict
        z = event_dict['best_redshift']
        distance = Planck18.luminosity_distance(z).value
        duration = (ts['ant_mjd'].max() - ts['ant_mjd'].min()) / (1.0 + z)
        event_dict['lum_dist_mpc'] = distance
        event_dict['rest_duration'] = duration
        event_dict['peak_abs_mag'] = ts['ant_mag'].min() - 5.0 * np.log10(distance * 1e5)
        event_dict['long_lived'] = (not event_dict['nuclear']) and duration > 50.0
        event_dict['working_note'] = 'ignored: not a declared output'
        return event_dict
