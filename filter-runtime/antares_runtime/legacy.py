"""The 2019 devkit API (`import antares.dev_kit as dk`): a filter is a plain function of one locus.

    def my_filter(locus):                      # or (locus_data), as the 2018-19 pipeline page wrote them
        p = locus.alert.properties             # or locus.get_properties()
        if p['passband'] == 'g' and ...:       # unprefixed names of that era read the ant_ fields
            locus.alert.properties['me_score'] = 1.0   # or locus.set_property('me_score', 1.0)
            locus.send_to_stream('my_stream')  # a stream of then is a tag now
        raise locus.halt                       # or raise locus.get_halt()

Those filters declared nothing: the submission form named their streams and properties. Here the
function is wrapped in a filter class declaring the outputs its module's code names
(legacy_outputs.py says how); the locus they receive, with that era's methods, is LegacyLocus in
locus_apis.py.
"""
import ast
import inspect

from .api import Filter
from .legacy_outputs import TAG_CALLS, infer_outputs  # noqa: F401 (infer_outputs: this module's API)

LOCUS_PARAMETERS = ('locus', 'locus_data', 'ld')


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
