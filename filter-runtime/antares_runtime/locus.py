"""The locus object handed to filters (both class APIs), built lazily from a locus dict.

Only locus_id/ra/dec are set eagerly; everything else (properties copy, alert objects, pandas and
astropy tables) is built on first access, so a filter that only tags costs a few microseconds.
Writes go through guarded dicts that record and type-check them in the run's Changes object.
"""


class GuardedDict(dict):
    """A dict whose writes are checked and recorded by `setter(name, value) -> stored value`."""
    __slots__ = ('_setter',)

    def __init__(self, data, setter):
        dict.__init__(self, data)
        self._setter = setter

    def __setitem__(self, name, value):
        dict.__setitem__(self, name, self._setter(name, value))

    def update(self, *args, **kwargs):
        for name, value in dict(*args, **kwargs).items():
            self[name] = value

    def setdefault(self, name, default=None):
        if name not in self:
            self[name] = default
        return dict.__getitem__(self, name)

    def __ior__(self, other):
        self.update(other)
        return self

    def _read_only(self, *args, **kwargs):
        raise TypeError('properties cannot be deleted by a filter')

    __delitem__ = pop = popitem = clear = _read_only

    def __reduce_ex__(self, protocol):
        # A copy (copy, deepcopy, pickle) is a plain dict, the filter's own: making it writes nothing.
        return dict, (dict(self),)


def _unpack_json(packed):
    import base64
    import json
    return json.loads(base64.b64decode(packed))


# The worker replaces these with its own functions, bound before any filter code runs: UNPACK decodes
# packed properties; FETCH asks the pool for those of an alert or a locus sent `deferred`; NOTE is
# told of each dict whose properties are decoded.
UNPACK = [_unpack_json]
FETCH = [None]
NOTE = [None]
# FETCH_ALERTS is told of each read of a locus' whole alert list, and asks the pool for it if the list
# came `alerts_deferred` (only its triggering alert: PROTOCOL.md, "Deferred alert lists").
FETCH_ALERTS = [None]


def whole_alerts(raw):
    """A locus dict's alerts, all of them: asked for first if only the triggering one came."""
    if FETCH_ALERTS[0] is not None:
        FETCH_ALERTS[0](raw)
    return raw.get('alerts') or ()


def unpacked_properties(raw):
    """An alert dict's or a locus dict's properties. The pool may send them packed (PROTOCOL.md:
    base64 of their JSON under `packed`), or not at all (`deferred`: the worker asks for them): they
    are then decoded here, on first use, and kept in the dict."""
    props = raw.get('properties')
    if props is None:
        packed = raw.get('packed')
        if packed is None and raw.get('deferred') is True and FETCH[0] is not None:
            FETCH[0](raw)
            packed = raw.get('packed')
        if packed is not None:
            if NOTE[0] is not None:
                NOTE[0](raw)
            props = raw['properties'] = UNPACK[0](packed)
            del raw['packed']
    return props


def _read_only_alert(name, value):
    raise TypeError('only the triggering alert (locus.alert) can be given new properties')


class KeptAlert(dict):
    """An alert dict the worker keeps across runs (PROTOCOL.md, alert references). It also keeps the
    read-only copy of its properties that the runs after the one it triggered share. Alert dicts that
    authors hand to the devkit helpers stay plain dicts, untouched."""
    __slots__ = ('read_only',)

    def __init__(self, data):
        dict.__init__(self, data)
        self.read_only = None

    def __reduce_ex__(self, protocol):
        return dict, (dict(self),)  # copies and pickles are plain alert dicts


