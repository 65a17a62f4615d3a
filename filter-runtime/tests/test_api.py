"""Both class APIs in-process: the locus object, declarations, enforcement and the devkit helpers."""
import pytest

import antares.devkit as dk
from antares_devkit.models import BaseFilter, DevKitLocus
from antares_devkit.utils import filter_report
from antares_runtime.core import FilterError, percentiles
from conftest import tiny_locus


class Props(dk.Filter):
    OUTPUT_LOCUS_PROPERTIES = [{'name': 'x_score', 'type': 'float', 'description': ''},
                               {'name': 'x_class', 'type': 'str', 'description': ''},
                               {'name': 'x_n', 'type': 'int', 'description': ''}]
    OUTPUT_ALERT_PROPERTIES = [{'name': 'x_alert', 'type': 'float', 'description': ''}]
    OUTPUT_TAGS = [{'name': 'x_tag', 'description': ''}]

    def run(self, locus):
        import numpy as np
        locus.properties['x_score'] = np.float32(0.5)
        locus.properties['x_class'] = 'SN'
        locus.properties['x_n'] = np.int64(3)
        locus.alert.properties['x_alert'] = 2
        locus.tag('x_tag')


def run(filter_cls, locus=None, **kw):
    return dk.run_filter(filter_cls, locus=locus or tiny_locus(), **kw)


def test_declared_outputs_are_recorded_and_converted():
    report = run(Props)
    assert report['new_locus_properties'] == {'x_score': 0.5, 'x_class': 'SN', 'x_n': 3}
    assert type(report['new_locus_properties']['x_n']) is int
    assert report['new_alert_properties'] == {'x_alert': 2.0}
    assert report['new_tags'] == {'x_tag'} and report['raised_halt'] is False
    assert set(report) >= {'locus_id', 'locus_data', 't', 'new_locus_properties', 'new_alert_properties',
                           'new_tags', 'raised_halt'}
    assert repr(report['locus_data']) == 'FilterContext(locus_id="L0")'


@pytest.mark.parametrize('body, message', [
    ("locus.properties['undeclared'] = 1", 'not declared'),
    ("locus.properties['x_n'] = 'three'", 'declared int'),
    ("locus.properties['x_class'] = 3", 'declared str'),
    ("locus.tag('other')", 'not declared'),
    ("locus.alerts[0].properties['x_alert'] = 1.0", 'triggering alert'),
    ("locus.properties.update(num_alerts=5)", 'not declared'),
    ("del locus.properties['num_alerts']", 'cannot be deleted'),
])
def test_undeclared_or_mistyped_outputs_are_errors(body, message):
    ns = {}
    exec(f"def run(self, locus):\n    {body}\n", ns)
    bad = type('Bad', (Props,), {'run': ns['run']})
    with pytest.raises((FilterError, TypeError), match=message):
        run(bad)


def test_required_properties_and_tags_skip_the_locus():
    calls = []

    class Req(dk.Filter):
        REQUIRED_LOCUS_PROPERTIES = ['num_alerts']
        REQUIRED_ALERT_PROPERTIES = ['passband']  # legacy unprefixed name for ant_passband
        REQUIRED_TAGS = ['high_snr']

        def run(self, locus):
            calls.append(locus.locus_id)

    assert run(Req)['skipped'] == 'missing required tag high_snr'
    assert 'skipped' not in run(Req, tiny_locus(tags=['high_snr']))
    assert run(Req, tiny_locus(tags=['high_snr'], properties={}))['skipped'].startswith('missing required locus')
    assert calls == ['L0']


def test_class_api_a_input_declarations_are_requirements_too():
    # The older INPUT_* names declare what a published filter's code indexes unchecked (a ZTF filter's
    # INPUT_LOCUS_PROPERTIES = ['ztf_object_id']): a locus without one is skipped, not crashed on.
    class Inputs(dk.Filter):
        INPUT_LOCUS_PROPERTIES = ['num_alerts']
        INPUT_ALERT_PROPERTIES = ['passband']
        INPUT_TAGS = []

        def run(self, locus):
            locus.properties['num_alerts']  # noqa: B018 (indexes as published filters do)

    assert 'skipped' not in run(Inputs)
    assert run(Inputs, tiny_locus(properties={}))['skipped'] == 'missing input locus property num_alerts'

    class ZtfOnly(Inputs):
        INPUT_LOCUS_PROPERTIES = ['ztf_object_id']

    assert run(ZtfOnly)['skipped'] == 'missing input locus property ztf_object_id'

    # Class API B declares its requirements as REQUIRED_*; its INPUT_* only describe (a published
    # Rubin-era filter lists a property no locus has there and relies on REQUIRED_TAGS).
    class Described(BaseFilter):
        INPUT_LOCUS_PROPERTIES = ['ant_object_id']
        OUTPUT_LOCUS_TAGS = [{'name': 'b_ran', 'description': ''}]

        def _run(self, locus):
            locus.tag('b_ran')

    assert run(Described)['new_tags'] == {'b_ran'}


