"""The 2019 devkit, as filters of that time import it: `import antares.dev_kit as dk`.

A filter is a function of one locus (antares_runtime/legacy.py says what that locus offers and how
the function's outputs are declared). The test helpers take the function itself, as the 2019 devkit
notebook calls them: `dk.run_stage(alert_id, my_filter)` (report with `new_streams` and `locus_data`),
`dk.run_many(my_filter, n=10)` or `alert_ids=[...]`, `dk.get_alert_ids(n)`, `dk.get_locus_data(alert_id)`,
`dk.mock_locus(ra, dec, [alert properties...])`. Alerts are known by number, as then (the ZTF candid or
Rubin diaSourceId), or by their full id. The class API of later devkits (`dk.Filter`) is here too, so a
file mixing both still loads.
"""
from antares_runtime import devdata as _devdata
from antares_runtime import devkit as _devkit
from antares_runtime.api import Filter
from antares_runtime.core import FilterError, Halt
from antares_runtime.devkit import init, search_catalogs
from antares_runtime.locus_apis import LegacyLocus as Locus
from antares_runtime.locus_apis import make_locus


def run_filter(filter, locus_id=None, locus=None, verbose=False, files=None):
    """Run a filter function (or class) on one locus: an id, a locus dict or locus object, or a random one."""
    return _devkit.run_filter(filter, locus if locus is not None else locus_id, verbose=verbose, files=files)


def run_stage(alert_id, stage, verbose=False, files=None):
    """2019: run `stage` on the locus as it was when the alert arrived; the report also names the
    streams the stage sent the locus to (`new_streams`)."""
    report = _devkit.run_filter(stage, _devdata.locus_of_alert(alert_id), verbose=verbose, files=files)
    report['new_streams'] = set(report['new_tags'])
    return report


def run_many(filter, locus_ids=None, n=10, verbose=False, keep_results=True, files=None, alert_ids=None):
    loci = locus_ids
    if alert_ids is not None:
        loci = [_devdata.locus_of_alert(a) for a in alert_ids]
    report = _devkit.run_many(filter, loci, n=n, verbose=verbose, files=files)
    for result in report['results']:
        result['new_streams'] = set(result['new_tags'])
    if not keep_results:
        report['results'] = []
    return report


def get_locus_ids(n=1):
    return _devkit.get_locus_ids(n)


def get_alert_ids(n=1):
    return _devdata.get_alert_ids(n)


def get_locus(locus_id=None, include_gravitational_wave_data=False):
    """The 2019 locus object for a sample locus (a random one without an id)."""
    locus_id = locus_id or _devdata.get_locus_ids(1)[0]
    return make_locus(_devdata.get_locus(locus_id, include_gravitational_wave_data), None, '2019')


def get_locus_data(alert_id=None, include_gravitational_wave_data=False):
    """2019's LocusData of an alert (its number or full id; a locus id works too)."""
    if alert_id is None:
        return get_locus(None, include_gravitational_wave_data)
    return make_locus(_devdata.locus_of_alert(alert_id, include_gravitational_wave_data), None, '2019')


def mock_locus(ra, dec, alerts):
    return _devdata.mock_locus(ra, dec, alerts)


def locus_from_dict(data):
    return make_locus(data, None, '2019')


__all__ = ['Filter', 'Halt', 'FilterError', 'Locus', 'init', 'run_filter', 'run_stage', 'run_many',
           'get_locus_ids', 'get_alert_ids', 'get_locus', 'get_locus_data', 'mock_locus', 'locus_from_dict',
           'search_catalogs']
