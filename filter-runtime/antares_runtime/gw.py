"""`locus.grav_wave_events_metadata` values: gravitational-wave notices as the devkit hands them out.

The devkit's notices are objects (its documentation notebook prints `notice.event_datetime`), built from
what the published client's `GravWaveNotice.to_devkit()` gives: gracedb_id, notice_type, notice_datetime,
event_datetime, false_alarm_rate, skymap_base64, external_coinc, full_notice, id, version_id. The
pipeline sends those fields next to the IGWN notice's own (superevent_id, event, ...), as JSON. A
GravWaveNotice is that dict, readable by attribute too, with the two times as datetimes; a field the
notice lacks reads as None, as in the client's dataclass.
"""
import datetime

FIELDS = ('gracedb_id', 'notice_type', 'notice_datetime', 'event_datetime', 'false_alarm_rate',
          'skymap_base64', 'external_coinc', 'full_notice', 'id', 'version_id')
TIMES = ('notice_datetime', 'event_datetime')


def _datetime(value):
    """An ISO-8601 text (the wire's form, with or without a trailing Z) as a naive UTC datetime."""
    if not isinstance(value, str):
        return value
    text = value.strip().replace('Z', '+00:00')
    try:
        moment = datetime.datetime.fromisoformat(text)
    except ValueError:
        return value
    if moment.tzinfo is not None:
        moment = moment.astimezone(datetime.timezone.utc).replace(tzinfo=None)
    return moment


class GravWaveNotice(dict):
    """One notice: a dict (as sent) whose devkit fields also read as attributes."""

    def __init__(self, data, gracedb_id=None):
        dict.__init__(self, data)
        event = self.get('event') if isinstance(self.get('event'), dict) else {}
        # Notices stored before the pipeline sent the devkit's fields: read them from the IGWN notice.
        self.setdefault('gracedb_id', gracedb_id or self.get('superevent_id'))
        self.setdefault('notice_type', self.get('alert_type'))
        self.setdefault('notice_datetime', self.get('time_created'))
        self.setdefault('event_datetime', event.get('time'))
        self.setdefault('false_alarm_rate', event.get('far'))
        for name in TIMES:
            dict.__setitem__(self, name, _datetime(self.get(name)))

    def __getattr__(self, name):
        if name in FIELDS:
            return self.get(name)
        if name == 'skymap':
            return self._skymap()
        try:
            return self[name]
        except KeyError:
            raise AttributeError(f"'GravWaveNotice' object has no attribute {name!r}") from None

    def _skymap(self):
        """The multi-order sky map as an astropy Table, as the client decodes it (None without one)."""
        encoded = self.get('skymap_base64')
        if not encoded:
            return None
        import base64
        import io

        from astropy.table import Table
        return Table.read(io.BytesIO(base64.b64decode(encoded)))

    def __repr__(self):
        return (f"GravWaveNotice(gracedb_id={self.get('gracedb_id')!r}, notice_type={self.get('notice_type')!r}, "
                f"event_datetime={self.get('event_datetime')!r})")


def notices(metadata):
    """{gracedb_id: GravWaveNotice} from a locus dict's grav_wave_events_metadata."""
    return {gid: value if isinstance(value, GravWaveNotice) else GravWaveNotice(value or {}, gid)
            for gid, value in (metadata or {}).items()}