def test_grav_wave_region_and_triggering_survey():
    class GW(dk.Filter):
        REQUIRED_GRAV_WAVE_PROB_REGION = 48.97257324004685

        def run(self, locus):
            print(len(locus.grav_wave_events_metadata))

    locus = tiny_locus()
    assert 'skipped' in run(GW, locus)
    locus['alerts'][-1]['grav_wave_events'] = [{'gracedb_id': 'S1', 'contour_level': 30.0, 'contour_area': 9.0}]
    locus['grav_wave_events_metadata'] = {'S1': {'gracedb_id': 'S1'}}
    assert 'skipped' not in run(GW, locus)

    class Lsst(BaseFilter):
        TRIGGERING_SURVEY = 'lsst'

        def _run(self, locus):
            pass
    assert 'skipped' in dk.run_filter(Lsst, tiny_locus())
    rubin = tiny_locus()
    rubin['alerts'][-1]['alert_id'] = 'lsst:123'
    assert 'skipped' not in dk.run_filter(Lsst, rubin)


def test_requires_files_then_setup_once():
    setups = []

    class Files(dk.Filter):
        REQUIRES_FILES = ['model.bin']

        def setup(self):
            setups.append(self.files['model.bin'])

        def run(self, locus):
            assert self.files['model.bin'] == b'\x00weights'

    report = dk.run_many(Files, [tiny_locus(0), tiny_locus(1)], files={'model.bin': b'\x00weights'})
    assert report['n'] == 2 and setups == [b'\x00weights']
    with pytest.raises(FilterError, match='REQUIRES_FILES'):
        dk.run_filter(Files, tiny_locus(), files={})


def test_locus_object_api_a():
    seen = {}

    class Look(dk.Filter):
        def run(self, locus):
            ts = locus.timeseries  # a property in API A
            seen['ts_cols'] = ts.colnames
            seen['masked'] = bool(ts['ant_passband'].mask[0])
            seen['lc_cols'] = list(locus.lightcurve.columns)
            seen['alerts'] = [a.alert_id for a in locus.alerts]
            seen['alert'] = (locus.alert.alert_id, locus.alert.mjd)
            seen['catalogs'] = locus.catalog_objects
            seen['radec'] = (locus.ra, locus.dec)

    locus = tiny_locus(catalog_objects={'gaia_dr3_gaia_source': [{'source_id': 1}]})
    locus['alerts'].reverse()  # sent newest first: alerts must still come oldest first
    run(Look, locus)
    assert seen['ts_cols'][:2] == ['time', 'alert_id'] and 'ant_mjd' in seen['ts_cols'] and seen['masked']
    assert seen['lc_cols'][:3] == ['time', 'alert_id', 'ant_mjd'] and seen['lc_cols'][-1] == 'ant_magllim_corrected'
    assert seen['alerts'] == ['ztf_candidate:01', 'ztf_candidate:02']
    assert seen['alert'] == ('ztf_candidate:01', 59000.0)  # the triggering alert is the last one *sent*
    assert seen['catalogs'] == {'gaia_dr3_gaia_source': [{'source_id': 1}]}


def test_locus_object_api_b_and_helpers():
    class B(BaseFilter):
        OUTPUT_LOCUS_PROPERTIES = [{'name': 'b_n', 'type': 'int', 'description': ''}]
        OUTPUT_LOCUS_TAGS = [{'name': 'b_tag', 'description': ''}]

        def _run(self, locus):
            df = locus.timeseries().to_pandas()  # a method in API B
            locus.set_property('b_n', len(df))
            assert len(locus.timeseries('ztf')) == 2 and len(locus.timeseries('lsst')) == 0
            locus.tag('b_tag')

    locus = DevKitLocus.model_validate(tiny_locus())
    reports = filter_report([B], locus)
    assert reports['B']['new_locus_properties'] == {'b_n': 2} and reports['B']['new_tags'] == {'b_tag'}
    # an API A locus handed to an API B filter is re-wrapped, not broken
    assert dk.run_filter(B, dk.locus_from_dict(tiny_locus()))['new_tags'] == {'b_tag'}


def test_halt_and_percentiles():
    class Stop(dk.Filter):
        def run(self, locus):
            raise dk.Halt()
    assert run(Stop)['raised_halt'] is True
    many = dk.run_many(Stop, n=5)
    assert many['n'] == 5 and set(many) >= {'t_50_percentile', 't_90_percentile', 't_95_percentile',
                                            't_99_percentile'}
    import numpy as np
    data = [5.0, 1.0, 3.0, 2.0, 4.0, 10.0]
    for p in (50, 90, 95, 99):
        assert percentiles(data)[f't_{p}_percentile'] == pytest.approx(np.percentile(data, p))


def test_science_stack_is_usable():
    class Science(dk.Filter):
        OUTPUT_LOCUS_PROPERTIES = [{'name': 's_slope', 'type': 'float', 'description': ''}]

        def run(self, locus):
            import numpy as np
            import scipy.stats
            import statsmodels.api as sm
            lc = locus.lightcurve
            fit = sm.OLS(lc['ant_mag'].values, sm.add_constant(lc['ant_mjd'].values)).fit()
            assert scipy.stats.skew(np.array([1.0, 2.0, 4.0])) > 0
            locus.properties['s_slope'] = fit.params[1]

    assert run(Science)['new_locus_properties']['s_slope'] == pytest.approx(-0.5)


def test_the_devkit_filter_package_path_serves_the_same_api():
    # Published code and the devkit's own tests import `from antares.devkit.filter import Filter`.
    from antares.devkit.filter import Filter, Halt

    class Tagger(Filter):
        OUTPUT_TAGS = [{'name': 'pkg_path', 'description': ''}]

        def run(self, locus):
            locus.tag('pkg_path')

    assert Filter is dk.Filter and Halt is dk.Halt
    assert run(Tagger)['new_tags'] == {'pkg_path'}
