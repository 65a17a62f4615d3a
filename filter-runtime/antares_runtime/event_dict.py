"""Class API B in the devkit2 style: `_run(self, event_dict, ts)`.

Filters written for the devkit 2 proof of concept (and the host-association, anomaly and
classification filters built on it) read a dictionary of the locus properties they name, in
INPUT_LOCUS_PROPERTIES or in `self.input_properties` set by setup(), and the time series as a pandas
frame, and return that dictionary with their outputs in it. Here that is a view over the same guarded
locus as `_run(self, locus)` gets: the returned keys that are declared OUTPUT_LOCUS_PROPERTIES are set
on the locus (checked and typed as any write), a declared tag whose value is true tags it, and every
other key (the inputs handed back, working values) is ignored, as the devkit's harness ignores them.

A property the filter names that the locus lacks is usually one another filter writes (a chain,
ADR 0055): no filter wrote it on this locus, so the run is an error naming it, never a load failure.
"""
import inspect

from .errors import FilterError

# What the dictionary holds besides the named properties: the locus itself, as the devkit2 harness
# gave it (published filters read event_dict['ra'], ['dec'] and ['name'], the locus id, unlisted).
LOCUS_FIELDS = ('name', 'locus_id', 'ra', 'dec')
# The time series' columns when the filter names its alert properties; with none named it gets the
# whole light curve (frames.LIGHTCURVE_COLUMNS), as the client's CSV has it.
BASE_COLUMNS = ('ant_mjd', 'ant_ra', 'ant_dec')


def takes_event_dict(cls):
    """True when `cls._run` takes two arguments after self, `(event_dict, ts)`, rather than the locus."""
    method = getattr(cls, '_run', None)
    try:
        signature = inspect.signature(method)
    except (TypeError, ValueError):
        return False
    params = list(signature.parameters.values())[1:]
    positional = [p for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    required = [p for p in positional if p.default is p.empty]
    return len(required) == 2 or (len(positional) == 2 and len(required) >= 1)


def instance_inputs(instance):
    """The property names setup() put in `self.input_properties` (a list of strings), else none."""
    names = getattr(instance, 'input_properties', None)
    if names is None:
        return []
    if isinstance(names, str) or not all(isinstance(n, str) for n in names):
        raise FilterError('input_properties (set in setup()) must be a list of strings')
    return list(names)


def event_dict_of(locus, names):
    """The dictionary `_run` receives: each named property of the locus, and the locus fields."""
    props = locus.properties
    fields = {'name': locus.locus_id, 'locus_id': locus.locus_id, 'ra': locus.ra, 'dec': locus.dec}
    event = dict(fields)
    missing = []
    for name in names:
        if name in props:
            event[name] = dict.__getitem__(props, name)
        elif name not in fields:
            missing.append(name)
    if missing:
        raise FilterError(f'locus property {", ".join(missing)} needed by this filter is not on the locus: '
                          'no filter wrote it (it is named in INPUT_LOCUS_PROPERTIES or input_properties)')
    return event


def time_series_of(locus, alert_names):
    """A fresh pandas frame (the filter may change it in place): one row per alert, oldest first."""
    import pandas as pd
    if not alert_names:
        return locus.lightcurve.copy()
    columns = list(dict.fromkeys([*BASE_COLUMNS, *alert_names]))
    rows = []
    for alert in locus.alerts:
        props = alert.properties
        row = {name: props.get(name) for name in columns}
        if row['ant_mjd'] is None:
            row['ant_mjd'] = alert.mjd
        rows.append(row)
    return pd.DataFrame(rows, columns=columns)


def run_event_dict(instance, decl, locus):
    """Call `_run(event_dict, ts)` and apply what it returns to the locus (through its guarded API)."""
    event = event_dict_of(locus, decl.input_locus_names)
    result = instance._run(event, time_series_of(locus, decl.declared_alert_inputs))
    if result is None:  # returned early without its dictionary: what it wrote into it still counts
        result = event
    if not isinstance(result, dict):
        raise FilterError(f'_run(event_dict, ts) must return the dictionary, got {type(result).__name__}')
    for name, value in result.items():
        if name in decl.locus_props:
            locus.properties[name] = value
        elif name in decl.tags and _truthy(value):
            locus.tag(name)


def _truthy(value):
    try:
        return bool(value)
    except (TypeError, ValueError):  # a numpy array: ambiguous, so no tag
        return False
