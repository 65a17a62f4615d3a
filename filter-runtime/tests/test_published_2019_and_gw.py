"""What published filter files found in public repositories use beyond test_published_styles.py, with
filters we wrote in their styles (tests/published_style): the 2019 devkit's time-series rows and
helpers (alert_id in get_properties(), get_varstar_corrected_mags, report_error, a stream name held in a
variable), a 2019 notebook export running the devkit's helpers at load, gravitational-wave notices read
as the devkit's objects with a tag appended to locus.tags, and the load errors of files ANTARES cannot
call. They run in the sandbox on the real ZTF and Rubin loci of ../shared/data; the expectations are
computed here from the locus dicts."""
import copy
import json
import os

import numpy as np
import pytest

import realdata
from conftest import require_prerequisites
from test_published_styles import source

pytestmark = pytest.mark.skipif(not realdata.available(), reason='../shared/data is not here')
GW_NOTICE = os.path.join(realdata.SHARED, 'skyportal', 'gw', 'igwn_gwalert_preliminary.json')


@pytest.fixture(scope='module')
def worker():
    require_prerequisites()
    from conftest import Worker
    w = Worker(sandboxed=True, slot=151, locus_timeout_s=10.0)  # a first timeseries on a busy CI machine
    yield w
    w.close()


def run_all(worker, name, loci):
    reports, _ = worker.run(name, loci)
    assert [r['locus_id'] for r in reports] == [locus['locus_id'] for locus in loci]
    return list(zip(loci, reports))


def trigger(locus):
    return locus['alerts'][-1]


# -- the 2019 devkit's rows and helpers ---------------------------------------------------------------

def with_corrected_magnitudes(loci):
    """Every third ZTF locus gets ant_mag_corrected on its detections (0.1 mag brighter), as the pipeline
    sets it where a reference source is near; the others keep none."""
    out = copy.deepcopy(loci)
    for locus in out[::3]:
        for alert in locus['alerts']:
            p = alert['properties']
            if alert['alert_id'].startswith('ztf_candidate:'):
                p['ant_mag_corrected'], p['ant_magerr_corrected'] = p['ztf_magpsf'] - 0.1, p['ztf_sigmapsf']
    return out


def finite_median(values):
    values = np.array([v for v in values if v is not None], dtype=float)
    values = values[np.isfinite(values)]
    return np.median(values) if len(values) else np.nan


def expect_band_variability(locus):
    p = trigger(locus)['properties']
    fid = p.get('ztf_fid')
    if fid is None:
        return None
    dets = [a for a in sorted(locus['alerts'], key=lambda a: a['mjd']) if a['alert_id'].startswith('ztf_candidate:')
            and a['properties'].get('ztf_fid') == fid and a['properties'].get('ztf_magpsf') is not None
            and a['properties'].get('ztf_sigmapsf') is not None]
    if len(dets) < 3:
        return {}, []
    props = [a['properties'] for a in dets]
    mag, err = np.array([q['ztf_magpsf'] for q in props]), np.array([q['ztf_sigmapsf'] for q in props])
    mean = np.sum(mag / err ** 2) / np.sum(1 / err ** 2)
    chi2 = np.sum(((mag - mean) / err) ** 2) / (len(mag) - 1)
    is_var = (finite_median([q.get('ztf_distpsnr1') for q in props]) < 1.5
              and finite_median([q.get('ztf_distnr') for q in props]) < 1.5
              and finite_median([q.get('ztf_sgscore1') for q in props]) > 0.4)
    corrected = [q['ant_mag_corrected'] for q in props if 'ant_mag_corrected' in q]
    values = {'bv_chi2': chi2, 'bv_n': len(dets), 'bv_last_alert': dets[-1]['alert_id'],
              'bv_mean_mag': float(np.mean(corrected or mag)), 'bv_corrected': int(bool(corrected))}
    tags = (['bv_variable_star' if is_var else 'bv_variable']) if chi2 > 10.0 else []
    return values, tags


