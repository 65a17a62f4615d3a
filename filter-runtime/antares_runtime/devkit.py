"""The devkit's own test helpers (run_filter, run_many, locus_from_dict, get_locus...) for authors' code.

They run a filter in-process, like the real devkit: exceptions from the filter propagate so the author
sees the traceback. Sample loci come from `devdata` (a JSON-lines file named by ANTARES_DEVKIT_LOCI,
else deterministic synthetic loci), since the sandbox has no database.
"""
import inspect
import os
import sys

from . import devdata
from .api import api_of, instantiate
from .core import percentiles, run_one
from .locus import LocusB, LocusBase
from .locus_apis import locus_class, make_locus

VERSION = '2.11.0'
_instances = {}  # filter class -> (instance, declarations): setup() once per process, as in production
_function_classes = {}  # 2019 filter function -> the class wrapping it


def init(*args, **kwargs):
    """The real dk.init() connects to the test database; ours only says it is ready."""
    print(f'ANTARES v{VERSION} DevKit is ready! (offline: sample loci from '
          f'{os.environ.get("ANTARES_DEVKIT_LOCI") or "the built-in synthetic set"})')


def _prepared(filter_, files=None):
    if inspect.isfunction(filter_):  # a 2019 filter function (antares.dev_kit)
        key = filter_
        if key not in _function_classes:
            from .legacy import function_filter_class
            _function_classes[key] = function_filter_class(filter_)
        filter_ = _function_classes[key]
    if not isinstance(filter_, type):  # an instance: use it as it is (its setup() is the caller's business)
        from .core import Declarations
        cls = type(filter_)
        return filter_, Declarations(cls, api_of(cls))
    key = filter_
    if files is not None or key not in _instances:
        _instances[key] = instantiate(filter_, files if files is not None else devdata.files_for(filter_))
    return _instances[key]


def _as_locus(locus, api):
    if locus is None:
        locus = devdata.get_locus_ids(1)[0]
    if isinstance(locus, str):
        locus = devdata.get_locus(locus)
    if isinstance(locus, LocusBase):
        raw = locus._raw
        return raw, (locus if type(locus) is locus_class(api) or (api == 'B' and isinstance(locus, LocusB))
                     else make_locus(raw, None, api))
    if isinstance(locus, dict):
        return locus, make_locus(locus, None, api)
    raise TypeError('locus must be a locus id, a dict, or a locus from locus_from_dict()')


def run_filter(filter, locus=None, verbose=False, files=None):
    """Run a filter (class or instance) on one locus; returns the real devkit's report dict."""
    return _run_prepared(_prepared(filter, files), locus, verbose)


def _run_prepared(prepared, locus, verbose):
    instance, decl = prepared
    raw, obj = _as_locus(locus, decl.api)
    report, obj = run_one(instance, decl, raw, obj, reraise=True)
    report['new_tags'] = set(report['new_tags'])
    out = {'locus_id': report['locus_id'], 'locus_data': obj, 't': report['t'],
           'new_locus_properties': report['new_locus_properties'],
           'new_alert_properties': report['new_alert_properties'],
           'new_tags': report['new_tags'], 'raised_halt': report['raised_halt']}
    if report['status'] == 'skipped':
        out['skipped'] = report['skip_reason']
    if verbose:
        print(out)
    return out


def run_many(filter, loci=None, n=10, verbose=False, files=None):
    """Run on several loci (a list of ids/dicts/loci, an int n, or n random sample loci)."""
    if isinstance(loci, int):
        loci, n = None, loci
    if loci is None:
        loci = devdata.get_locus_ids(n)
    prepared = _prepared(filter, files)
    results = [_run_prepared(prepared, locus, verbose) for locus in loci]
    out = {'n': len(results), 'results': results}
    out.update(percentiles([r['t'] for r in results]))
    return out


def locus_from_dict(data):
    """A class-API-A locus built from a locus dict (the format of PROTOCOL.md)."""
    return make_locus(data, None, 'A')


def get_locus_ids(n=1):
    return devdata.get_locus_ids(n)


def get_locus(locus_id, include_gravitational_wave_data=False):
    return make_locus(devdata.get_locus(locus_id, include_gravitational_wave_data), None, 'A')


def search_catalogs(ra, dec):
    return devdata.search_catalogs(ra, dec)


def get_alert(alert_id):
    for raw in devdata.all_loci():
        for alert in raw.get('alerts') or ():
            if alert.get('alert_id') == alert_id:
                return alert
    print(f'alert {alert_id} is not in the sample loci', file=sys.stderr)
    return None
