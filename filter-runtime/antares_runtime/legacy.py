"""The 2019 devkit API (`import antares.dev_kit as dk`): a filter is a plain function of one locus.

    def my_filter(locus):                      # or (locus_data), as the 2018-19 pipeline page wrote them
        p = locus.alert.properties             # or locus.get_properties()
        if p['passband'] == 'g' and ...:       # unprefixed names of that era read the ant_ fields
            locus.alert.properties['me_score'] = 1.0   # or locus.set_property('me_score', 1.0)
            locus.send_to_stream('my_stream')  # a stream of then is a tag now
        raise locus.halt                       # or raise locus.get_halt()

Those filters declared nothing: the submission form named their streams and properties. Here the
function is wrapped in a filter class declaring the outputs its module's code names
(legacy_outputs.py says how). The locus methods of that time follow the 2019 devkit's documentation
notebook (its printed outputs show get_properties() and get_time_series() results).
"""
import ast
import inspect

from .api import Filter
from .core import Halt
from .legacy_outputs import TAG_CALLS, infer_outputs  # noqa: F401 (infer_outputs: this module's API)
from .locus import GuardedDict, LocusA

# Unprefixed alert property names of 2019 and the fields that replaced them.
ALIASES = {name: 'ant_' + name for name in (
    'passband', 'mag', 'magerr', 'maglim', 'ra', 'dec', 'mjd', 'survey', 'mag_corrected',
    'magerr_corrected', 'magulim_corrected', 'magllim_corrected', 'time')}
LOCUS_PARAMETERS = ('locus', 'locus_data', 'ld')


class AliasedProperties(GuardedDict):
    """Alert properties where an unprefixed 2019 name reads its ant_ field, and `alert_id` the alert's id
    (the 2019 devkit's property dict held both); writes stay guarded."""
    __slots__ = ('_alert_id',)

    def __init__(self, data, setter, alert_id=None):
        GuardedDict.__init__(self, data, setter)
        self._alert_id = alert_id

    def __missing__(self, name):
        if name == 'alert_id' and self._alert_id is not None:
            return self._alert_id
        alias = ALIASES.get(name)
        if alias is not None and dict.__contains__(self, alias):
            return dict.__getitem__(self, alias)
        raise KeyError(name)

    def get(self, name, default=None):
        try:
            return self[name]
        except KeyError:
            return default

    def __contains__(self, name):
        return dict.__contains__(self, name) or dict.__contains__(self, ALIASES.get(name, name)) or \
            (name == 'alert_id' and self._alert_id is not None)


def _aliased(alert):
    props = alert.properties
    if not isinstance(props, AliasedProperties):
        alert.properties = AliasedProperties(props, props._setter, alert.alert_id)
    return alert


class TimeSeriesColumns(tuple):
    """get_time_series() result: the 2019 devkit's rows, alert_id, mjd, then one per name asked for
    (`alert_id, mjd, mag = ld.get_time_series('ztf_magpsf')`); also indexable by name."""

    def __new__(cls, names, columns):
        obj = tuple.__new__(cls, columns)
        obj.names = names
        return obj

    def __getitem__(self, key):
        if isinstance(key, str):
            return tuple.__getitem__(self, self.names.index(key))
        return tuple.__getitem__(self, key)


def is_detection(alert):
    """The 2019 pipeline kept detections only: ZTF upper limits and forced photometry came later."""
    aid = str(alert.alert_id or '')
    return not aid.startswith(('ztf_upper_limit:', 'lsst_forced:')) and alert.properties.get('ant_survey') != 2 \
        and not alert.properties.get('ant_forced_photometry')


def _column(values):
    import numpy as np
    if values and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in values):
        return np.array(values, dtype=float if any(isinstance(v, float) for v in values) else np.int64)
    return np.array(values, dtype=object)


def _median(values):
    """numpy's median of the finite values (NaN when none), as the high-amplitude filter took it."""
    import math
    finite = sorted(v for v in values if isinstance(v, (int, float)) and math.isfinite(v))
    if not finite:
        return float('nan')
    mid = len(finite) // 2
    return finite[mid] if len(finite) % 2 else (finite[mid - 1] + finite[mid]) / 2.0


