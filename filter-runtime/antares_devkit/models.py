"""Class API B models: BaseFilter (implement `_run(self, locus)`) and the DevKitLocus it receives."""
from antares_runtime.api import BaseFilter
from antares_runtime.core import FilterError, Halt
from antares_runtime.locus import Alert as DevKitAlert
from antares_runtime.locus import LocusB

# ant_survey codes, as clients read them (tom_antares cites this table).
SURVEYS = {1: 'ZTF', 2: 'ZTF', 3: 'DECAT', 4: 'LSST'}


class DevKitLocus(LocusB):
    """API B locus; `DevKitLocus.model_validate(locus_dict)` as in the real (pydantic-based) devkit.

    Takes a locus dict of PROTOCOL.md or what the published client's `Locus.to_devkit()` returns
    (`id`, `user_tags`, `old_properties`, alerts with `id`)."""

    @classmethod
    def model_validate(cls, data):
        if isinstance(data, LocusB):
            return data
        return cls(from_client_shape(dict(data)))


def from_client_shape(data):
    """A locus dict from either shape, in the runtime's names."""
    renames = {'id': 'locus_id', 'user_tags': 'tags', 'old_properties': 'properties'}
    for old, new in renames.items():
        if old in data and new not in data:
            data[new] = data.pop(old)
    alerts = []
    for alert in data.get('alerts') or ():
        alert = dict(alert)
        if 'id' in alert and 'alert_id' not in alert:
            alert['alert_id'] = alert.pop('id')
        if alert.get('grav_wave_events') is None:
            alert['grav_wave_events'] = []
        alert.setdefault('properties', {})
        alerts.append(alert)
    data['alerts'] = alerts
    for key in ('tags', 'watch_list_ids', 'watch_object_ids'):
        data[key] = list(data.get(key) or ())
    data.setdefault('properties', {})
    return data


__all__ = ['BaseFilter', 'DevKitLocus', 'DevKitAlert', 'Halt', 'FilterError', 'SURVEYS']
