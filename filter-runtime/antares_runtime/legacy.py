"""The 2019 devkit API (`import antares.dev_kit as dk`): a filter is a plain function of one locus.

    def my_filter(locus):                      # or (locus_data), as the 2018-19 pipeline page wrote them
        p = locus.alert.properties             # or locus.get_properties()
        if p['passband'] == 'g' and ...:       # unprefixed names of that era read the ant_ fields
            locus.alert.properties['me_score'] = 1.0   # or locus.set_property('me_score', 1.0)
            locus.send_to_stream('my_stream')  # a stream of then is a tag now
        raise locus.halt                       # or raise locus.get_halt()

Those filters declared nothing: the submission form named their streams and properties. Here the
function is wrapped in a filter class whose outputs are read from the module's code: every string
literal passed to send_to_stream/tag/add_tag, set_property/set_locus_property, or written with
`<...>.properties['name'] = value` (directly or through a name bound to such a dict). A property's type
comes from the value written (str/f-string: str; int literal, len(), int(): int; otherwise float).
What the code names only at run time (computed names) is not declared, and writing it is an error.
"""
import ast
import inspect

from .api import Filter
from .core import Halt
from .locus import GuardedDict, LocusA

# Unprefixed alert property names of 2019 and the fields that replaced them.
ALIASES = {name: 'ant_' + name for name in (
    'passband', 'mag', 'magerr', 'maglim', 'ra', 'dec', 'mjd', 'survey', 'mag_corrected',
    'magerr_corrected', 'magulim_corrected', 'magllim_corrected', 'time')}
LOCUS_PARAMETERS = ('locus', 'locus_data', 'ld')
TAG_CALLS = ('send_to_stream', 'tag', 'add_tag')


class AliasedProperties(GuardedDict):
    """Alert properties where an unprefixed 2019 name reads its ant_ field; writes stay guarded."""
    __slots__ = ()

    def __missing__(self, name):
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
        return dict.__contains__(self, name) or dict.__contains__(self, ALIASES.get(name, name))


def _aliased(alert):
    props = alert.properties
    if not isinstance(props, AliasedProperties):
        alert.properties = AliasedProperties(props, props._setter)
    return alert


class TimeSeriesColumns(tuple):
    """get_time_series() result: unpacks as (mjd, *columns); also indexable by name."""

    def __new__(cls, names, columns):
        obj = tuple.__new__(cls, columns)
        obj.names = names
        return obj

    def __getitem__(self, key):
        if isinstance(key, str):
            return tuple.__getitem__(self, self.names.index(key))
        return tuple.__getitem__(self, key)


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

    def get_time_series(self, *names, filters=None, require=None):
        """(mjd, one array per name) over the alerts, oldest first, that have every `require`d property
        (default: all the names) and whose properties equal `filters` ({name: value})."""
        import numpy as np
        required = list(names) if require is None else list(require)
        rows = [a for a in self.alerts
                if all(a.properties.get(n) is not None for n in required)
                and all(a.properties.get(k) == v for k, v in (filters or {}).items())]
        columns = [np.array([a.mjd for a in rows], dtype=float)]
        for name in names:
            values = [a.properties.get(name) for a in rows]
            numeric = all(isinstance(v, (int, float)) and not isinstance(v, bool) or v is None for v in values)
            columns.append(np.array([np.nan if v is None else v for v in values], dtype=float) if numeric
                           else np.array(values, dtype=object))
        return TimeSeriesColumns(['mjd', *names], columns)


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


def infer_outputs(source):
    """(tags, {locus property: type}, {alert property: type}) named as literals in the code (text or tree)."""
    tree = ast.parse(source) if isinstance(source, str) else source
    tags, locus_props, alert_props = [], {}, {}
    alert_dicts, locus_dicts = set(), set()
    for node in ast.walk(tree):  # names bound to a properties dict: p = locus.alert.properties
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            owner = _properties_owner(node.value)
            if owner:
                (alert_dicts if owner == 'alert' else locus_dicts).add(node.targets[0].id)
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.args:
            name = _literal(node.args[0])
            if name is None:
                continue
            if node.func.attr in TAG_CALLS and name not in tags:
                tags.append(name)
            elif node.func.attr in ('set_property', 'set_locus_property') and len(node.args) > 1:
                target = alert_props if node.func.attr == 'set_property' else locus_props
                _record(target, name, node.args[1])
        elif isinstance(node, (ast.Assign, ast.AugAssign)):
            for target in (node.targets if isinstance(node, ast.Assign) else [node.target]):
                if not isinstance(target, ast.Subscript) or _literal(target.slice) is None:
                    continue
                owner = _properties_owner(target.value)
                if owner is None and isinstance(target.value, ast.Name):
                    owner = 'alert' if target.value.id in alert_dicts else 'locus' if target.value.id in locus_dicts else None
                if owner:
                    _record(alert_props if owner == 'alert' else locus_props, _literal(target.slice), node.value)
    return tags, locus_props, alert_props


def _properties_owner(node):
    """'alert' for <x>.alert.properties / <x>.get_properties(), 'locus' for <x>.properties, else None."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        return {'get_properties': 'alert', 'get_locus_properties': 'locus'}.get(node.func.attr)
    if isinstance(node, ast.Attribute) and node.attr == 'properties':
        inner = node.value
        return 'alert' if isinstance(inner, ast.Attribute) and inner.attr == 'alert' else 'locus'
    return None


def _literal(node):
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def _record(target, name, value):
    kind = _kind(value)
    previous = target.get(name)
    target[name] = kind if previous in (None, kind) else ('str' if 'str' in (previous, kind) else 'float')


def _kind(node):
    if isinstance(node, ast.JoinedStr) or (isinstance(node, ast.Constant) and isinstance(node.value, str)):
        return 'str'
    if isinstance(node, ast.Constant) and isinstance(node.value, (bool, int)):
        return 'int'
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
        return {'str': 'str', 'int': 'int', 'len': 'int', 'bool': 'int'}.get(node.func.id, 'float')
    return 'float'
