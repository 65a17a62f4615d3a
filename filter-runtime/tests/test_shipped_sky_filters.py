"""The shipped filters that look at where an alert is: in_m31, extragalactic and nuclear_transient (see shipped.py)."""
import csv
import math
import os

import pytest

import realdata
from shipped import locus_of, need_science_stack, num, real_packets, run, tagged, tagged_set

pytestmark = pytest.mark.skipif(not realdata.available(), reason='../shared/data is not here')


@pytest.fixture(scope='module')
def packets():
    return real_packets()


# -- extragalactic --------------------------------------------------------------------------------

def galactic_b(ra, dec):
    from astropy.coordinates import SkyCoord
    import astropy.units as u
    return SkyCoord(ra * u.deg, dec * u.deg).galactic.b.deg


def expected_extragalactic(rec):
    c = rec['candidate']
    return abs(galactic_b(c['ra'], c['dec'])) >= 10 and 0 <= num(c['distpsnr1']) <= 5.0 and 0 <= num(c['sgscore1']) < 0.5


def test_extragalactic_tags_alerts_on_galaxy_like_ps1_sources(packets):
    expected = {oid for oid, rec in packets.items() if expected_extragalactic(rec)}
    assert tagged_set('extragalactic', packets) == expected
    assert expected == {'ZTF20aabaest', 'ZTF20aabaesv', 'ZTF19acihgng', 'ZTF18acefvuh'}
    assert len(expected) < len(packets)


def test_extragalactic_edges(packets):
    rec = packets['ZTF18acefvuh']  # PS1 galaxy (sgscore1 0.0069) 0.09" away, b = +36.6
    assert tagged('extragalactic', locus_of(rec))
    assert not tagged('extragalactic', locus_of(rec, {'sgscore1': 0.5}))  # 0.5: not classified
    assert tagged('extragalactic', locus_of(rec, {'distpsnr1': 5.0}))
    assert not tagged('extragalactic', locus_of(rec, {'distpsnr1': 5.01}))
    assert not tagged('extragalactic', locus_of(rec, {'distpsnr1': -999.0, 'sgscore1': -999.0}))
    # Moved into the Galactic plane (b = 5 deg, found with astropy): the PS1 evidence no longer counts,
    # a galaxy catalog match does.
    from astropy.coordinates import SkyCoord
    import astropy.units as u
    plane = SkyCoord(l=120 * u.deg, b=5 * u.deg, frame='galactic').icrs
    low = locus_of(rec, {'ra': plane.ra.deg, 'dec': plane.dec.deg})
    low.update(ra=plane.ra.deg, dec=plane.dec.deg)
    assert not tagged('extragalactic', low)
    assert tagged('extragalactic', dict(low, catalog_objects={'sdss_gals': [{'objid': 1}]}))
    assert not tagged('extragalactic', dict(low, catalog_objects={'gaia_dr3_gaia_source': [{'source_id': 1}]}))


def test_extragalactic_from_the_built_in_deep_sky_catalog():
    need_science_stack()
    from astropy.coordinates import SkyCoord
    import astropy.units as u
    # Real rows of d3-celestial's dsos.14.json (the pipeline's deep_sky_objects catalog).
    m31_row = {'desig': 'M 31', 'type': 's', 'morph': 'SA(s)b', 'mag': '3.44', 'dim': '189.1x61.7', 'bv': 0.92}
    m31 = SkyCoord(10.6847 * u.deg, 41.26875 * u.deg)
    positions = {r['objectId']: (float(r['ra']), float(r['dec'])) for r in index_rows()}

    def at(ra, dec, catalogs):  # no alerts: only the catalog can say so
        sep = m31.separation(SkyCoord(ra * u.deg, dec * u.deg)).arcsec
        rows = {name: [dict(row, separation_arcsec=sep) for row in rows] for name, rows in catalogs.items()}
        return tagged('extragalactic', {'locus_id': 'L', 'ra': ra, 'dec': dec, 'alerts': [], 'catalog_objects': rows})
    # The two real ZTF alerts in M31 (0.21 and 0.42 deg from its centre) lie within half its minor axis
    # (30.9'), so on the galaxy whatever the orientation.
    for oid in ('ZTF18acbycbx', 'ZTF18abpvcmz'):
        assert at(*positions[oid], {'deep_sky_objects': [m31_row]})
    # 0.6 deg out along the major axis (PA 35): still in M31's disk, but the catalog row alone (no
    # position angle) cannot tell it from a point 0.6 deg off the minor axis, outside the disk.
    far = m31.directional_offset_by(35 * u.deg, 0.6 * u.deg)
    assert not at(far.ra.deg, far.dec.deg, {'deep_sky_objects': [m31_row]})
    assert at(far.ra.deg, far.dec.deg, {'deep_sky_objects': [dict(m31_row, dim='')]})  # size unknown: the match counts
    near = positions['ZTF18acbycbx']
    open_cluster = {'desig': 'NGC 869', 'type': 'oc', 'morph': 'I3r', 'mag': '3.8', 'dim': '30', 'bv': 0.5}
    assert not at(*near, {'deep_sky_objects': [open_cluster]})
    assert not at(*near, {'hipparcos': [{'id': 1}]})


# -- nuclear_transient ----------------------------------------------------------------------------

