"""Filter declarations, output enforcement and the per-locus run engine shared by both class APIs.

Nothing here imports numpy/pandas/astropy: a trivial filter must cost microseconds per locus.
"""
import math
import time
import traceback

from .environment import missing_module_message
from .errors import FilterError, Halt
from .event_dict import instance_inputs, run_event_dict, takes_event_dict
from .locus import LocusA, LocusB, unpacked_properties
from .locus_apis import make_locus

TYPES = ('int', 'float', 'str')
MAX_STR = 65536  # a property is a value, not a file: keeps reports far below the pool's line cap


class Changes:
    """What one run did, recorded only through the guarded locus API and validated at record time."""
    __slots__ = ('decl', 'locus_props', 'alert_props', 'tags')

    def __init__(self, decl):
        self.decl = decl
        self.locus_props = {}
        self.alert_props = {}
        self.tags = set()

    def set_locus_property(self, name, value):
        self.locus_props[name] = check_value(self.decl.locus_props, name, value, 'locus property')
        return self.locus_props[name]

    def set_alert_property(self, name, value):
        self.alert_props[name] = check_value(self.decl.alert_props, name, value, 'alert property')
        return self.alert_props[name]

    def add_tag(self, name):
        if not isinstance(name, str) or name not in self.decl.tags:
            raise FilterError(f'tag {name!r} is not declared in {self.decl.tag_attr} '
                              f'(declared: {sorted(self.decl.tags)})')
        self.tags.add(name)


def check_value(declared, name, value, what):
    """Type-check an output against its declaration and return a JSON-safe plain Python value."""
    if name not in declared:
        raise FilterError(f'{what} {name!r} is not declared (declared: {sorted(declared)})')
    kind = declared[name]
    if hasattr(value, 'item') and not isinstance(value, (str, bytes)):  # numpy scalars
        try:
            value = value.item()
        except (TypeError, ValueError):
            pass
    if kind == 'str':
        if isinstance(value, str):
            if len(value) > MAX_STR:
                raise FilterError(f'{what} {name!r}: strings are limited to {MAX_STR} characters')
            return value
    elif kind == 'int':
        if isinstance(value, int):  # bool is accepted as 0/1
            return int(value)
        if isinstance(value, float) and value.is_integer():
            return int(value)
    elif kind == 'float':
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            value = float(value)
            # JSON has no NaN/Infinity: a non-finite feature value is stored as null.
            return value if math.isfinite(value) else None
    if value is None:
        return None
    raise FilterError(f'{what} {name!r} is declared {kind} but got {type(value).__name__}: {value!r:.80}')


