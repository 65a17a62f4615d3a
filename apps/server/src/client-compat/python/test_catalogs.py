"""Catalog calls: get_catalog_samples, catalog_search, and a locus' catalog_objects and
to_devkit(include_catalogs=True). Expected matches are computed from the catalog files (catalogs.py)."""
import pytest

from catalogs import Catalogs, same_row


@pytest.fixture(scope='module')
def catalogs(facts):
    return Catalogs(facts)


def key_of(catalog, data):
    """The object id inside a served row: the column the importer took it from."""
    return str(data['catalog_identifier'] if catalog == 'openngc' else data['id'])


def test_catalog_samples(search, catalogs):
    for n in (1, 3, None):
        samples = search.get_catalog_samples() if n is None else search.get_catalog_samples(n)
        assert sorted(samples) == catalogs.names
        for name, rows in samples.items():
            assert len(rows) == (n or 5)  # the client's default asks for 5 of each
            assert len({key_of(name, data) for data in rows}) == len(rows)
            for data in rows:
                source = catalogs.by_key[(name, key_of(name, data))]
                assert same_row(data, source.row), (data, source.row)


def test_catalog_search(search, catalogs):
    galaxy = next(o for o in catalogs.objects if o.catalog == 'openngc' and o.radius_deg > 1 / 60 and o.row['type_name'] == 'galaxy')
    star = next(o for o in catalogs.objects if o.catalog == 'hipparcos' and o.dec > 0)
    # Inside a galaxy (off its centre), on a star, and a position in no catalog.
    for ra, dec in ((galaxy.ra, galaxy.dec + galaxy.radius_deg / 2), (star.ra, star.dec), (12.3456, -44.4444)):
        found = search.catalog_search(ra, dec)
        wanted = catalogs.matching(ra, dec)
        assert sorted((name, key_of(name, data)) for name, rows in found.items() for data in rows) == sorted(
            (o.catalog, o.object_id) for o in wanted)
        for name, rows in found.items():
            for data in rows:
                assert same_row(data, catalogs.by_key[(name, key_of(name, data))].row)
    assert search.catalog_search(12.3456, -44.4444) == {}


def test_catalog_objects_of_every_locus(every_locus, catalogs):
    matched = 0
    for locus in every_locus:
        wanted = catalogs.matching(locus.ra, locus.dec)
        assert sorted(locus.catalogs) == sorted({o.catalog for o in wanted})
        objects = locus.catalog_objects
        assert sorted((name, key_of(name, data)) for name, rows in objects.items() for data in rows) == sorted(
            (o.catalog, o.object_id) for o in wanted)
        for name, rows in objects.items():
            for data in rows:
                assert same_row(data, catalogs.by_key[(name, key_of(name, data))].row)
        matched += bool(wanted)
    assert matched >= 4  # the demo's anchored supernovae and variable stars


def test_to_devkit_with_catalogs(search, every_locus, catalogs):
    with_matches = [locus for locus in every_locus if locus.catalogs]
    for listed in with_matches:
        # A fresh Locus, so that to_devkit fetches the matches itself (the listed ones have them cached by now).
        locus = search.get_by_id(listed.locus_id)
        devkit = locus.to_devkit(include_catalogs=True)
        assert sorted(devkit['catalog_objects']) == sorted(locus.catalogs)
        wanted = catalogs.matching(locus.ra, locus.dec)
        assert sorted((name, key_of(name, data)) for name, rows in devkit['catalog_objects'].items() for data in rows) == sorted(
            (o.catalog, o.object_id) for o in wanted)
        for name, rows in devkit['catalog_objects'].items():
            for data in rows:
                assert same_row(data, catalogs.by_key[(name, key_of(name, data))].row)
        assert devkit['grav_wave_events_metadata'] == {} and devkit['id'] == locus.locus_id
        assert sorted(a['id'] for a in devkit['alerts']) == sorted(a.alert_id for a in locus.alerts)
    without = next(locus for locus in every_locus if not locus.catalogs)
    assert without.to_devkit(include_catalogs=True)['catalog_objects'] == {}
