"""Filters written as published ones are (each module path and API the real devkits had: antares.devkit
class API A, the 2019 antares.dev_kit functions, antares_devkit and devkit2_poc class API B, a notebook
export holding helpers and two filter classes) load unchanged in the bubblewrap sandbox and, on every
real ZTF locus snapshot of ../shared/data, give the tags and values their own logic selects. The
expectations are computed here from the locus dicts, without the runtime's locus objects."""
import os

import numpy as np
import pytest

import realdata
from conftest import require_prerequisites

pytestmark = pytest.mark.skipif(not realdata.available(), reason='../shared/data is not here')
STYLES = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'published_style')


def source(name):
    with open(os.path.join(STYLES, name), encoding='utf-8') as fh:
        return fh.read()


def trigger(locus):
    return locus['alerts'][-1]['properties']  # realdata: the snapshot's triggering detection is its newest alert


def detections(locus):
    return sorted((a for a in locus['alerts'] if a['properties'].get('ant_mag') is not None), key=lambda a: a['mjd'])


def expect_band_fading(locus):
    fid = trigger(locus)['ztf_fid']
    band = [a['properties'] for a in locus['alerts'] if a['properties'].get('ztf_fid') == fid]
    out = {'fading_upper_limits': sum('ant_mag' not in p for p in band)}
    clean = [(p['ant_mjd'], p['ant_mag']) for p in band if p.get('ztf_nbad') == 0 and 'ant_mag' in p]
    tags = []
    if len({t for t, _ in clean}) >= 2:
        t = np.array([c[0] for c in clean])
        slope = np.polyfit(t - t.min(), np.array([c[1] for c in clean]), 1)[0]
        out['fading_rate'] = slope
        tags = ['fading_in_band'] if slope > 0.02 else []
    return out, tags


def expect_2019(locus):
    p = trigger(locus)
    dets = detections(locus)
    halt = p['ztf_rb'] < 0.3
    tagged = not halt and p['ant_mag'] < 18.5 and p['ztf_rb'] >= 0.65 and len(dets) >= 2 \
        and dets[-1]['mjd'] - dets[0]['mjd'] > 1.0
    return {'legacy_snr': 1.0 / p['ztf_sigmapsf'], 'legacy_n_detections': len(dets)}, halt, tagged


def expect_2018(locus):
    p = trigger(locus)
    bogus = p['ztf_rb'] < 0.55 or p['ztf_nbad'] != 0 or not -1.0 <= p['ztf_magdiff'] <= 1.0
    return bogus, (not bogus and p['ztf_elong'] > 1.6)


def expect_color(locus):
    dets = detections(locus)
    g = [a['properties']['ant_mag'] for a in dets if a['properties']['ant_passband'] == 'g']
    r = [a['properties']['ant_mag'] for a in dets if a['properties']['ant_passband'] == 'R']
    if not g or not r:
        return None, False
    color = float(np.median(g) - np.median(r))
    return color, color < -0.1


def expect_amplitude(locus):
    keys = ('ant_mjd', 'ant_passband', 'ant_mag', 'ant_magerr')
    rows = [a['properties'] for a in locus['alerts'] if all(a['properties'].get(k) is not None for k in keys)]
    best = None
    for band in sorted({p['ant_passband'] for p in rows}):  # numpy's unique order: 'R' before 'g'
        mags = [p['ant_mag'] for p in rows if p['ant_passband'] == band]
        if len(mags) >= 3 and (best is None or max(mags) - min(mags) > best[0]):
            best = (max(mags) - min(mags), band)
    return best


def expect_brightening(locus, band=None):
    by_band = {}
    for a in locus['alerts']:
        p = a['properties']
        if 'ant_mag' in p:
            by_band.setdefault(p['ant_passband'], []).append((a['mjd'], p['ant_mag']))
    points = sorted(by_band.get(band or trigger(locus)['ant_passband'], []))
    return len(by_band), len(points) >= 2 and points[-1][1] < points[0][1] - 0.3


@pytest.fixture(scope='module')
def loaded(ztf):
    """One sandboxed worker holding every style's filter, and the loci they run on."""
    require_prerequisites()
    from conftest import Worker
    worker = Worker(sandboxed=True, slot=150, locus_timeout_s=10.0)  # a first timeseries on a busy CI machine
    loads = {
        'fading': worker.load('fading', source('api_a_band_fading.py')),
        'legacy2019': worker.load('legacy2019', source('legacy_2019_streams.py')),
        'legacy2018': worker.load('legacy2018', source('legacy_2018_level1.py')),
        'color': worker.load('color', source('api_b_color.py')),
        'amplitude': worker.load('amplitude', source('devkit2_poc_amplitude.py')),
        'notebook': worker.load('notebook', source('notebook_export.py')),
        'draft': worker.load('draft', source('notebook_export.py'), class_name='DraftBrightening'),
    }
    yield worker, loads, realdata.strip_private(ztf)
    worker.close()


def run(loaded, name):
    worker, loads, loci = loaded
    assert loads[name]['ok'], loads[name].get('error')
    reports, _ = worker.run(name, loci)
    assert [r['locus_id'] for r in reports] == [locus['locus_id'] for locus in loci]
    errors = [(r['locus_id'], r['error']['message']) for r in reports if r['status'] not in ('ok', 'skipped')]
    assert not errors, errors[:3]
    return list(zip(loci, reports))


def test_api_a_reads_the_timeseries_with_nan_for_missing_numbers(loaded):
    tagged = 0
    for locus, report in run(loaded, 'fading'):
        values, tags = expect_band_fading(locus)
        assert report['new_tags'] == tags, locus['locus_id']
        assert report['new_locus_properties'].keys() == values.keys()
        for key, value in values.items():
            assert report['new_locus_properties'][key] == pytest.approx(value, rel=1e-9, abs=1e-12)
        tagged += bool(tags)
    assert 0 < tagged < len(loaded[2])


