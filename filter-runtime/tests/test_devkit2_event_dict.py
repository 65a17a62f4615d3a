"""Class API B in the devkit2 style, `_run(self, event_dict, ts)` (antares_runtime/event_dict.py), in the
sandbox: two chained filters of tests/published_style/devkit2_host_chain.py (a host association writing
best_redshift and nuclear, a duration filter reading them), the names each reports it reads (what
Level 2 orders filters by), a property no filter wrote as that locus' error naming it, and the devkit's
own `run(locus)` for authors' tests. Expectations are computed here from the locus dicts."""
import copy

import numpy as np
import pytest
from astropy.cosmology import Planck18

from conftest import require_prerequisites
from test_published_styles import source

CHAIN = source('devkit2_host_chain.py')


@pytest.fixture(scope='module')
def worker():
    require_prerequisites()
    from conftest import Worker
    w = Worker(sandboxed=True, slot=152, locus_timeout_s=10.0)  # the first astropy import on a busy machine
    yield w
    w.close()


def locus(i, dec, days, mags=(19.0, 18.2, 18.9)):
    """A locus of len(days) detections at MJD 59000 + day (a last upper limit without a magnitude)."""
    alerts = [{'alert_id': f'ztf_candidate:{i}{k}', 'mjd': 59000.0 + d,
               'properties': {'ant_mag': mags[k % len(mags)], 'ant_passband': 'R', 'ant_ra': 150.0,
                              'ant_dec': dec, 'ant_mjd': 59000.0 + d}}
              for k, d in enumerate(days)]
    alerts.append({'alert_id': f'ztf_upper_limit:{i}', 'mjd': 59000.0 + days[-1] + 1,
                   'properties': {'ant_maglim': 20.5, 'ant_passband': 'R', 'ant_mjd': 59000.0 + days[-1] + 1}})
    return {'locus_id': f'ANT{i}', 'ra': 150.0, 'dec': dec, 'tags': [], 'properties': {'num_alerts': len(alerts)},
            'alerts': alerts, 'catalog_objects': {}, 'grav_wave_events_metadata': {}}


@pytest.fixture(scope='module')
def loaded(worker):
    host = worker.load('host', CHAIN, class_name='HostAssociation')
    duration = worker.load('duration', CHAIN, class_name='LongLivedTransient')
    harness = worker.load('harness', source('devkit2_poc_local_harness.py'))
    for reply in (host, duration, harness):
        assert reply['ok'], reply.get('error')
    return {'host': host['outputs'], 'duration': duration['outputs'], 'harness': harness['outputs']}


def test_devkit2_filters_load_and_report_the_properties_they_read(loaded):
    assert loaded['duration']['run_style'] == 'event_dict' and loaded['duration']['api'] == 'B'
    # Named in setup() (self.input_properties), not in INPUT_LOCUS_PROPERTIES: reported all the same.
    assert loaded['duration']['input_locus_properties'] == ['best_redshift', 'nuclear']
    assert loaded['host']['input_locus_properties'] == []
    assert {p['name'] for p in loaded['host']['locus_properties']} == {'best_redshift', 'nuclear'}


