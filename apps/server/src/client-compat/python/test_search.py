"""antares_client.search: search with every clause clients send, full pagination, cone searches, the
lookups by ZTF and Rubin ids and the random samples. Expected sets come from the packets (expected.py)."""
import math

import astropy.units as u
import pytest
from astropy.coordinates import Angle, SkyCoord

from conftest import EVERYTHING, expected_alerts, survey_ids


def measurements(expected, locus):
    return sum(a.mag is not None for a in expected_alerts(expected, locus).values())


def ids_of(loci):
    return [locus.locus_id for locus in loci]


def test_search_follows_links_next_through_every_page(search, every_locus, facts, monkeypatch):
    import antares_client._api.api as api
    urls = []
    real_get = api.requests.get

    def counting_get(url, *args, **kwargs):
        urls.append(url)
        return real_get(url, *args, **kwargs)
    monkeypatch.setattr(api.requests, 'get', counting_get)
    loci = list(search.search(EVERYTHING))
    assert len(loci) == facts['locus_count'] == len(every_locus)
    assert len(set(ids_of(loci))) == len(loci)
    # One request per page of the server's default size, each page's links.next followed verbatim.
    assert len(urls) == math.ceil(len(loci) / 25) and all('page%5Boffset%5D=' in url for url in urls[1:])
    times = [locus.properties['newest_alert_observation_time'] for locus in loci]
    assert times == sorted(times, reverse=True)


def test_every_object_of_the_packets_is_in_exactly_one_locus(every_locus, expected):
    ztf = [i for locus in every_locus for i in survey_ids(locus)[0]]
    rubin = [i for locus in every_locus for i in survey_ids(locus)[1]]
    assert sorted(ztf) == sorted(expected.ztf) and len(set(ztf)) == len(ztf)
    assert sorted(rubin) == sorted(expected.rubin) and len(set(rubin)) == len(rubin)


def test_term_on_ztf_object_id_and_get_by_ztf_object_id(search, expected):
    real = sorted(set(expected.ztf) - expected.demo_objects)
    assert len(real) > 20
    for object_id in real:
        found = list(search.search({'query': {'bool': {'filter': {'term': {'properties.ztf_object_id': object_id}}}}}))
        locus = search.get_by_ztf_object_id(object_id)
        assert locus is not None, object_id
        assert object_id in survey_ids(locus)[0]
        assert ids_of(found) == [locus.locus_id]
        assert locus.properties['num_alerts'] == len(expected_alerts(expected, locus))


def test_get_by_lsst_dia_object_id(search, expected):
    assert len(expected.rubin) > 100
    for object_id in sorted(expected.rubin):
        locus = search.get_by_lsst_dia_object_id(object_id)
        assert locus is not None, object_id
        assert object_id in survey_ids(locus)[1]
        assert locus.properties['num_alerts'] == len(expected_alerts(expected, locus))
    with pytest.raises(ValueError):
        search.get_by_lsst_dia_object_id(int(sorted(expected.rubin)[0]))


def test_terms_on_locus_ids(search, every_locus):
    wanted = ids_of(every_locus[3:300:37])
    found = ids_of(search.search({'query': {'bool': {'filter': {'terms': {'locus_id': wanted}}}}}))
    assert sorted(found) == sorted(wanted)


@pytest.mark.parametrize('low,high', [(1, 1), (3, 10), (20, 1000)])
def test_range_on_the_number_of_measurements(search, every_locus, expected, low, high):
    query = {'query': {'bool': {'filter': {'range': {'properties.num_mag_values': {'gte': low, 'lte': high}}}}}}
    found = ids_of(search.search(query))
    wanted = [locus.locus_id for locus in every_locus if low <= measurements(expected, locus) <= high]
    assert wanted and sorted(found) == sorted(wanted)


def test_exists_on_rubin_ids(search, expected):
    found = list(search.search({'query': {'bool': {'filter': {'exists': {'field': 'properties.survey.lsst.dia_object_id'}}}}}))
    assert sorted(i for locus in found for i in survey_ids(locus)[1]) == sorted(expected.rubin)


def test_bool_with_must_filter_should_and_must_not(search, every_locus, expected, facts):
    should_tag = 'extragalactic' if facts['level2'] else None
    query = {'query': {'bool': {
        'must': [{'range': {'properties.num_mag_values': {'gte': 2}}}],
        'filter': [{'range': {'dec': {'gte': -30}}}],
        'should': [{'term': {'catalogs': 'hipparcos'}}, {'term': {'catalogs': 'openngc'}}, {'term': {'tags': should_tag or 'none'}}],
        'minimum_should_match': 1,
        'must_not': [{'exists': {'field': 'properties.survey.lsst.dia_object_id'}}],
    }}}
    found = ids_of(search.search(query))

    def wanted(locus):
        in_catalog = bool({'hipparcos', 'openngc'} & set(locus.catalogs)) or (should_tag in locus.tags)
        return measurements(expected, locus) >= 2 and locus.dec >= -30 and in_catalog and not survey_ids(locus)[1]
    expect = [locus.locus_id for locus in every_locus if wanted(locus)]
    assert len(expect) >= 3 and sorted(found) == sorted(expect)


