# A devkit2_poc filter in the devkit2 style: `_run(self, event_dict, ts)` instead of the devkit's
# `_run(self, locus)`, the tag given by returning its name with a true value.
from devkit2_poc.models import BaseFilter


class LocalHarnessFilter(BaseFilter):
    OUTPUT_LOCUS_TAGS = [{'name': 'lh_tag', 'description': 'more than two alerts'}]

    def _run(self, event_dict, ts):
        event_dict['lh_tag'] = len(ts) > 2
        return event_dict
