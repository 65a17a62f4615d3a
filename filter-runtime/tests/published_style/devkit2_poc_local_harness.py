# A devkit2_poc filter as one published repository runs it with its own harness: `_run(self,
# event_dict, ts)` instead of the devkit's `_run(self, locus)`. ANTARES cannot call it.
from devkit2_poc.models import BaseFilter


class LocalHarnessFilter(BaseFilter):
    OUTPUT_LOCUS_TAGS = [{'name': 'lh_tag', 'description': 'never given'}]

    def _run(self, event_dict, ts):
        event_dict['lh_tag'] = len(ts) > 2
        return event_dict