def test_2019_rows_variable_star_helper_and_stream_held_in_a_variable(worker, ztf):
    loaded = worker.load('bv', source('legacy_2019_band_variability.py'))
    assert loaded['ok'], loaded.get('error')
    # the stream names the code binds to a variable are declared, as literal ones are
    assert loaded['outputs']['tags'] == ['bv_variable', 'bv_variable_star']
    assert {p['name']: p['type'] for p in loaded['outputs']['alert_properties']} == {
        'bv_chi2': 'float', 'bv_n': 'int', 'bv_last_alert': 'str', 'bv_mean_mag': 'float', 'bv_corrected': 'int'}
    loci = with_corrected_magnitudes(realdata.strip_private(ztf)) + realdata.strip_private(realdata.rubin_loci())
    counts = {'tagged': 0, 'var_star': 0, 'corrected': 0, 'reported': 0}
    for locus, report in run_all(worker, 'bv', loci):
        assert report['status'] == 'ok', (locus['locus_id'], report.get('error'))
        expected = expect_band_variability(locus)
        if expected is None:  # a Rubin alert: no ZTF band, reported to the author, no failure
            assert 'report_error bv_no_ztf_band' in report['stderr'] and trigger(locus)['alert_id'] in report['stderr']
            assert report['new_alert_properties'] == {} and report['new_tags'] == []
            counts['reported'] += 1
            continue
        values, tags = expected
        assert report['new_tags'] == tags, locus['locus_id']
        assert report['new_alert_properties'].keys() == values.keys()
        for key, value in values.items():
            assert report['new_alert_properties'][key] == (pytest.approx(value, rel=1e-9) if isinstance(value, float) else value)
        if values and values['bv_last_alert'] != trigger(locus)['alert_id']:
            pytest.fail(f"{locus['locus_id']}: the newest row is the triggering detection")
        counts['tagged'] += bool(tags)
        counts['var_star'] += tags == ['bv_variable_star']
        counts['corrected'] += values.get('bv_corrected', 0)
    assert counts['tagged'] and counts['corrected'] and counts['reported'] == len(realdata.rubin_loci())


def test_2019_notebook_export_runs_the_devkit_helpers_at_load(worker, ztf):
    loaded = worker.load('nb2019', source('notebook_2019_export.py'))
    assert loaded['ok'], loaded.get('error')
    assert loaded['outputs']['class_name'] == 'bright_flare' and loaded['outputs']['tags'] == ['nb2019_bright_flare']
    out = loaded['stdout']
    assert "mock streams ['nb2019_bright_flare']" in out  # dk.mock_locus + dk.run_stage(alert number, stage)
    assert 'ran 4 numbered alerts' in out  # dk.get_alert_ids gives numbers; unknown ones get a synthetic locus
    assert "direct call tags ['nb2019_bright_flare']" in out  # a devkit locus takes the stage's writes
    tagged = 0
    for locus, report in run_all(worker, 'nb2019', realdata.strip_private(ztf)):
        p = trigger(locus)['properties']
        want = p.get('ztf_magpsf', 99) < 16.0 and p.get('ztf_isdiffpos') == 't'
        assert report['status'] == 'ok' and report['new_tags'] == (['nb2019_bright_flare'] if want else [])
        tagged += want
    assert tagged < len(ztf)


# -- gravitational-wave notices -------------------------------------------------------------------------