class Declarations:
    """The filter class's attributes, normalised and checked once at load time."""

    def __init__(self, cls, api):
        self.cls = cls
        self.api = api
        self.name = getattr(cls, 'NAME', None) or cls.__name__
        self.required_locus_props = _names(cls, 'REQUIRED_LOCUS_PROPERTIES')
        self.required_alert_props = _names(cls, 'REQUIRED_ALERT_PROPERTIES')
        self.required_tags = _names(cls, 'REQUIRED_TAGS')
        # Class API A's INPUT_* are requirements too (ADR 0014); API B declares requirements as REQUIRED_*
        # beside INPUT_*, which there only describe what the code reads.
        inputs_required = api == 'A'
        self.input_locus_props = _names(cls, 'INPUT_LOCUS_PROPERTIES') if inputs_required else []
        self.input_alert_props = _names(cls, 'INPUT_ALERT_PROPERTIES') if inputs_required else []
        self.input_tags = _names(cls, 'INPUT_TAGS') if inputs_required else []
        # Every locus property the filter reads, whatever its API: what orders it after the filters that
        # write them (a chain, ADR 0055). A devkit2-style filter adds the names setup() sets (note_instance).
        self.declared_alert_inputs = _names(cls, 'INPUT_ALERT_PROPERTIES')
        self.input_locus_names = list(dict.fromkeys(_names(cls, 'INPUT_LOCUS_PROPERTIES') + self.required_locus_props))
        self.dict_style = api == 'B' and takes_event_dict(cls)
        self.requires_files = _names(cls, 'REQUIRES_FILES')
        self.locus_props = _typed(cls, 'OUTPUT_LOCUS_PROPERTIES')
        self.alert_props = _typed(cls, 'OUTPUT_ALERT_PROPERTIES')
        # API B names its tag list OUTPUT_LOCUS_TAGS; real API B filters also use OUTPUT_TAGS.
        self.tag_attr = {'B': 'OUTPUT_LOCUS_TAGS',
                         '2019': "the stream names the filter's code passes to send_to_stream()"}.get(api, 'OUTPUT_TAGS')
        self.tags = set(_tag_names(cls, 'OUTPUT_TAGS')) | set(_tag_names(cls, 'OUTPUT_LOCUS_TAGS'))
        region = getattr(cls, 'REQUIRED_GRAV_WAVE_PROB_REGION', None)
        if region is not None and not isinstance(region, (int, float)):
            raise FilterError('REQUIRED_GRAV_WAVE_PROB_REGION must be a number (percent)')
        self.gw_region = region
        survey = getattr(cls, 'TRIGGERING_SURVEY', None)
        self.triggering_survey = str(getattr(survey, 'value', survey)).lower() if survey else None
        self.error_channel = getattr(cls, 'ERROR_SLACK_CHANNEL', None) or getattr(cls, 'SLACK_CHANNEL', None) or ''
        self.requirements = self._requirements()

    def _requirements(self):
        """What a locus must have for the filter to run, as checks in the order skip_reason makes them, each
        with the reason it gives. The pool gets them with the load outputs and makes the same checks
        before sending a locus (pool/requirements.ts): a locus it knows the filter would skip is not sent."""
        checks = [{'check': 'locus_property', 'name': n, 'reason': f'missing {kind} locus property {n}'}
                  for names, kind in ((self.required_locus_props, 'required'), (self.input_locus_props, 'input'))
                  for n in names]
        checks += [{'check': 'tag', 'name': n, 'reason': f'missing {kind} tag {n}'}
                   for names, kind in ((self.required_tags, 'required'), (self.input_tags, 'input')) for n in names]
        # Old filters name normalised fields without the ant_ prefix ('passband' for ant_passband).
        checks += [{'check': 'alert_property', 'name': n, 'reason': f'missing {kind} alert property {n}'}
                   for names, kind in ((self.required_alert_props, 'required'), (self.input_alert_props, 'input'))
                   for n in names]
        if self.triggering_survey:
            checks.append({'check': 'triggering_survey', 'survey': self.triggering_survey,
                           'reason': f'triggering alert is not from {self.triggering_survey}'})
        if self.gw_region is not None:
            checks.append({'check': 'grav_wave_region', 'region': self.gw_region,
                           'reason': f'not inside the {self.gw_region}% region of a gravitational-wave event'})
        return checks

    def note_instance(self, instance):
        """After setup(): the property names a devkit2-style filter put in `self.input_properties`."""
        if self.dict_style:
            self.input_locus_names = list(dict.fromkeys(self.input_locus_names + instance_inputs(instance)))

    def outputs(self):
        return {
            'name': self.name, 'api': self.api,
            'input_locus_properties': list(self.input_locus_names),
            'run_style': 'event_dict' if self.dict_style else 'locus',
            'locus_properties': [{'name': n, 'type': t} for n, t in self.locus_props.items()],
            'alert_properties': [{'name': n, 'type': t} for n, t in self.alert_props.items()],
            'tags': sorted(self.tags), 'requires_files': self.requires_files,
            'error_channel': self.error_channel, 'triggering_survey': self.triggering_survey,
            'required_grav_wave_prob_region': self.gw_region,
            'requirements': self.requirements,
        }

    def skip_reason(self, raw):
        """Why the filter must not run on this locus dict, or None: the first of its requirements the locus
        fails. Mirrors the real REQUIRED_* semantics; in class API A the INPUT_* names are the same
        requirement (published filters declare with them what their code indexes without checking: a
        ZTF-only filter's INPUT_LOCUS_PROPERTIES = ['ztf_object_id'] keeps it off Rubin-only loci)."""
        props = alert = aprops = None
        alert_found = False
        for c in self.requirements:
            kind = c['check']
            if kind == 'locus_property':
                if props is None:
                    props = unpacked_properties(raw) or {}
                met = c['name'] in props
            elif kind == 'tag':
                met = c['name'] in (raw.get('tags') or ())
            else:
                if not alert_found:
                    alert, alert_found = trigger_alert(raw), True
                if kind == 'alert_property':
                    if aprops is None:
                        aprops = (unpacked_properties(alert) if alert else None) or {}
                    met = c['name'] in aprops or ('ant_' + c['name']) in aprops
                elif kind == 'triggering_survey':
                    met = alert_survey(alert) == c['survey']
                else:
                    events = (alert or {}).get('grav_wave_events') or ()
                    met = any(e.get('contour_level') is not None and e['contour_level'] <= c['region']
                              for e in events if isinstance(e, dict))
            if not met:
                return c['reason']
        return None


