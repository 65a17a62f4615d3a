"""Fixtures of the antares-client compatibility suite: the facts the vitest runner wrote, the packets'
expected contents, and the published client itself, pointed at the test server through the environment
variable its config reads (ANTARES_API_BASE_URL, set by the runner before the client is imported)."""
import json
import os
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
CLIENTS = os.path.abspath(os.path.join(HERE, *['..'] * 5, '..', 'shared', 'clients'))
for name in ('antares-client-1.13.0', 'marshmallow-jsonapi-0.24.0'):
    path = os.path.join(CLIENTS, name)
    if path not in sys.path:
        sys.path.append(path)
APT = ('apt-get install -y python3-requests python3-marshmallow python3-astropy python3-pandas '
       'python3-astropy-healpix python3-pytest python3-avro')


def _missing(message):
    if os.environ.get('CI') == 'true':
        pytest.fail(message, pytrace=False)
    pytest.skip(message)


@pytest.fixture(scope='session')
def facts():
    path = os.environ.get('ANTARES_COMPAT_FACTS')
    if not path or not os.environ.get('ANTARES_API_BASE_URL'):
        _missing('run through vitest, which starts the server: npx vitest run apps/server/src/client-compat')
    with open(path) as fh:
        return json.load(fh)


@pytest.fixture(scope='session')
def client(facts):
    """The published package, unmodified (ImportError skips, or fails under CI, with the install command)."""
    try:
        import antares_client
        import antares_client.search
        from antares_client.config import config
    except ImportError as exc:
        _missing(f'the published antares-client cannot be imported ({exc}): {APT}')
    assert antares_client.__version__ == '1.13.0'
    assert antares_client.search.__file__.startswith(CLIENTS), antares_client.search.__file__
    assert config['ANTARES_API_BASE_URL'] == os.environ['ANTARES_API_BASE_URL']
    return antares_client


@pytest.fixture(scope='session')
def search(client):
    return client.search


@pytest.fixture(scope='session')
def expected(facts):
    import expected as expected_module
    return expected_module.load(facts['ztf_dirs'], facts['rubin_dirs'], facts['demo_dir'])


@pytest.fixture(scope='session')
def api(facts):
    """Plain HTTP to the same server, for what the client has no call for (the DB's locus ids)."""
    import requests
    base = os.environ['ANTARES_API_BASE_URL']

    def get(path, **params):
        response = requests.get(base + path, params=params, timeout=60)
        return response.status_code, response.json()
    return get


EVERYTHING = {'query': {'bool': {'filter': {'range': {'ra': {'gte': 0}}}}}}


@pytest.fixture(scope='session')
def every_locus(search):
    """Every locus, read through the client's search (all pages, following links.next)."""
    return list(search.search(EVERYTHING))


def survey_ids(locus):
    survey = locus.properties.get('survey') or {}
    return (survey.get('ztf') or {}).get('id') or [], (survey.get('lsst') or {}).get('dia_object_id') or []


def expected_alerts(expected, locus):
    """The alerts a locus should hold: those of every ZTF and Rubin object it lists."""
    ztf, rubin = survey_ids(locus)
    return expected.alerts_of(ztf, rubin)
