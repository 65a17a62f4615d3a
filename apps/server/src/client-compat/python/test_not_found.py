"""What the client does with ids the server does not know: None where it expects a 404, empty results where
it searches, and an AntaresException carrying our JSON:API error where it lists a resource's children."""
import datetime

import pytest


def test_unknown_ids_give_none(search):
    assert search.get_by_id('ANT2020aaaaaaaaaaaa') is None
    assert search.get_by_ztf_object_id('ZTF99zzzzzzz') is None
    assert search.get_by_id('not-a-locus-id') is None
    assert search.get_by_lsst_dia_object_id('1') is None
    assert search.get_by_lsst_dia_object_id('9223372036854775807') is None  # beyond 2**53, as Rubin ids are
    assert search.get_latest_grav_wave_notices('S000101zz') is None
    assert search.get_grav_wave_notices('S000101zz', datetime.datetime(2024, 1, 1, tzinfo=datetime.timezone.utc)) is None


def test_searches_that_match_nothing(search):
    assert list(search.search({'query': {'bool': {'filter': {'term': {'tags': 'no_such_tag'}}}}})) == []
    assert search.get_multiple_grav_wave_notices(['S000101zz']) == []
    assert search.catalog_search(0.5, -89.5) == {}


def test_thumbnails_of_an_unknown_alert(search, client):
    with pytest.raises(client.AntaresException) as raised:
        search.get_thumbnails('ztf_candidate:1')
    (error,) = raised.value.args[0]['errors']
    assert error['status'] == '404' and 'ztf_candidate:1' in error['detail']


def test_a_bad_query_is_a_json_api_400(search, client):
    with pytest.raises(client.AntaresException) as raised:
        list(search.search({'query': {'geo_shape': {}}}))
    (error,) = raised.value.args[0]['errors']
    assert error['status'] == '400' and 'geo_shape' in error['detail']
