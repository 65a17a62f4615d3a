"""The filters ANTARES ships (apps/pipeline/src/filters/shipped/*.py) on real ZTF alerts from ../shared/data.

Each test computes what should be tagged from the packets' own fields (independently of the filter code:
astropy for sky geometry, numpy.polyfit for fits) and compares; edge cases change one field of a real
alert at a time. Python's avro has no snappy codec, so the packets come from the null-codec samples;
positions of the snappy-only ones (the two in M31) come from INDEX_alerts.csv. The filters one by one are in
test_shipped_sky_filters.py and test_shipped_photometry_filters.py; the helpers in shipped.py.
"""
import os

import pytest

import realdata
from shipped import NAMES, SHIPPED, load, locus_of, real_packets, tagged

pytestmark = pytest.mark.skipif(not realdata.available(), reason='../shared/data is not here')


@pytest.fixture(scope='module')
def packets():
    return real_packets()


def test_every_shipped_filter_declares_its_tag_as_index_ts_describes_it():
    index = open(os.path.join(SHIPPED, 'index.ts')).read()
    for name in NAMES:
        _, cls = load(name)
        assert [t['name'] for t in cls.OUTPUT_TAGS] == [name]
        # seed.ts registers the tag with index.ts's text: it must be the filter's own.
        assert f"`{cls.OUTPUT_TAGS[0]['description']}`" in index, name


# -- all of them, loaded in the real sandbox ------------------------------------------------------

def test_shipped_filters_in_the_sandbox_agree_with_in_process_runs(sandboxed_worker, packets):
    worker = sandboxed_worker()
    loci = [locus_of(rec) for rec in packets.values()]
    for name in NAMES:
        loaded = worker.load(name, open(os.path.join(SHIPPED, f'{name}.py')).read())
        assert loaded['ok'], loaded.get('error')
        assert loaded['outputs']['tags'] == [name]
        reports, done = worker.run(name, loci)
        assert all(r['status'] in ('ok', 'skipped') for r in reports), [r.get('error') for r in reports if r['status'] == 'error'][:1]
        assert {r['locus_id'] for r in reports if r['new_tags']} == {locus['locus_id'] for locus in loci if tagged(name, locus)}