def expected_nuclear(rec):
    c = rec['candidate']
    drb = c.get('drb') or None
    return (c['isdiffpos'] in ('t', '1') and 0 <= num(c.get('distnr')) <= 0.5 and 0 <= num(c['distpsnr1']) <= 1.0
            and 0 <= num(c['sgscore1']) < 0.5 and num(c['rb']) >= 0.65 and (drb is None or drb >= 0.8))


def test_nuclear_transient_on_real_alerts(packets):
    expected = {oid for oid, rec in packets.items() if expected_nuclear(rec)}
    assert tagged_set('nuclear_transient', packets) == expected == set()
    # ZTF18acefvuh sits on a galaxy nucleus (distnr 0.17 px, PS1 galaxy 0.09" away, rb 0.95, drb 1.0)
    # but is a negative difference: fainter than the reference. As a brightening it is nuclear.
    rec = packets['ZTF18acefvuh']
    assert rec['candidate']['isdiffpos'] == 'f'
    assert tagged('nuclear_transient', locus_of(rec, {'isdiffpos': 't'}))


def test_nuclear_transient_edges(packets):
    rec = packets['ZTF18acefvuh']

    def nuclear(**changes):
        return tagged('nuclear_transient', locus_of(rec, dict({'isdiffpos': 't'}, **changes)))
    assert nuclear(distnr=0.5) and not nuclear(distnr=0.51)
    assert nuclear(distpsnr1=1.0) and not nuclear(distpsnr1=1.01)
    assert not nuclear(sgscore1=0.5)  # star-like or unclassified nucleus
    assert not nuclear(rb=0.64)
    assert not nuclear(drb=0.79) and nuclear(drb=0.0)  # drb 0: not computed (pre-2019 packets)
    assert not nuclear(distnr=-999.0)
    report = run('nuclear_transient', locus_of(rec, {'isdiffpos': 't', 'distnr': None}))
    assert report['new_tags'] == set() and 'ztf_distnr' in report['skipped']  # REQUIRED_ALERT_PROPERTIES


# -- in_m31 ---------------------------------------------------------------------------------------

M31 = (10.684792, 41.269056)  # OpenNGC NGC 224
M31_AXES_DEG = (177.83 / 120, 69.66 / 120)
M31_PA = 35.0


def expected_in_m31(ra, dec):
    """Elliptical radius from astropy's separation and position angle (spherical, not the filter's
    tangent-plane projection)."""
    from astropy.coordinates import SkyCoord
    import astropy.units as u
    centre = SkyCoord(M31[0] * u.deg, M31[1] * u.deg)
    here = SkyCoord(ra * u.deg, dec * u.deg)
    s = centre.separation(here).deg
    theta = math.radians(centre.position_angle(here).deg - M31_PA)
    return math.hypot(s * math.cos(theta) / M31_AXES_DEG[0], s * math.sin(theta) / M31_AXES_DEG[1]) <= 1


def index_rows():
    with open(os.path.join(realdata.SHARED, 'INDEX_alerts.csv')) as fh:
        return [r for r in csv.DictReader(fh) if r['survey'] == 'ztf' and r['ra']]


def test_in_m31_on_every_real_ztf_position():
    need_science_stack()
    rows = index_rows()
    assert len(rows) > 250
    got = {r['objectId'] for r in rows
           if tagged('in_m31', {'locus_id': r['candid'], 'ra': float(r['ra']), 'dec': float(r['dec']), 'alerts': []})}
    expected = {r['objectId'] for r in rows if expected_in_m31(float(r['ra']), float(r['dec']))}
    assert got == expected == {'ZTF18abpvcmz', 'ZTF18acbycbx'}


@pytest.mark.parametrize('angle, fraction, inside', [
    (M31_PA, 0.99, True), (M31_PA, 1.01, False), (M31_PA + 180, 0.99, True), (M31_PA + 180, 1.01, False),
    (M31_PA + 90, 0.99, True), (M31_PA + 90, 1.01, False), (M31_PA + 45, 0.5, True),
])
def test_in_m31_ellipse_edges(angle, fraction, inside):
    need_science_stack()
    from astropy.coordinates import SkyCoord
    import astropy.units as u
    # Semi-axis along the direction: the major axis at PA 35 and 215, the minor one at 125.
    a, b = M31_AXES_DEG
    t = math.radians(angle - M31_PA)
    radius = 1 / math.hypot(math.cos(t) / a, math.sin(t) / b)
    point = SkyCoord(M31[0] * u.deg, M31[1] * u.deg).directional_offset_by(angle * u.deg, fraction * radius * u.deg)
    locus = {'locus_id': 'L', 'ra': point.ra.deg, 'dec': point.dec.deg, 'alerts': []}
    assert tagged('in_m31', locus) is inside is expected_in_m31(point.ra.deg, point.dec.deg)


def test_in_m31_far_away_and_opposite_side_of_the_sky():
    need_science_stack()
    assert not tagged('in_m31', {'locus_id': 'L', 'ra': 190.68, 'dec': -41.27, 'alerts': []})  # antipode
    assert not tagged('in_m31', {'locus_id': 'L', 'ra': 10.0912, 'dec': 41.6853, 'alerts': []})  # M110, outside
    assert tagged('in_m31', {'locus_id': 'L', 'ra': 10.6743, 'dec': 40.8653, 'alerts': []})  # M32, in front
