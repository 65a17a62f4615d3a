"""The three grav-wave notice calls, and a locus' grav_wave_events_data and to_devkit(include_grav_wave_events=True).
Notices are compared with their IGWN JSON files; associations with the client's own sky-map arithmetic."""
import base64
import datetime
import json

import astropy.units as u
import pytest
from astropy.coordinates import SkyCoord
from astropy.table import Table

from conftest import expected_alerts

WINDOW_DAYS = 14
# Credible levels in percent: the client's arithmetic and ours rank equal-density pixels differently.
LEVEL_TOLERANCE = 0.1


@pytest.fixture(scope='module')
def notices(facts):
    """gracedb_id -> its notices as the files give them, in the order they were ingested."""
    out = {}
    for path in facts['gw_notices']:
        with open(path) as fh:
            notice = json.load(fh)
        out.setdefault(notice['superevent_id'], []).append(notice)
    return out


def when(text):
    return datetime.datetime.fromisoformat(text.replace('Z', '+00:00'))


def check_notice(notice, source, version):
    from antares_client.models import GravWaveNotice, GravWaveNoticeTypes
    assert isinstance(notice, GravWaveNotice)
    assert notice.gracedb_id == source['superevent_id'] and notice.notice_type == GravWaveNoticeTypes(source['alert_type'])
    assert notice.notice_datetime == when(source['time_created']) and notice.version_id == version
    assert notice.full_notice['superevent_id'] == source['superevent_id']
    event = source.get('event')
    if event is None:  # a retraction
        assert notice.skymap_base64 is None and notice.event_datetime is None
        return
    assert abs(notice.event_datetime - when(event['time'])) < datetime.timedelta(milliseconds=1)
    assert notice.false_alarm_rate == event['far']
    assert base64.b64decode(notice.skymap_base64) == base64.b64decode(event['skymap'])
    assert isinstance(notice.skymap, Table) and {'UNIQ', 'PROBDENSITY'} <= set(notice.skymap.colnames)


def test_latest_notices(search, notices):
    for gracedb_id, versions in notices.items():
        check_notice(search.get_latest_grav_wave_notices(gracedb_id), versions[-1], len(versions))
    assert search.get_latest_grav_wave_notices('MS260605l').notice_type.value == 'RETRACTION'


def test_notice_by_its_time(search, notices):
    preliminary = notices['MS260605l'][0]
    created = when(preliminary['time_created'])
    # The client sends notice_datetime.isoformat(): aware ("+00:00") or naive (UTC).
    for moment in (created, created.replace(tzinfo=None)):
        check_notice(search.get_grav_wave_notices('MS260605l', moment), preliminary, 1)
    check_notice(search.get_grav_wave_notices('MS260605l', when(notices['MS260605l'][1]['time_created'])), notices['MS260605l'][1], 2)
    assert search.get_grav_wave_notices('MS260605l', created + datetime.timedelta(seconds=1)) is None


def test_multiple_notices(search, notices):
    found = search.get_multiple_grav_wave_notices(sorted(notices))
    assert sorted(n.gracedb_id for n in found) == sorted(notices)
    for notice in found:
        check_notice(notice, notices[notice.gracedb_id][-1], len(notices[notice.gracedb_id]))
    assert search.get_multiple_grav_wave_notices(['S000101zz']) == []


def test_associations_and_grav_wave_events_data(search, every_locus, expected, notices):
    s240116o = notices['S240116o'][0]
    mjd_zero = datetime.datetime(1858, 11, 17, tzinfo=datetime.timezone.utc)
    event_mjd = (when(s240116o['event']['time']) - mjd_zero) / datetime.timedelta(days=1)
    skymap_notice = search.get_latest_grav_wave_notices('S240116o')
    associated = 0
    for listed in every_locus:
        # Search results carry no grav_wave_events (the client's listing schema has no such field): get_by_id does.
        locus = search.get_by_id(listed.locus_id)
        alerts = expected_alerts(expected, locus)
        # A packet's detection within 14 days after the event, inside the 90% region by the client's arithmetic.
        wanted, borderline = {}, set()
        for alert in alerts.values():
            if alert.trigger and 0 <= alert.mjd - event_mjd <= WINDOW_DAYS:
                level, area = skymap_notice.get_probability_contour_level_and_area(SkyCoord(alert.ra * u.deg, alert.dec * u.deg))
                if abs(level - 90) < LEVEL_TOLERANCE:
                    borderline.add(alert.alert_id)
                elif level < 90:
                    wanted[alert.alert_id] = (level, area.to_value(u.deg ** 2))
        if borderline:
            continue
        assert locus.grav_wave_events == (['S240116o'] if wanted else []), locus.locus_id
        for alert in locus.alerts:
            events = alert.grav_wave_events
            if alert.alert_id not in wanted:
                assert events == [], alert.alert_id
                continue
            (event,) = events
            level, area = wanted[alert.alert_id]
            assert event['gracedb_id'] == 'S240116o'
            assert abs(event['contour_level'] - level) < LEVEL_TOLERANCE and abs(event['contour_area'] - area) < 1e-3 * area
        data = locus.grav_wave_events_data
        assert sorted(data) == sorted(locus.grav_wave_events)
        if wanted:
            associated += 1
            check_notice(data['S240116o'], s240116o, 1)
            devkit = locus.to_devkit(include_catalogs=True, include_grav_wave_events=True)
            meta = devkit['grav_wave_events_metadata']['S240116o']
            assert meta['gracedb_id'] == 'S240116o' and isinstance(meta['skymap'], Table) and len(meta['skymap']) == len(skymap_notice.skymap)
            assert [a['grav_wave_events'] for a in devkit['alerts'] if a['id'] in wanted] != []
    assert associated >= 3
