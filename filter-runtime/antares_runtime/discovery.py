"""Finding the filter a module defines: its filter classes, else its 2019-style filter functions
(wrapped in a class by legacy.py), and checking that ANTARES can call it."""
import inspect

from .api import BaseFilter, Filter, api_of
from .errors import FilterError
from .event_dict import takes_event_dict
from .legacy import acting_functions, function_filter_class, is_filter_function


def filter_candidates(namespace, module_name=None, source=None):
    """The filters a module defines, in definition order: its filter classes; when it has none, its
    2019-style filter functions (`def f(locus)`). Classes imported from elsewhere are not its own."""
    classes = [v for v in namespace.values()
               if isinstance(v, type) and issubclass(v, (Filter, BaseFilter)) and not _is_base(v)
               and (module_name is None or v.__module__ == module_name)]
    if classes:
        return classes
    functions = [v for v in namespace.values() if is_filter_function(v, module_name)]
    if len(functions) < 2:
        return functions
    return acting_functions(functions, source if source is not None else _module_source(namespace))


def _is_base(cls):
    return cls in (Filter, BaseFilter) or cls.__dict__.get('_antares_api') is not None


def find_filter_class(namespace, class_name=None, module_name=None, source=None):
    """The filter a module defines: the one named, else the last one it defines (notebook exports hold
    helper classes and earlier drafts above the filter meant). A 2019 filter function is wrapped in a class."""
    if class_name:
        chosen = namespace.get(class_name)
        if chosen is None or not (isinstance(chosen, type) or inspect.isfunction(chosen)):
            found = [c.__name__ for c in filter_candidates(namespace, module_name, source)]
            raise FilterError(f'{class_name} is not defined by the filter code (filters found: {found or "none"})')
    else:
        found = filter_candidates(namespace, module_name, source)
        if not found:
            raise FilterError('the code defines no filter: a subclass of dk.Filter (antares.devkit) or BaseFilter '
                              '(antares_devkit.models), or a 2019-style function `def my_filter(locus)`'
                              + _lookalikes(namespace, module_name))
        chosen = found[-1]
    if not isinstance(chosen, type):
        return function_filter_class(chosen, source if source is not None else _module_source(namespace))
    check_entry_point(chosen, api_of(chosen))
    return chosen


def _lookalikes(namespace, module_name):
    """'; X defines run() but subclasses neither ...' for classes shaped like a filter without the base."""
    shaped = [v.__name__ for v in namespace.values()
              if isinstance(v, type) and (module_name is None or v.__module__ == module_name)
              and not issubclass(v, (Filter, BaseFilter)) and ('run' in v.__dict__ or '_run' in v.__dict__)]
    if not shaped:
        return ''
    return (f"; {', '.join(shaped)} {'defines' if len(shaped) == 1 else 'define'} run() but "
            'subclasses neither: the class must inherit from one of them to be a filter')


def check_entry_point(cls, api):
    """ANTARES calls run(locus) (API A) or _run(locus) (API B) with the locus alone, or an API B
    `_run(event_dict, ts)` (the devkit2 style, event_dict.py) with those two: a method that needs other
    arguments fails at load, naming its signature, rather than on every locus."""
    if api == 'B' and takes_event_dict(cls):
        return
    name = '_run' if api == 'B' else 'run'
    method = getattr(cls, name, None)
    try:
        signature = inspect.signature(method)
    except (TypeError, ValueError):
        return
    params = list(signature.parameters.values())[1:]  # after self
    positional = [p for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    required = [p for p in positional if p.default is p.empty]
    takes_one = any(p.kind == p.VAR_POSITIONAL for p in params) or bool(positional)
    if len(required) > 1 or not takes_one:
        raise FilterError(f'{cls.__name__}.{name}{signature} cannot be called as ANTARES calls it, '
                          f'{name}(self, locus): the locus is its only argument'
                          + (' (or two, as in _run(self, event_dict, ts))' if api == 'B' else ''))


def _module_source(namespace):
    path = namespace.get('__file__')
    if isinstance(path, str):
        try:
            with open(path, encoding='utf-8') as fh:
                return fh.read()
        except OSError:
            pass
    return None
