"""The shipped filters on real Rubin alerts (Fink's re-published v7.4 and v9.0 packets in ../shared/data,
realdata.rubin_loci): rubin_quality_transient and high_snr's Rubin threshold, against expectations
computed from the DiaSource fields, and edge cases that change one field of a real alert at a time."""
import copy

import pytest

import realdata
from shipped import need_science_stack, tagged

pytestmark = pytest.mark.skipif(not realdata.available(), reason='../shared/data is not here')

FLAGS = ['shape_flag', 'psfFlux_flag_edge', 'pixelFlags_edge', 'pixelFlags_cr', 'pixelFlags_interpolatedCenter',
         'pixelFlags_streak', 'isDipole']


@pytest.fixture(scope='module')
def loci():
    need_science_stack()
    return realdata.rubin_loci()


def expected_quality(locus):
    s = locus['_raw_source']
    detections = [a['mjd'] for a in locus['alerts'] if a['alert_id'].startswith('lsst:')]
    return (s.get('reliability') is not None and s['reliability'] >= 0.9
            and s['psfFlux'] > 0 and not s.get('isNegative') and s['psfFlux'] / s['psfFluxErr'] >= 10
            and not any(s.get(f) for f in FLAGS)
            and len(detections) >= 2 and locus['alerts'][-1]['mjd'] - min(detections) <= 10)


def edited(locus, **changes):
    """The locus with its triggering DiaSource's fields changed (history kept)."""
    out = copy.deepcopy(locus)
    out['alerts'][-1]['properties'].update({'lsst_diaSource_' + k: v for k, v in changes.items()})
    return out


def passing(loci):
    """A real locus with several detections, made to pass every cut but its dates (a real trigger
    with its reliability, sign and SNR set as a young transient's)."""
    locus = next(lo for lo in loci if len(lo['alerts']) >= 3 and lo['alerts'][-1]['mjd'] - lo['alerts'][0]['mjd'] <= 10)
    flux_err = locus['_raw_source']['psfFluxErr']
    return edited(locus, reliability=0.95, psfFlux=12.0 * flux_err, isNegative=False, **{f: False for f in FLAGS})


def test_rubin_quality_transient_on_real_rubin_alerts(loci):
    got = {lo['locus_id'] for lo in loci if tagged('rubin_quality_transient', realdata.strip_private([lo])[0])}
    assert got == {lo['locus_id'] for lo in loci if expected_quality(lo)} == {'ANTlsst099'}
    # Most real alerts near Rubin's 5-sigma cut are single, faint or unreliable: the filter passes few.
    assert len(got) < len(loci) / 4


def test_rubin_quality_transient_thresholds(loci):
    base = realdata.strip_private([passing(loci)])[0]
    err = base['alerts'][-1]['properties']['lsst_diaSource_psfFluxErr']
    assert tagged('rubin_quality_transient', base)
    assert not tagged('rubin_quality_transient', edited(base, reliability=0.899))
    assert tagged('rubin_quality_transient', edited(base, reliability=0.9))
    assert not tagged('rubin_quality_transient', edited(base, psfFlux=9.99 * err))
    assert tagged('rubin_quality_transient', edited(base, psfFlux=10.0 * err))
    assert not tagged('rubin_quality_transient', edited(base, psfFlux=-12.0 * err))
    assert not tagged('rubin_quality_transient', edited(base, isNegative=True))
    for flag in FLAGS:
        assert not tagged('rubin_quality_transient', edited(base, **{flag: True})), flag
    # Young: the first detection at most 10 days before the trigger; a lone detection is not enough.
    old = copy.deepcopy(base)
    old['alerts'][0]['mjd'] = old['alerts'][-1]['mjd'] - 10.01
    assert not tagged('rubin_quality_transient', old)
    old['alerts'][0]['mjd'] = old['alerts'][-1]['mjd'] - 10.0
    assert tagged('rubin_quality_transient', old)
    alone = copy.deepcopy(base)
    alone['alerts'] = alone['alerts'][-1:]
    assert not tagged('rubin_quality_transient', alone)
    # Forced photometry is not a detection: an old forced point does not make the source old.
    forced = copy.deepcopy(base)
    forced['alerts'].insert(0, dict(forced['alerts'][0], alert_id='lsst_forced:1', mjd=base['alerts'][-1]['mjd'] - 300))
    assert tagged('rubin_quality_transient', forced)


def test_rubin_quality_transient_ignores_ztf_triggers(loci):
    base = realdata.strip_private([passing(loci)])[0]
    ztf = copy.deepcopy(base)
    ztf['alerts'][-1]['survey'] = 'ztf'
    assert not tagged('rubin_quality_transient', ztf)


def test_high_snr_tags_rubin_triggers_above_200(loci):
    def snr(lo):
        s = lo['_raw_source']
        return s['psfFlux'] / s['psfFluxErr']
    got = {lo['locus_id'] for lo in loci if tagged('high_snr', realdata.strip_private([lo])[0])}
    assert got == {lo['locus_id'] for lo in loci if snr(lo) > 200}
    base = realdata.strip_private([loci[0]])[0]
    err = base['alerts'][-1]['properties']['lsst_diaSource_psfFluxErr']
    assert not tagged('high_snr', edited(base, psfFlux=200.0 * err))  # strictly above
    assert tagged('high_snr', edited(base, psfFlux=200.01 * err))
    assert not tagged('high_snr', edited(base, psfFlux=-300.0 * err))  # a fading source is not tagged
    assert not tagged('high_snr', edited(base, psfFlux=300.0 * err, psfFluxErr=0.0))
