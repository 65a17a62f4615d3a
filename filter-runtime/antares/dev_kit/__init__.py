"""The 2019 devkit, as filters of that time import it: `import antares.dev_kit as dk`.

A filter is a function of one locus (antares_runtime/legacy.py says what that locus offers and how
the function's outputs are declared). The test helpers take the function itself:
`dk.run_filter(my_filter, locus_id=...)`, `dk.run_many(my_filter, n=10)`. The class API of later
devkits (`dk.Filter`) is here too, so a file mixing both still loads.
"""
from antares_runtime import devkit as _devkit
from antares_runtime.api import Filter
from antares_runtime.core import FilterError, Halt
from antares_runtime.devkit import init, search_catalogs
from antares_runtime.legacy import LegacyLocus as Locus
from antares_runtime.locus import make_locus


def run_filter(filter, locus_id=None, locus=None, verbose=False, files=None):
    """Run a filter function (or class) on one locus: an id, a locus dict or locus object, or a random one."""
    return _devkit.run_filter(filter, locus if locus is not None else locus_id, verbose=verbose, files=files)


def run_many(filter, locus_ids=None, n=10, verbose=False, keep_results=True, files=None):
    report = _devkit.run_many(filter, locus_ids, n=n, verbose=verbose, files=files)
    if not keep_results:
        report['results'] = []
    return report


def get_locus_ids(n=1):
    return _devkit.get_locus_ids(n)


def get_locus(locus_id=None, include_gravitational_wave_data=False):
    """The 2019 locus object for a sample locus (a random one without an id)."""
    from antares_runtime import devdata
    locus_id = locus_id or devdata.get_locus_ids(1)[0]
    return make_locus(devdata.get_locus(locus_id, include_gravitational_wave_data), None, '2019')


get_locus_data = get_locus


def locus_from_dict(data):
    return make_locus(data, None, '2019')


__all__ = ['Filter', 'Halt', 'FilterError', 'Locus', 'init', 'run_filter', 'run_many', 'get_locus_ids',
           'get_locus', 'get_locus_data', 'locus_from_dict', 'search_catalogs']
