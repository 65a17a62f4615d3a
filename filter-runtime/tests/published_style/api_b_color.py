"""Class API B (`antares_devkit`): g - R colour from the median detected magnitudes of each band."""
import antares_devkit as dk  # noqa: F401 (authors import it for the test helpers)
from antares_devkit.models import BaseFilter


class MedianColor(BaseFilter):
    SLACK_CHANNEL = '#filter-colors'
    REQUIRED_LOCUS_PROPERTIES = ['ztf_object_id']
    OUTPUT_LOCUS_PROPERTIES = [{'name': 'color_g_minus_r', 'type': 'float', 'description': 'median g - median R'}]
    OUTPUT_LOCUS_TAGS = [{'name': 'blue_transient', 'description': 'g - R below -0.1'}]

    def _run(self, locus):
        df = locus.timeseries().to_pandas()  # a method in API B
        detected = df.dropna(subset=['ant_mag'])
        g = detected[detected['ant_passband'] == 'g']['ant_mag']
        r = detected[detected['ant_passband'] == 'R']['ant_mag']
        if len(g) == 0 or len(r) == 0:
            return
        color = g.median() - r.median()
        locus.set_property('color_g_minus_r', color)
        if color < -0.1:
            locus.tag('blue_transient')