class Alert:
    """One alert of the locus: alert_id, mjd, properties, grav_wave_events (real devkit names).

    Built for every alert of a locus a filter looks at, so only what sorting needs (id, mjd) is set
    at once; the guarded copy of the properties, the survey and the GW list on first access. An
    earlier alert's copy cannot be written, so the worker's alerts (KeptAlert) make it once and later
    runs reuse it: a locus of 30 alerts then costs no 30 dict copies per filter run."""
    __slots__ = ('alert_id', 'locus_id', 'mjd', '_survey', '_properties', '_gw', '_setter', '_raw')

    def __init__(self, raw, locus_id, setter):
        self._raw = raw
        self._setter = setter
        self._properties = self._survey = self._gw = None
        self.alert_id = raw.get('alert_id')
        self.locus_id = raw.get('locus_id', locus_id)
        mjd = raw.get('mjd')
        if mjd is None:
            mjd = (unpacked_properties(raw) or {}).get('ant_mjd')
        self.mjd = mjd

    @property
    def properties(self):
        props = self._properties
        if props is None:
            raw = self._raw
            if self._setter is _read_only_alert and type(raw) is KeptAlert:
                props = raw.read_only
                if props is None:
                    props = raw.read_only = GuardedDict(unpacked_properties(raw) or {}, _read_only_alert)
            else:
                props = GuardedDict(unpacked_properties(raw) or {}, self._setter)
            self._properties = props
        return props

    @properties.setter
    def properties(self, value):
        self._properties = value

    @property
    def survey(self):
        if self._survey is None:
            self._survey = self._raw.get('survey') or _survey_from_id(self.alert_id) or ''
        return self._survey or None

    @survey.setter
    def survey(self, value):
        self._survey = value if value is not None else ''

    @property
    def grav_wave_events(self):
        if self._gw is None:
            self._gw = list(self._raw.get('grav_wave_events') or ())
        return self._gw

    @grav_wave_events.setter
    def grav_wave_events(self, value):
        self._gw = value

    def __repr__(self):
        return f'Alert(alert_id="{self.alert_id}")'


def _survey_from_id(alert_id):
    text = str(alert_id or '')
    return 'lsst' if text.startswith('lsst') else 'ztf' if text.startswith('ztf') else None


class UncheckedChanges:
    """What is done to a locus no filter run owns (one from `dk.get_locus()`, `locus_from_dict()`,
    `DevKitLocus.model_validate()`): recorded as the real devkit's loci take it, with nothing declared
    to check against. A filter run binds its own, checked, change log instead."""
    __slots__ = ('locus_props', 'alert_props', 'tags')

    def __init__(self):
        self.locus_props, self.alert_props, self.tags = {}, {}, set()

    def set_locus_property(self, name, value):
        self.locus_props[name] = value = _plain(value)
        return value

    def set_alert_property(self, name, value):
        self.alert_props[name] = value = _plain(value)
        return value

    def add_tag(self, name):
        self.tags.add(name)


def _plain(value):
    if hasattr(value, 'item') and not isinstance(value, (str, bytes)):  # numpy scalars
        try:
            return value.item()
        except (TypeError, ValueError):
            pass
    return value


class TagList(list):
    """`locus.tags`: the locus' tags; appending one tags the locus (published filters write
    `locus.tags.append('my_tag')` as well as `locus.tag('my_tag')`), checked like tag()."""
    __slots__ = ('_tag',)

    def __init__(self, names, tag):
        list.__init__(self, names)
        self._tag = tag

    def append(self, name):
        self._tag(name)

    def extend(self, names):
        for name in list(names):
            self._tag(name)

    def insert(self, index, name):
        self._tag(name)

    def __iadd__(self, names):
        self.extend(names)
        return self

    def __reduce_ex__(self, protocol):
        return list, (list(self),)