def gw_loci(ztf):
    """ZTF loci associated with the real IGWN notice of ../shared/data (its sky map left out, as the pipeline
    stores it), its event moved to 0.5, 5 or -1 days before each triggering alert. Even loci carry the
    pipeline's notice fields (gracedb_id, event_datetime, ...), odd ones only the IGWN notice (how notices
    were sent before): both must read the same. Every fourth locus lies outside the 90% region."""
    from astropy.time import Time
    with open(GW_NOTICE) as fh:
        notice = json.load(fh)
    notice['event'].pop('skymap')
    loci, expected = [], {}
    for i, locus in enumerate(copy.deepcopy(realdata.strip_private(ztf))[:60]):
        days = (0.5, 5.0, -1.0)[i % 3]
        event_time = Time(trigger(locus)['mjd'] - days, format='mjd').isot + 'Z'
        own = copy.deepcopy(notice)
        own['event']['time'] = event_time
        if i % 2 == 0:
            own.update(gracedb_id=own['superevent_id'], notice_type=own['alert_type'], notice_datetime=own['time_created'],
                       event_datetime=event_time, false_alarm_rate=own['event']['far'], id=7, version_id=1)
        gid = notice['superevent_id']
        trigger(locus)['grav_wave_events'] = [{'gracedb_id': gid, 'contour_level': 95.0 if i % 4 == 3 else 50.0,
                                               'contour_area': 20.0}]
        locus['grav_wave_events_metadata'] = {gid: own}
        expected[locus['locus_id']] = None if i % 4 == 3 else (trigger(locus)['mjd'] - Time(event_time).mjd, gid)
        loci.append(locus)
    return loci, expected


def test_gw_notices_are_the_devkits_objects_and_tags_appended_to_locus_tags_count(worker, ztf):
    loaded = worker.load('gw', source('api_a_gw_notices.py'))
    assert loaded['ok'], loaded.get('error')
    loci, expected = gw_loci(ztf)
    outcomes = set()
    for locus, report in run_all(worker, 'gw', loci):
        want = expected[locus['locus_id']]
        if want is None:
            assert report['status'] == 'skipped' and '90.0% region' in report['skip_reason']
            outcomes.add('outside')
            continue
        days, gid = want
        assert report['status'] == 'ok', report.get('error')
        props = report['new_locus_properties']
        assert props['gw_days_after_event'] == pytest.approx(days, abs=1e-6)  # the notice time has milliseconds
        assert props['gw_event'] == gid and props['gw_notice_type'] == 'PRELIMINARY'
        assert report['new_tags'] == (['gw_early_counterpart'] if 0 <= days < 3 else [])
        outcomes.add('tagged' if report['new_tags'] else 'untagged')
    assert outcomes == {'outside', 'tagged', 'untagged'}


# -- files ANTARES cannot call ------------------------------------------------------------------------------

@pytest.mark.parametrize('name, message', [
    ('plain_class_lookalike.py', 'ExtendedSourceCut defines run() but subclasses neither'),
])
def test_a_filter_antares_cannot_call_fails_at_load_naming_why(worker, name, message):
    loaded = worker.load('cannot-' + name, source(name))
    assert loaded['ok'] is False and message in loaded['error']['message']


def expect_ztf_spread(locus):
    rows = [a['properties'] for a in locus['alerts'] if a['properties'].get('ztf_magpsf') is not None
            and a['properties'].get('ztf_fid') is not None]
    spreads = [np.ptp([p['ztf_magpsf'] for p in rows if p['ztf_fid'] == band]) for band in (1, 2)
               if sum(p['ztf_fid'] == band for p in rows) >= 2]
    return max(spreads) if spreads else None


def test_a_ztf_only_filter_declaring_inputs_is_skipped_on_rubin_loci_not_crashed(worker, ztf):
    loaded = worker.load('ztf_only', source('api_a_ztf_only_inputs.py'))
    assert loaded['ok'], loaded.get('error')
    rubin = realdata.strip_private(realdata.rubin_loci())
    results = run_all(worker, 'ztf_only', realdata.strip_private(ztf) + rubin)
    for locus, report in results:
        if locus in rubin:
            assert report['status'] == 'skipped' and report['skip_reason'] == 'missing input locus property ztf_object_id'
            continue
        assert report['status'] == 'ok', report.get('error')
        spread = expect_ztf_spread(locus)
        assert report['new_locus_properties'].get('zo_spread') == (None if spread is None else pytest.approx(spread))
        assert report['new_tags'] == (['zo_large_spread'] if spread is not None and spread > 0.5 else [])
    assert any(r['new_tags'] for _, r in results) and len(rubin) > 0