def test_2019_function_filter_declares_its_streams_and_annotations_from_its_code(loaded):
    outputs = loaded[1]['legacy2019']['outputs']
    assert outputs['api'] == '2019' and outputs['class_name'] == 'bright_real_transient'
    assert outputs['filter_classes'] == ['bright_real_transient'] and outputs['tags'] == ['legacy_bright_real']
    assert outputs['alert_properties'] == [{'name': 'legacy_snr', 'type': 'float'},
                                           {'name': 'legacy_n_detections', 'type': 'int'}]
    results = run(loaded, 'legacy2019')
    halts = streams = 0
    for locus, report in results:
        values, halt, tagged = expect_2019(locus)
        assert report['raised_halt'] is halt and report['new_tags'] == (['legacy_bright_real'] if tagged else [])
        assert report['new_alert_properties']['legacy_n_detections'] == values['legacy_n_detections']
        assert report['new_alert_properties']['legacy_snr'] == pytest.approx(values['legacy_snr'])
        halts += halt
        streams += tagged
    assert streams > 0 and streams + halts < len(results)


def test_2018_locus_data_function_halts_bogus_detections(loaded):
    assert loaded[1]['legacy2018']['outputs']['tags'] == ['elongated_real']
    results = run(loaded, 'legacy2018')
    for locus, report in results:
        halt, tagged = expect_2018(locus)
        assert report['raised_halt'] is halt and report['new_tags'] == (['elongated_real'] if tagged else [])
    assert any(r['raised_halt'] for _, r in results) and any(r['new_tags'] for _, r in results)


def test_api_b_through_antares_devkit(loaded):
    results = run(loaded, 'color')
    for locus, report in results:
        color, blue = expect_color(locus)
        assert report['new_tags'] == (['blue_transient'] if blue else [])
        assert report['new_locus_properties'].get('color_g_minus_r') == (None if color is None else pytest.approx(color))
    assert any(r['new_tags'] for _, r in results) and any(r['new_locus_properties'] for _, r in results)


def test_api_b_under_its_devkit2_poc_name(loaded):
    assert loaded[1]['amplitude']['outputs']['api'] == 'B'
    results = run(loaded, 'amplitude')
    for locus, report in results:
        best = expect_amplitude(locus)
        if best is None:
            assert report['new_locus_properties'] == {} and report['new_tags'] == []
            continue
        assert report['new_locus_properties'] == {'poc_amplitude': pytest.approx(best[0]), 'poc_band': best[1]}
        assert report['new_tags'] == (['poc_large_amplitude'] if best[0] > 1.0 else [])
    assert any(r['new_tags'] for _, r in results)


def test_notebook_export_runs_its_last_filter_class_unless_one_is_named(loaded):
    outputs = loaded[1]['notebook']['outputs']
    assert outputs['filter_classes'] == ['DraftBrightening', 'Brightening'] and outputs['class_name'] == 'Brightening'
    assert 'DevKit is ready' in loaded[1]['notebook']['stdout']  # the notebook's own cells ran at load
    for locus, report in run(loaded, 'notebook'):
        bands, brightening = expect_brightening(locus)
        assert report['new_locus_properties'] == {'nb_bands': bands}
        assert report['new_tags'] == (['nb_brightening'] if brightening else [])
    assert loaded[1]['draft']['outputs']['class_name'] == 'DraftBrightening'
    drafts = run(loaded, 'draft')
    for locus, report in drafts:
        assert report['new_tags'] == (['nb_draft_brightening'] if expect_brightening(locus, 'g')[1] else [])
    assert any(r['new_tags'] for _, r in drafts)


def test_devkit_helpers_run_2019_functions_in_process(ztf):
    import importlib.util
    spec = importlib.util.spec_from_file_location('legacy_2019_streams', os.path.join(STYLES, 'legacy_2019_streams.py'))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    loci = realdata.strip_private(ztf)
    report = module.dk.run_many(module.bright_real_transient, loci)
    streams = {r['locus_id'] for r in report['results'] if r['new_tags']}
    assert streams and streams == {locus['locus_id'] for locus in loci if expect_2019(locus)[2]}
    locus = module.dk.locus_from_dict(loci[0])
    assert locus.get_properties()['passband'] == locus.alert.properties['ant_passband']
    alert_ids, mjd, mag = locus.get_time_series('ant_mag')  # the 2019 rows: alert_id, mjd, then the names
    assert list(mjd) == sorted(mjd) and len(mag) == len(detections(loci[0]))
    assert list(alert_ids) == [a['alert_id'] for a in detections(loci[0])]


def test_2019_outputs_are_read_from_literal_names_in_the_code():
    from antares_runtime.legacy import infer_outputs
    tags, locus_props, alert_props = infer_outputs('''
def f(locus_data):
    p = locus_data.get_properties()
    p['me_class'] = f"{p['mag']:.1f}"
    lp = locus_data.properties
    lp['me_count'] = len(locus_data.alerts)
    lp['me_count'] = 2.5
    locus_data.alert.properties['me_score'] = score(p)
    locus_data.set_locus_property('me_flag', True)
    locus_data.send_to_stream('me_stream')
    locus_data.tag('me_tag')
    locus_data.send_to_stream('me_' + p['passband'])
''')
    assert tags == ['me_stream', 'me_tag']  # a computed name is not declared
    assert locus_props == {'me_count': 'float', 'me_flag': 'int'} and alert_props == {'me_class': 'str', 'me_score': 'float'}
