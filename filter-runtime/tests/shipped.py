"""Helpers for the tests of the filters ANTARES ships (test_shipped_*.py): loading a shipped file the way
the worker does, real ZTF packets from ../shared/data turned into loci, and the packet fields the
expectations are computed from.
"""
import copy
import importlib.util
import math
import os

import pytest

import realdata
from conftest import RUNTIME

SHIPPED = os.path.join(os.path.dirname(RUNTIME), 'apps', 'pipeline', 'src', 'filters', 'shipped')
NAMES = ['in_m31', 'high_snr', 'extragalactic', 'nuclear_transient', 'rubin_quality_transient',
         'refitt_newsources_snrcut', 'lc_feature_extractor']
READABLE_ZTF = ['ztf-avro-alert/samples', 'alerce/ztf_apf_avro_test', 'alerce/ztf_lc_classifier_example',
                'fink-broker/ztf_v3.3_20200101', 'fink-client/ztf_v3.3']
SNR_PER_MAG_ERR = 2.5 / math.log(10)


def need_science_stack():
    missing = []
    for module in ('numpy', 'astropy', 'avro'):
        try:
            __import__(module)
        except ImportError:
            missing.append(f'python3-{module}')
    if missing:
        from conftest import APT
        message = f'missing {", ".join(missing)} (Debian); install with: {APT}'
        if os.environ.get('CI') == 'true':
            pytest.fail(message)
        pytest.skip(message)


def load(name):
    """The filter class of a shipped file, imported the way the worker does (by path)."""
    spec = importlib.util.spec_from_file_location(f'shipped_{name}', os.path.join(SHIPPED, f'{name}.py'))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    classes = [v for v in vars(module).values()
               if isinstance(v, type) and issubclass(v, module.dk.Filter) and v is not module.dk.Filter]
    assert len(classes) == 1, f'{name}.py must define exactly one filter class'
    return module, classes[0]


def run(name, locus):
    module, cls = load(name)
    return module.dk.run_filter(cls, locus)


def tagged(name, locus):
    return bool(run(name, locus)['new_tags'])


def real_packets():
    """Every readable real ZTF packet by objectId (the test files' `packets` fixture)."""
    need_science_stack()
    return {rec['objectId']: rec for rec in realdata.packets(READABLE_ZTF)}


def locus_of(rec, edit=None, edit_history=None):
    """A packet as the pipeline's locus: history rows and the candidate, the candidate triggering.
    `edit` changes candidate fields, `edit_history(rows)` the history, before normalisation."""
    rec = copy.deepcopy(rec)
    cand = rec['candidate']
    cand.update(edit or {})
    rows = sorted((c for c in rec.get('prv_candidates') or [] if c.get('jd') is not None), key=lambda c: c['jd'])
    if edit_history:
        rows = edit_history(rows)
    lid = f"ANT{rec['objectId']}"
    alerts = [realdata._ztf_alert(c, rec['objectId'], lid) for c in rows + [cand]]
    return {'locus_id': lid, 'ra': cand['ra'], 'dec': cand['dec'], 'tags': [],
            'properties': {'ztf_object_id': rec['objectId'], 'num_alerts': len(alerts)},
            'alerts': alerts, 'alert_id': alerts[-1]['alert_id'], 'catalog_objects': {}}


def num(value):
    """A packet field as a number; absent and null become ZTF's own 'no value', -999."""
    return -999.0 if value is None else value


def detections(rec):
    return [c for c in (rec.get('prv_candidates') or []) + [rec['candidate']] if c.get('candid')]


def tagged_set(name, packets):
    return {oid for oid, rec in packets.items() if tagged(name, locus_of(rec))}
