"""The real filters in ../shared/filters/examples, unchanged, on real alerts from ../shared/data."""
import importlib.util
import os
import subprocess

import pytest

import realdata
from conftest import RUNTIME, require_prerequisites

EXAMPLES = os.path.join(os.path.dirname(realdata.SHARED), 'filters', 'examples')
API_A = os.path.join(EXAMPLES, 'class_api_a_notebook_examples.py')
API_B = os.path.join(EXAMPLES, 'class_api_b_lsst_quality.py')
pytestmark = pytest.mark.skipif(not os.path.exists(API_A) or not realdata.available(),
                                reason='../shared/filters and ../shared/data are not here')


def import_by_path(path):
    spec = importlib.util.spec_from_file_location(os.path.basename(path)[:-3], path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def expected_high_snr(locus):
    raw = locus['_raw_candidate']  # from the packet itself, not from our normalisation
    threshold = {1: 50.0, 2: 55.0}.get(raw['fid'])
    return threshold is not None and 1.0 / raw['sigmapsf'] > threshold


def expected_lsst_quality(locus):
    s = locus['_raw_source']
    flags = realdata.FLAGS
    if any(s.get(k) is None for k in flags + ['snr']) or 'ssObjectId' not in s:
        return False  # a REQUIRED_ALERT_PROPERTY is missing: the filter is skipped
    return s['snr'] > 10 and s['ssObjectId'] in (0, None, '0') and not any(s[k] for k in flags)


@pytest.fixture(scope='module')
def rubin():
    require_prerequisites()
    return realdata.rubin_loci()


def test_api_a_file_runs_as_a_script_with_the_devkit_helpers():
    env = {'PATH': '/usr/bin:/bin', 'PYTHONPATH': RUNTIME, 'PYTHONDONTWRITEBYTECODE': '1', 'HOME': '/tmp'}
    out = subprocess.run(['/usr/bin/python3', API_A], env=env, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert 'DevKit is ready' in out.stdout and "'new_tags': {'hello_world'}" in out.stdout
    assert "'n': 10" in out.stdout and 't_99_percentile' in out.stdout
    assert 'Number of gravitational wave notices: 1' in out.stdout


def test_high_snr_in_process_tags_the_right_loci(ztf):
    module = import_by_path(API_A)
    report = module.dk.run_many(module.HighSNR, realdata.strip_private(ztf))
    tagged = {r['locus_id'] for r in report['results'] if 'high_snr' in r['new_tags']}
    expected = {locus['locus_id'] for locus in ztf if expected_high_snr(locus)}
    assert len(expected) == 1 and tagged == expected  # one real detection above the SNR threshold


def test_lsst_quality_in_process_tags_the_right_loci(rubin):
    module = import_by_path(API_B)
    from antares_devkit.models import DevKitLocus
    from antares_devkit.utils import filter_report
    tagged = set()
    for locus in realdata.strip_private(rubin):
        report = filter_report([module.LsstTransientQualityFilterScimma], DevKitLocus.model_validate(locus))
        if report['LsstTransientQualityFilterScimma']['new_tags']:
            tagged.add(locus['locus_id'])
    expected = {locus['locus_id'] for locus in rubin if expected_lsst_quality(locus)}
    assert expected and tagged == expected and len(tagged) < len(rubin)


def test_both_real_filters_in_the_sandbox(sandboxed_worker, ztf, rubin):
    worker = sandboxed_worker()
    assert worker.load('high_snr', open(API_A).read(), class_name='HighSNR')['ok']
    loaded = worker.load('lsst', open(API_B).read())
    assert loaded['ok'] and loaded['outputs']['tags'] == ['lsst_scimma_quality_transient']
    assert loaded['outputs']['triggering_survey'] == 'lsst'
    reports, done = worker.run('high_snr', realdata.strip_private(ztf))
    assert {r['locus_id'] for r in reports if r['new_tags'] == ['high_snr']} == \
        {locus['locus_id'] for locus in ztf if expected_high_snr(locus)}
    assert all(r['status'] == 'ok' for r in reports) and done['t_99_percentile'] > 0
    reports, _ = worker.run('lsst', realdata.strip_private(rubin) + realdata.strip_private(ztf[:3]))
    tagged = {r['locus_id'] for r in reports if r['new_tags']}
    assert tagged == {locus['locus_id'] for locus in rubin if expected_lsst_quality(locus)}
    assert len(tagged) == 3 and all(t.endswith('dr') for t in tagged)
    assert [r['status'] for r in reports[-3:]] == ['skipped'] * 3  # ZTF-triggered: TRIGGERING_SURVEY


def test_lightcurve_and_timeseries_on_real_loci(ztf):
    import antares.devkit as dk
    locus = dk.locus_from_dict(realdata.strip_private(ztf)[0])
    lc, ts = locus.lightcurve, locus.timeseries
    assert len(lc) == len(ts) == len(locus.alerts) > 1
    assert list(lc['ant_mjd']) == sorted(lc['ant_mjd'])
    upper_limits = [a.properties.get('ant_survey') == 2 for a in locus.alerts]
    assert list(ts['ant_mag'].mask) == upper_limits  # masked where an upper limit has no magnitude