def test_a_chain_of_two_devkit2_filters_computes_from_what_the_first_wrote(worker, loaded):
    loci = [locus(1, -5.0, [0, 30, 90]),      # host at z=0.031, 2.4" off: long-lived, not nuclear
            locus(2, 5.0, [0, 30, 90]),       # host at z=0.12, 0.3" off: nuclear
            locus(3, -5.0, [0, 10, 20]),      # short
            locus(4, 45.0, [0, 30, 90])]      # no host: the duration filter cannot run on it
    host_reports, _ = worker.run('host', copy.deepcopy(loci))
    assert [r['status'] for r in host_reports] == ['ok'] * 4
    assert [r['new_tags'] for r in host_reports] == [['has_host']] * 3 + [[]]
    assert host_reports[0]['new_locus_properties'] == {'best_redshift': 0.031, 'nuclear': 0}
    assert host_reports[1]['new_locus_properties'] == {'best_redshift': 0.12, 'nuclear': 1}
    assert host_reports[3]['new_locus_properties'] == {}
    chained = copy.deepcopy(loci)
    for lo, report in zip(chained, host_reports):
        lo['properties'].update(report['new_locus_properties'])
    reports, _ = worker.run('duration', chained)
    for lo, report in zip(chained[:3], reports[:3]):
        assert report['status'] == 'ok', report.get('error')
        z = lo['properties']['best_redshift']
        mjds = [a['mjd'] for a in lo['alerts'] if 'ant_mag' in a['properties']]
        distance = Planck18.luminosity_distance(z).value
        rest = (max(mjds) - min(mjds)) / (1 + z)
        props = report['new_locus_properties']
        # Only the declared outputs are set: the inputs handed back and working values are not.
        assert set(props) == {'lum_dist_mpc', 'rest_duration', 'peak_abs_mag'}
        assert props['lum_dist_mpc'] == pytest.approx(distance)
        assert props['rest_duration'] == pytest.approx(rest)
        assert props['peak_abs_mag'] == pytest.approx(18.2 - 5 * np.log10(distance * 1e5))
        long_lived = not lo['properties']['nuclear'] and rest > 50
        assert report['new_tags'] == (['long_lived'] if long_lived else [])
    assert [r['new_tags'] for r in reports[:3]] == [['long_lived'], [], []]
    # A property it needs that no filter wrote: that locus' error, naming the property.
    assert reports[3]['status'] == 'error'
    assert 'best_redshift' in reports[3]['error']['message'] and 'no filter wrote it' in reports[3]['error']['message']


def test_a_returned_tag_name_with_a_true_value_tags_the_locus(worker, loaded):
    reports, _ = worker.run('harness', [locus(5, 0.0, [0]), locus(6, 0.0, [0, 1])])
    assert [r['status'] for r in reports] == ['ok', 'ok']
    assert [r['new_tags'] for r in reports] == [[], ['lh_tag']]  # 2 and 3 rows with the upper limit


def test_a_mistyped_output_in_the_returned_dict_is_that_loci_error(worker):
    code = '''from antares_devkit.models import BaseFilter
class Mistyped(BaseFilter):
    OUTPUT_LOCUS_PROPERTIES = [{'name': 'n_rows', 'type': 'int', 'description': 'rows'}]
    def _run(self, event_dict, ts):
        event_dict['n_rows'] = 'many' if len(ts) > 2 else len(ts)
        return event_dict
'''
    assert worker.load('mistyped', code)['ok']
    reports, _ = worker.run('mistyped', [locus(7, 0.0, [0]), locus(8, 0.0, [0, 1, 2])])
    assert reports[0]['status'] == 'ok' and reports[0]['new_locus_properties'] == {'n_rows': 2}
    assert reports[1]['status'] == 'error' and "'n_rows' is declared int" in reports[1]['error']['message']


def test_class_api_a_reports_its_input_and_required_locus_properties(worker):
    code = '''import antares.devkit as dk
class Reader(dk.Filter):
    INPUT_LOCUS_PROPERTIES = ['best_redshift']
    REQUIRED_LOCUS_PROPERTIES = ['nuclear', 'best_redshift']
    OUTPUT_TAGS = [{'name': 'far', 'description': 'z > 0.1'}]
    def run(self, locus):
        if locus.properties['best_redshift'] > 0.1:
            locus.tag('far')
'''
    reply = worker.load('reader-a', code)
    assert reply['ok'] and reply['outputs']['input_locus_properties'] == ['best_redshift', 'nuclear']
    assert reply['outputs']['run_style'] == 'locus'


def test_the_devkit_run_method_calls_the_devkit2_style_for_authors_tests():
    from antares_devkit.models import DevKitLocus
    namespace = {}
    exec(compile(CHAIN, 'devkit2_host_chain.py', 'exec'), namespace)
    lo = DevKitLocus.model_validate(locus(9, -5.0, [0, 30, 90]))
    host = namespace['HostAssociation']()
    host.setup()
    host.run(lo)
    assert lo.properties['best_redshift'] == 0.031 and 'has_host' in lo.tags
    duration = namespace['LongLivedTransient']()
    duration.setup()
    duration.run(lo)
    assert 'long_lived' in lo.tags and lo.properties['rest_duration'] == pytest.approx(90 / 1.031)