class LocusBase:
    def __init__(self, raw, changes=None):
        if not isinstance(raw, dict):
            raise TypeError('a locus is built from a dict (see PROTOCOL.md)')
        self._raw = raw
        self._changes = changes
        self._cache = {}
        self.locus_id = raw.get('locus_id')
        self.ra = raw.get('ra')
        self.dec = raw.get('dec')

    def _bind(self, changes):
        """Attach a fresh run's change log (devkit helpers reuse a locus across runs)."""
        self._changes = changes
        self._cache.pop('properties', None)
        self._cache.pop('alerts', None)
        self._cache.pop('alert', None)

    # -- setters routed to the current run
    def _changes_now(self):
        if self._changes is None:
            self._changes = UncheckedChanges()
        return self._changes

    def _set_locus(self, name, value):
        return self._changes_now().set_locus_property(name, value)

    def _set_alert(self, name, value):
        return self._changes_now().set_alert_property(name, value)

    # -- the public API
    @property
    def properties(self):
        props = self._cache.get('properties')
        if props is None:
            props = self._cache['properties'] = GuardedDict(unpacked_properties(self._raw) or {}, self._set_locus)
        return props

    @property
    def tags(self):
        tags = self._cache.get('tags')
        if tags is None:
            tags = self._cache['tags'] = TagList(self._raw.get('tags') or (), self.tag)
        return tags

    def tag(self, name):
        self._changes_now().add_tag(name)
        if name not in self.tags:
            list.append(self.tags, name)

    def set_property(self, name, value):
        self.properties[name] = value

    @property
    def alerts(self):
        alerts = self._cache.get('alerts')
        if alerts is None:
            raws = list(whole_alerts(self._raw))
            trigger = _trigger_index(self._raw, raws)
            first = self._cache.get('alert')  # locus.alert alone may have been built already
            alerts = [first if i == trigger and first is not None else
                      Alert(a, self.locus_id, self._set_alert if i == trigger else _read_only_alert)
                      for i, a in enumerate(raws)]
            self._cache['alert'] = alerts[trigger] if alerts else None
            # Oldest first, whatever order the caller sent (a stable sort keeps equal times as sent).
            alerts.sort(key=_mjd_key)
            self._cache['alerts'] = alerts
        return alerts

    @property
    def alert(self):
        """The triggering alert, without building the others (most filters read only this one)."""
        cache = self._cache
        if 'alert' not in cache:
            raws = self._raw.get('alerts') or ()
            if not raws:
                return None
            cache['alert'] = Alert(raws[_trigger_index(self._raw, raws)], self.locus_id, self._set_alert)
        return cache['alert']

    @property
    def catalog_objects(self):
        return self._raw.get('catalog_objects') or {}

    @property
    def grav_wave_events_metadata(self):
        notices = self._cache.get('gw')
        if notices is None:
            from .gw import notices as as_notices
            notices = self._cache['gw'] = as_notices(self._raw.get('grav_wave_events_metadata'))
        return notices

    @property
    def watch_list_ids(self):
        return list(self._raw.get('watch_list_ids') or ())

    @property
    def watch_object_ids(self):
        return list(self._raw.get('watch_object_ids') or ())

    @property
    def lightcurve(self):
        if 'lightcurve' not in self._cache:
            from .frames import lightcurve
            self._cache['lightcurve'] = lightcurve(self)
        return self._cache['lightcurve']

    def _timeseries(self, survey=None):
        key = ('timeseries', survey)
        if key not in self._cache:
            from .frames import timeseries
            self._cache[key] = timeseries(self, survey)
        return self._cache[key]

    def to_dict(self):
        unpacked_properties(self._raw)
        for alert in whole_alerts(self._raw):
            if isinstance(alert, dict):
                unpacked_properties(alert)
        return dict(self._raw)

    def __repr__(self):
        return f'FilterContext(locus_id="{self.locus_id}")'


def _mjd_key(alert):
    mjd = alert.mjd
    return mjd if isinstance(mjd, (int, float)) else float('inf')


def _trigger_index(raw, raws):
    wanted = raw.get('alert_id')
    if wanted is not None:
        for i, a in enumerate(raws):
            if a.get('alert_id') == wanted:
                return i
    return len(raws) - 1


class LocusA(LocusBase):
    """Class API A (antares.devkit): `locus.timeseries` is a property."""

    @property
    def timeseries(self):
        return self._timeseries()


class LocusB(LocusBase):
    """Class API B (antares_devkit): `locus.timeseries(survey=None)` is a method."""

    def timeseries(self, survey=None):
        survey = getattr(survey, 'value', survey)
        return self._timeseries(str(survey).lower() if survey else None)
