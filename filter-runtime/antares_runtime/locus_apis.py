"""The locus each filter API receives: LocusA and LocusB (locus.py) and, here, the 2019 devkit's
LegacyLocus (`import antares.dev_kit as dk`; legacy.py says how its function filters are loaded).
LegacyLocus's methods follow the 2019 devkit's documentation notebook (its printed outputs show
get_properties() and get_time_series() results)."""

from .errors import Halt
from .locus import GuardedDict, LocusA, LocusB

# Unprefixed alert property names of 2019 and the fields that replaced them.
ALIASES = {name: 'ant_' + name for name in (
    'passband', 'mag', 'magerr', 'maglim', 'ra', 'dec', 'mjd', 'survey', 'mag_corrected',
    'magerr_corrected', 'magulim_corrected', 'magllim_corrected', 'time')}


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


def make_locus(raw, changes, api):
    return locus_class(api)(raw, changes)


def locus_class(api):
    """The locus type each filter API receives ('2019': the function filters of antares.dev_kit)."""
    if api == 'B':
        return LocusB
    if api == '2019':
        return LegacyLocus
    return LocusA
