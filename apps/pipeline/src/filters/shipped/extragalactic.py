"""Extragalactic: loci that sit on a galaxy (or a quasar), so that the transient is most likely outside
the Milky Way.

Two kinds of evidence; either is enough:

1. Catalog cross-matches (`locus.catalog_objects`; the pipeline lists a catalog row when the locus lies
   within the row's match radius, a galaxy's own size for extended sources):
   - any match in a catalog whose entries are all extragalactic (galaxies: 2MASS extended sources, SDSS
     galaxies, RC3; quasars/AGN: Milliquas, Veron-Cetty & Veron);
   - a galaxy (`type` g, s, s0, sd, i or e: galaxy, spiral, lenticular, dwarf spheroidal, irregular,
     elliptical) in the built-in `deep_sky_objects` catalog (d3-celestial's NGC/IC/Messier list), within
     half its minor axis (`dim` "major x minor" arcmin). That catalog's match circle is the major axis,
     but an inclined disk fills only part of it (M31's is 3:1): inside the minor axis the locus is on
     the galaxy whatever its orientation. Clusters, nebulae and galaxy clusters do not count.
2. The Pan-STARRS1 cross-match that ZTF puts in every alert packet: the nearest PS1 source
   (`ztf_distpsnr1`, arcsec) with its star/galaxy score (`ztf_sgscore1`, Tachibana & Miller 2018:
   0 galaxy-like ... 1 star-like; ZTF writes exactly 0.5 when the source could not be classified and
   -999 when there is no PS1 source within 30"). Tagged when that nearest source is galaxy-like
   (sgscore1 < 0.5) and within 5": supernovae mostly lie within a few arcsec of their host's PS1
   centroid, while a chance galaxy within 5" (a few thousand PS1 galaxies per square degree at high
   latitude) happens for only a few per cent of random positions. Only at |b| >= 10 deg: near the
   Galactic plane the PS1 star/galaxy separation fails (crowded, blended stars look extended) and
   extinction hides galaxies.

The PS1 fields exist only on an alert packet's own candidate (not on its history rows), so the newest
alert carrying them is used. Cost: a few dict lookups; the galactic latitude is one dot product.
"""
import math

import antares.devkit as dk

# Catalogs (pipeline catalog keys) whose every row is a galaxy or a quasar/AGN.
EXTRAGALACTIC_CATALOGS = ('2mass_xsc', 'sdss_gals', 'RC3', 'milliquas', 'veron_agn_qso')
# Catalogs of mixed objects: the row's `type` values that are galaxies (d3-celestial's codes).
GALAXY_TYPES = {'deep_sky_objects': frozenset(('g', 's', 's0', 'sd', 'i', 'e'))}
HOST_RADIUS_ARCSEC = 5.0
GALAXY_SGSCORE_MAX = 0.5  # strictly below: 0.5 itself is ZTF's "not classified"
MIN_ABS_GALACTIC_LATITUDE_DEG = 10.0

# The north Galactic pole in ICRS (the IAU 1958 definition transformed to ICRS, as astropy uses).
_NGP_RA = math.radians(192.85948)
_NGP_DEC = math.radians(27.12825)
_SIN_NGP_DEC = math.sin(_NGP_DEC)
_COS_NGP_DEC = math.cos(_NGP_DEC)


def galactic_latitude(ra_deg, dec_deg):
    """Galactic latitude b [deg] of an ICRS position: sin b = n_GP . r."""
    dec = math.radians(dec_deg)
    sin_b = _SIN_NGP_DEC * math.sin(dec) + _COS_NGP_DEC * math.cos(dec) * math.cos(math.radians(ra_deg) - _NGP_RA)
    return math.degrees(math.asin(max(-1.0, min(1.0, sin_b))))


def _number(value):
    return value if isinstance(value, (int, float)) and math.isfinite(value) else None


def _minor_axis_arcsec(dim):
    """The smaller of "AxB" (or "A") arcmin, in arcsec; None when the size is not given."""
    try:
        sizes = [float(part) for part in str(dim).lower().split('x')]
    except ValueError:
        return None
    return 60.0 * min(sizes) if sizes and min(sizes) > 0 else None


def on_catalogued_galaxy(catalogs):
    if any(catalogs.get(name) for name in EXTRAGALACTIC_CATALOGS):
        return True
    for name, types in GALAXY_TYPES.items():
        for row in catalogs.get(name) or ():
            if row.get('type') not in types:
                continue
            minor = _minor_axis_arcsec(row.get('dim'))
            separation = _number(row.get('separation_arcsec'))
            if minor is None or separation is None or separation <= minor / 2:
                return True
    return False


class Extragalactic(dk.Filter):
    NAME = 'Extragalactic'
    OUTPUT_TAGS = [
        {
            'name': 'extragalactic',
            'description': 'Locus lies on a galaxy or quasar: a match in an extragalactic catalog or on a '
                           'catalogued galaxy (within half its minor axis), or the nearest Pan-STARRS1 source '
                           'within 5" is galaxy-like (ztf_sgscore1 < 0.5), at Galactic latitude |b| >= 10 deg.',
        },
    ]

    def run(self, locus):
        if on_catalogued_galaxy(locus.catalog_objects):
            locus.tag('extragalactic')
            return
        if abs(galactic_latitude(locus.ra, locus.dec)) < MIN_ABS_GALACTIC_LATITUDE_DEG:
            return
        for alert in reversed(locus.alerts):
            if alert.survey != 'ztf':
                continue  # only ZTF packets carry the PS1 fields; other surveys' alerts stay undecoded
            props = alert.properties
            distance = _number(props.get('ztf_distpsnr1'))
            if distance is None:
                continue  # a history row or an upper limit: no PS1 cross-match on it
            sgscore = _number(props.get('ztf_sgscore1'))
            # Negative values (-999) mean no PS1 source near the alert.
            if distance >= 0 and sgscore is not None and 0 <= sgscore < GALAXY_SGSCORE_MAX \
                    and distance <= HOST_RADIUS_ARCSEC:
                locus.tag('extragalactic')
            return