class LegacyLocus(LocusA):
    """The locus a 2019 function filter receives: the class-API-A locus plus that era's methods."""
    halt = Halt

    @property
    def alert(self):
        alert = LocusA.alert.fget(self)
        return _aliased(alert) if alert is not None else None

    @property
    def alerts(self):
        return [_aliased(a) for a in LocusA.alerts.fget(self)]

    def send_to_stream(self, name):
        self.tag(name)

    add_tag = send_to_stream

    def get_properties(self):
        return self.alert.properties

    def get_locus_properties(self):
        return self.properties

    def set_property(self, name, value):
        """2019 filters annotated the alert."""
        self.alert.properties[name] = value

    def set_locus_property(self, name, value):
        self.properties[name] = value

    def get_halt(self):
        return Halt()

    def get_astro_object_matches(self):
        return self.catalog_objects

    def get_alerts(self):
        return self.alerts

    def get_alert_id(self):
        return self.alert.alert_id if self.alert else None

    def get_locus_id(self):
        return self.locus_id

    def report_error(self, tag=None, data=None):
        """2019: reported a problem to the filter's author without failing; here it goes to the locus'
        stderr, which the run report carries."""
        import sys
        print(f'report_error {tag}: {data!r}', file=sys.stderr)

    def get_time_series(self, *names, filters=None, require=None):
        """(alert_id, mjd, one array per name) over the detections, oldest first, that have every
        `require`d property (default: the names asked for) and whose properties equal `filters`
        ({name: value}). Numbers come as numeric arrays, anything else as object arrays."""
        import numpy as np
        required = list(names) if require is None else list(require)
        rows = [a for a in self.alerts if is_detection(a)
                and all(a.properties.get(n) is not None for n in required)
                and all(a.properties.get(k) == v for k, v in (filters or {}).items())]
        columns = [np.array([a.alert_id for a in rows], dtype=object),
                   np.array([a.mjd for a in rows], dtype=float)]
        columns += [_column([a.properties.get(name) for a in rows]) for name in names]
        return TimeSeriesColumns(['alert_id', 'mjd', *names], columns)

    def get_varstar_corrected_mags(self, fid=None, match_radius_arcsec=1.5, star_galaxy_threshold=0.4):
        """(mags, errs, times, is_var_star, corrected) of the detections in ZTF band `fid` (default: the
        triggering alert's), oldest first. The 2019 helper's code is not public; this follows the
        ANTARES high-amplitude filter it served: a variable star when the median distance to the nearest
        Pan-STARRS source (ztf_distpsnr1) and to the reference-image source (ztf_distnr) are under
        `match_radius_arcsec` and the median star/galaxy score (ztf_sgscore1) is over
        `star_galaxy_threshold`; magnitudes are ant_mag_corrected/ant_magerr_corrected (the difference
        magnitude corrected for the reference source's flux) when the alerts have them, else
        ztf_magpsf/ztf_sigmapsf."""
        import numpy as np
        if fid is None:
            fid = self.alert.properties.get('ztf_fid')
        rows = [a.properties for a in self.alerts if is_detection(a) and a.properties.get('ztf_fid') == fid
                and a.properties.get('ztf_magpsf') is not None and a.properties.get('ztf_sigmapsf') is not None]
        is_var_star = (_median([p.get('ztf_distpsnr1') for p in rows]) < match_radius_arcsec
                       and _median([p.get('ztf_distnr') for p in rows]) < match_radius_arcsec
                       and _median([p.get('ztf_sgscore1') for p in rows]) > star_galaxy_threshold)
        with_corrected = [p for p in rows if p.get('ant_mag_corrected') is not None
                          and p.get('ant_magerr_corrected') is not None]
        corrected = bool(with_corrected)
        if corrected:
            mags = [p['ant_mag_corrected'] for p in with_corrected]
            errs = [p['ant_magerr_corrected'] for p in with_corrected]
            times = [p.get('ant_mjd') for p in with_corrected]
        else:
            mags, errs = [p['ztf_magpsf'] for p in rows], [p['ztf_sigmapsf'] for p in rows]
            times = [p.get('ant_mjd') for p in rows]
        return (np.array(mags, dtype=float), np.array(errs, dtype=float), np.array(times, dtype=float),
                bool(is_var_star), corrected)


class FunctionFilter(Filter):
    """Base of the classes wrapping 2019 function filters."""
    _antares_api = '2019'


def is_filter_function(value, module_name=None):
    """A module-level function taking the locus as its one required argument."""
    if not inspect.isfunction(value) or (module_name is not None and value.__module__ != module_name):
        return False
    params = [p for p in inspect.signature(value).parameters.values()
              if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    required = [p for p in params if p.default is p.empty]
    return len(required) == 1 and required[0].name in LOCUS_PARAMETERS


def acting_functions(functions, source):
    """Of several candidate functions, those that act on the locus (send to a stream, tag, set a property,
    halt): a helper such as `def magnitudes(locus)` defined after the filter is not the filter. All of them
    when none acts or the source is unknown."""
    if not source:
        return functions
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return functions
    acting = {node.name for node in tree.body if isinstance(node, ast.FunctionDef) and _acts(node)}
    chosen = [f for f in functions if f.__name__ in acting]
    return chosen or functions


def _acts(function):
    tags, locus_props, alert_props = infer_outputs(ast.Module(body=[function], type_ignores=[]))
    if tags or locus_props or alert_props:
        return True
    return any(isinstance(node, ast.Attribute) and node.attr in ('halt', 'get_halt') for node in ast.walk(function))


def function_filter_class(func, source=None):
    """An API-A filter class running `func(locus)`, declaring the outputs its module's code names."""
    if source is None:
        module = inspect.getmodule(func)
        try:
            source = inspect.getsource(module) if module is not None else inspect.getsource(func)
        except (OSError, TypeError):
            source = inspect.getsource(func)
    tags, locus_props, alert_props = infer_outputs(source)

    def run(self, locus):
        func(locus)

    described = 'set by the filter (declared from its code)'
    return type(func.__name__, (FunctionFilter,), {
        '__module__': func.__module__, 'NAME': func.__name__, 'run': run, '__doc__': func.__doc__,
        'OUTPUT_TAGS': [{'name': t, 'description': 'stream named by the filter'} for t in tags],
        'OUTPUT_LOCUS_PROPERTIES': [{'name': n, 'type': k, 'description': described} for n, k in locus_props.items()],
        'OUTPUT_ALERT_PROPERTIES': [{'name': n, 'type': k, 'description': described} for n, k in alert_props.items()],
    })
