"""The devkit's `locus.lightcurve` and `locus.timeseries` against the published antares-client 1.13.0
(../shared/clients, unmodified) for the same real loci: the client's lightcurve is the server's CSV
(made here by the server's own lightcurve.ts) read by pandas, its timeseries is built from the alerts'
properties. Every column the client gives, we give, with its dtype, except that integer columns are
float64 with NaN where an alert lacks the value (the devkit's frames; 64-bit ids stay int64).
`DevKitLocus.model_validate(client_locus.to_devkit())`, the devkit's documented workflow, runs filters too."""
import io
import json
import os
import subprocess
import sys

import numpy as np
import pytest

import realdata
from conftest import RUNTIME

REPO = os.path.dirname(RUNTIME)
CLIENTS = os.path.abspath(os.path.join(REPO, '..', 'shared', 'clients'))
CLIENT_PATHS = [os.path.join(CLIENTS, 'antares-client-1.13.0'), os.path.join(CLIENTS, 'marshmallow-jsonapi-0.24.0')]
TSX = os.path.join(REPO, 'node_modules', '.bin', 'tsx')
APT = 'apt-get install -y python3-requests python3-marshmallow python3-astropy python3-pandas python3-astropy-healpix'
pytestmark = pytest.mark.skipif(not realdata.available() or not os.path.isdir(CLIENTS),
                                reason='../shared/data and ../shared/clients are not here')


def client_models():
    for path in CLIENT_PATHS:
        if path not in sys.path:
            sys.path.append(path)
    try:
        import antares_client.models
    except ImportError as exc:
        message = f'the published antares-client cannot be imported ({exc}): {APT}'
        if os.environ.get('CI') == 'true':
            pytest.fail(message)
        pytest.skip(message)
    return antares_client.models


def server_csvs(loci):
    """The lightcurve CSV of each locus, made by apps/server/src/services/lightcurve.ts itself."""
    if not os.access(TSX, os.X_OK):
        message = 'node_modules/.bin/tsx is missing: npm ci'
        if os.environ.get('CI') == 'true':
            pytest.fail(message)
        pytest.skip(message)
    script = ("import { lightcurveCsv } from './apps/server/src/services/lightcurve.ts';\n"
              "let input = ''; process.stdin.on('data', (c) => { input += c; });\n"
              "process.stdin.on('end', () => { process.stdout.write(JSON.stringify("
              "JSON.parse(input).map((alerts) => lightcurveCsv(alerts)))); });\n")
    alerts = [[{'alert_id': a['alert_id'], 'mjd': a['mjd'], 'properties': a['properties']} for a in locus['alerts']]
              for locus in loci]
    out = subprocess.run([TSX, '--eval', script], input=json.dumps(alerts), capture_output=True, text=True,
                         cwd=REPO, timeout=120)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


@pytest.fixture(scope='module')
def loci(ztf):
    # Every ZTF object's longest snapshot (upper limits and detections), and the Rubin packets.
    longest = {}
    for locus in realdata.strip_private(ztf):
        key = locus['properties']['ztf_object_id']
        if len(locus['alerts']) > len(longest.get(key, {'alerts': ()})['alerts']):
            longest[key] = locus
    chosen = list(longest.values()) + realdata.strip_private(realdata.rubin_loci())
    # Oldest first, as the server lists a locus' alerts (and a Rubin packet's history may not be).
    return [dict(locus, alerts=sorted(locus['alerts'], key=lambda a: a['mjd'])) for locus in chosen]


def client_locus(models, locus, csv):
    import pandas as pd
    alerts = [models.Alert(alert_id=a['alert_id'], mjd=a['mjd'], properties=a['properties']) for a in locus['alerts']]
    return models.Locus(locus_id=locus['locus_id'], ra=locus['ra'], dec=locus['dec'], properties=locus['properties'],
                        tags=locus['tags'], alerts=alerts, catalog_objects={},
                        lightcurve=pd.read_csv(io.StringIO(csv)) if csv is not None else None)