def trigger_alert(raw):
    alerts = raw.get('alerts') or ()
    wanted = raw.get('alert_id')
    if wanted is not None:
        for a in alerts:
            if a.get('alert_id') == wanted:
                return a
    return alerts[-1] if alerts else None


def alert_survey(alert):
    if not alert:
        return None
    if alert.get('survey'):
        return str(alert['survey']).lower()
    aid = str(alert.get('alert_id', ''))
    return 'lsst' if aid.startswith('lsst') else 'ztf' if aid.startswith('ztf') else None


def _names(cls, attr):
    value = getattr(cls, attr, None) or []
    if isinstance(value, str) or not all(isinstance(v, str) for v in value):
        raise FilterError(f'{attr} must be a list of strings')
    return list(value)


def _typed(cls, attr):
    out = {}
    for item in getattr(cls, attr, None) or []:
        if not isinstance(item, dict) or not isinstance(item.get('name'), str):
            raise FilterError(f'{attr} entries must be dicts with a name, a type and a description')
        kind = item.get('type')
        kind = getattr(kind, '__name__', kind)  # accept the builtins int/float/str as well as their names
        if kind not in TYPES:
            raise FilterError(f'{attr} {item["name"]!r}: type must be one of {TYPES}, got {kind!r}')
        out[item['name']] = kind
    return out


def _tag_names(cls, attr):
    names = []
    for item in getattr(cls, attr, None) or []:
        name = item.get('name') if isinstance(item, dict) else item
        if not isinstance(name, str):
            raise FilterError(f'{attr} entries must be dicts with a name and a description')
        names.append(name)
    return names


def run_one(instance, decl, raw, locus=None, reraise=False):
    """Run one filter instance on one locus dict (or prepared locus). Returns the report dict.

    Python exceptions from user code are turned into an error report; BaseExceptions (timeouts,
    SystemExit, KeyboardInterrupt) propagate so the caller decides.
    """
    reason = decl.skip_reason(raw)
    report = {'locus_id': raw.get('locus_id'), 't': 0.0, 'new_locus_properties': {},
              'new_alert_properties': {}, 'new_tags': [], 'raised_halt': False, 'status': 'ok'}
    if reason:
        report['status'] = 'skipped'
        report['skip_reason'] = reason
        return report, None
    changes = Changes(decl)
    if locus is None:
        locus = make_locus(raw, changes, decl.api)
    else:
        locus._bind(changes)
    t0 = time.perf_counter()
    try:
        if decl.dict_style:
            run_event_dict(instance, decl, locus)
        elif decl.api == 'B':
            instance._run(locus)
        else:
            instance.run(locus)
    except Halt:
        report['raised_halt'] = True
    except Exception as exc:  # user code: reported, never fatal
        if reraise:
            raise
        report['t'] = time.perf_counter() - t0
        report['status'] = 'error'
        report['error'] = format_error(exc, skip_frames=1)  # the traceback starts in the filter's code
        return report, locus
    report['t'] = time.perf_counter() - t0
    report['new_locus_properties'] = changes.locus_props
    report['new_alert_properties'] = changes.alert_props
    report['new_tags'] = sorted(changes.tags)
    return report, locus


def format_error(exc, skip_frames=0):
    tb_obj = exc.__traceback__
    for _ in range(skip_frames):
        tb_obj = tb_obj.tb_next if tb_obj is not None and tb_obj.tb_next is not None else tb_obj
    tb = ''.join(traceback.format_exception(type(exc), exc, tb_obj))
    # A package the sandbox does not provide, imported at load or inside run(): say so, and what is there.
    message = (missing_module_message(exc) if isinstance(exc, ModuleNotFoundError) else None) or str(exc)
    return {'type': type(exc).__name__, 'message': message[:2000], 'traceback': tb[-20000:]}


def percentiles(ts):
    """numpy's default (linear) percentiles, without importing numpy."""
    out = {}
    data = sorted(ts)
    for p in (50, 90, 95, 99):
        key = f't_{p}_percentile'
        if not data:
            out[key] = None
            continue
        pos = (len(data) - 1) * p / 100.0
        lo = int(math.floor(pos))
        hi = min(lo + 1, len(data) - 1)
        out[key] = data[lo] + (data[hi] - data[lo]) * (pos - lo)
    return out


__all__ = ['Halt', 'FilterError', 'Declarations', 'run_one', 'percentiles', 'LocusA', 'LocusB']