@pytest.mark.parametrize('radius', [Angle(1, u.arcsec), Angle(30, u.arcsec), Angle(0.5, u.deg), Angle(5, u.deg)])
def test_cone_search(search, every_locus, expected, radius):
    # Centred on real ZTF detections (their packets' positions), away from the loci's own centroids.
    real = sorted(set(expected.ztf) - expected.demo_objects)
    centres = [next(a for a in expected.ztf[key].values() if a.ra is not None) for key in real[::23]]
    positions = SkyCoord([locus.ra for locus in every_locus] * u.deg, [locus.dec for locus in every_locus] * u.deg)
    for centre in centres:
        point = SkyCoord(centre.ra * u.deg, centre.dec * u.deg)
        found = ids_of(search.cone_search(point, radius))
        # The client sends the centre as SkyCoord.to_string() (4 decimals) and the radius in decimal degrees.
        sent = SkyCoord(*point.to_string().split(), unit=u.deg)
        inside = sent.separation(positions) <= Angle(float(radius.to_string(unit=u.deg, decimal=True)), u.deg)
        assert sorted(found) == sorted(locus.locus_id for locus, yes in zip(every_locus, inside) if yes)
        if radius >= Angle(30, u.arcsec):
            assert any(centre.alert_id in expected_alerts(expected, locus) for locus in every_locus if locus.locus_id in found)


def test_sky_distance_in_a_search(search, every_locus, expected):
    # The wire format's cone clause as scripts write it (decimal centre, distance in degrees), under `must` beside
    # another clause, centred on a locus (so that it is found at any distance) and on a point between loci.
    positions = SkyCoord([locus.ra for locus in every_locus] * u.deg, [locus.dec for locus in every_locus] * u.deg)
    middle = every_locus[len(every_locus) // 2]
    centres = [(middle.ra, middle.dec), ((middle.ra + 0.3) % 360, max(-89.0, middle.dec - 0.2))]
    found_any = 0
    for ra, dec in centres:
        separations = SkyCoord(ra * u.deg, dec * u.deg).separation(positions).deg
        for distance in (0.0002777, 0.05, 1.5, 20.0):
            query = {'query': {'bool': {
                'must': [{'sky_distance': {'distance': f'{distance} degree', 'htm16': {'center': f'{ra} {dec}'}}}],
                'filter': [{'range': {'properties.num_mag_values': {'gte': 2}}}],
            }}}
            found = ids_of(search.search(query))
            # A locus within a nanodegree of the circle's edge may fall either way (two sums of floating point).
            edge = {locus.locus_id for locus, sep in zip(every_locus, separations) if abs(sep - distance) < 1e-9}
            wanted = [locus.locus_id for locus, sep in zip(every_locus, separations)
                      if sep <= distance and measurements(expected, locus) >= 2]
            assert sorted(set(found) - edge) == sorted(set(wanted) - edge), (ra, dec, distance)
            found_any += len(found)
    assert middle.locus_id in ids_of(search.search({'query': {'bool': {'filter': {'sky_distance': {
        'distance': '0.0002777 degree', 'htm16': {'center': f'{middle.ra} {middle.dec}'}}}}}}))
    assert found_any > 10


def test_random_score_search_through_every_page(search, every_locus, expected):
    # function_score random through search(): links.next keeps one order, so the pages hold every locus once.
    everything = sorted(ids_of(every_locus))
    query = {'query': {'function_score': {'random_score': {}}}}
    first, second = ids_of(search.search(query)), ids_of(search.search(query))
    assert sorted(first) == everything and sorted(second) == everything
    assert first != second and first != ids_of(every_locus)  # about 300 loci: equal orders are beyond chance
    # A seed of its own gives the same order every time; a query inside keeps to its matches.
    seeded = {'query': {'function_score': {'random_score': {'seed': 20260605},
                                           'query': {'bool': {'filter': {'exists': {'field': 'properties.survey.lsst.dia_object_id'}}}}}}}
    once, again = ids_of(search.search(seeded)), ids_of(search.search(seeded))
    rubin = [locus.locus_id for locus in every_locus if survey_ids(locus)[1]]
    assert len(rubin) > 25 and once == again and sorted(once) == sorted(rubin)


def test_random_loci(search, every_locus):
    known = set(ids_of(every_locus))
    sample = search.get_random_loci(12)
    assert len(sample) == 12 and len(set(ids_of(sample))) == 12 and set(ids_of(sample)) <= known
    assert search.get_random_locus().locus_id in known
    first, second = search.get_random_locus_ids(30), search.get_random_locus_ids(30)
    assert len(set(first)) == 30 and set(first) <= known and set(second) <= known
    assert first != second  # 30 of some 300 loci in the same order twice: about 1 chance in 10^70
    assert search.get_random_locus_id() in known
    with pytest.raises(ValueError):
        search.get_random_loci(1001)


def test_available_tags(search, facts):
    if not facts['level2']:
        message = f"the shipped filters did not run (no tags): missing {', '.join(facts['level2_missing'])}"
        if __import__('os').environ.get('CI') == 'true':
            pytest.fail(message)
        pytest.skip(message)
    tags = search.get_available_tags()
    assert sorted(tags) == sorted(facts['tags']) and len(tags) >= 3