def test_lightcurve_is_the_clients(loci):
    import pandas as pd
    import antares.devkit as dk
    from antares_runtime.frames import lightcurve_csv
    models = client_models()
    csvs = server_csvs(loci)
    for locus, csv in zip(loci, csvs):
        ours = dk.locus_from_dict(locus)
        assert lightcurve_csv(ours.alerts) == csv, locus['locus_id']
        theirs = client_locus(models, locus, csv).lightcurve
        pd.testing.assert_frame_equal(ours.lightcurve, theirs)
    upper_limits = [dk.locus_from_dict(locus).lightcurve for locus in loci if locus['locus_id'].startswith('ANTztf')]
    assert all(lc['ant_mag'].dtype == np.float64 for lc in upper_limits)
    assert any(lc['ant_mag'].isna().any() for lc in upper_limits)


def expected_dtype(column):
    """Ours for a client column: the same, but for integers that a float64 holds exactly."""
    data = np.asarray(column)
    if data.dtype.kind in 'iu' and (len(data) == 0 or int(np.abs(data).max()) <= 2 ** 53):
        return np.dtype(np.float64)
    return column.dtype


def test_timeseries_has_the_clients_columns_and_dtypes(loci):
    import antares.devkit as dk
    from antares_devkit.models import DevKitLocus
    models = client_models()
    kinds = set()
    for locus in loci:
        theirs = client_locus(models, locus, None).timeseries
        for ours in (dk.locus_from_dict(locus).timeseries, DevKitLocus.model_validate(locus).timeseries()):
            assert ours.colnames == ['time', 'alert_id'] + theirs.colnames[1:], locus['locus_id']
            assert list(ours['alert_id']) == [a['alert_id'] for a in locus['alerts']]
            assert np.allclose(ours['time'].mjd, [a['mjd'] for a in locus['alerts']], rtol=0, atol=1e-8)
            for name in theirs.colnames[1:]:
                column = theirs[name]
                assert ours[name].dtype == expected_dtype(column), (locus['locus_id'], name, ours[name].dtype)
                mask = np.asarray(getattr(column, 'mask', np.zeros(len(column), dtype=bool)))
                assert list(np.asarray(ours[name].mask)) == list(mask), (locus['locus_id'], name)
                if ours[name].dtype == np.float64:
                    assert np.array_equal(ours[name].filled(np.nan), np.where(mask, np.nan, np.asarray(column, dtype=float)),
                                          equal_nan=True), name
                else:
                    assert list(ours[name][~mask]) == list(np.asarray(column)[~mask]), name
                kinds.add((column.dtype.kind, ours[name].dtype.kind, bool(mask.any())))
    # The loci hold integers with and without gaps (candid: 64-bit ids), strings, booleans, floats.
    assert {('i', 'f', True), ('i', 'f', False), ('i', 'i', True), ('U', 'U', True), ('b', 'b', False)} <= kinds


def test_to_devkit_loci_run_filters_like_the_worker(loci):
    import antares.devkit as dk
    from antares_devkit.models import DevKitLocus
    from antares_devkit.utils import filter_report
    from test_published_styles import STYLES, expect_color
    models = client_models()
    namespace = {'__name__': 'api_b_color'}
    with open(os.path.join(STYLES, 'api_b_color.py'), encoding='utf-8') as fh:
        exec(compile(fh.read(), 'api_b_color.py', 'exec'), namespace)
    color_filter = namespace['MedianColor']
    blue = 0
    for locus in [x for x in loci if x['locus_id'].startswith('ANTztf')]:
        shaped = client_locus(models, locus, None).to_devkit()
        assert 'id' in shaped and 'alert_id' not in shaped['alerts'][0]  # the client's own shape
        devkit_locus = DevKitLocus.model_validate(shaped)
        assert devkit_locus.locus_id == locus['locus_id'] and devkit_locus.properties == locus['properties']
        report = filter_report([color_filter], devkit_locus)['MedianColor']
        expected_blue = expect_color(locus)[1]
        assert report['new_tags'] == ({'blue_transient'} if expected_blue else set())
        blue += expected_blue
        # The devkit's README runs a filter by calling it: the locus records what it does.
        standalone = DevKitLocus.model_validate(client_locus(models, locus, None).to_devkit())
        color_filter().run(standalone)
        assert ('blue_transient' in standalone.tags) == expected_blue
    assert blue > 0
    assert dk.locus_from_dict(loci[0]).lightcurve is not None
