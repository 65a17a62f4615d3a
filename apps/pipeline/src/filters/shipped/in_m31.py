"""In M31: loci inside the optical disk of the Andromeda galaxy (M31 = NGC 224), where novae, luminous
red novae, Cepheids and microlensing events are found and foreground stars are easy to confuse with them.

The disk is the ellipse of OpenNGC (v20210306, as in ../shared/data/catalogs/kstars-data):
centre RA 10.684792, Dec +41.269056 (J2000), major axis 177.83', minor axis 69.66' (the D25 isophote,
25 mag/arcsec^2 in B), position angle 35 deg (north through east). A locus is inside when its elliptical
radius is at most 1: its offset is projected onto the tangent plane at the centre (gnomonic projection;
exact enough over 1.5 deg) and rotated onto the major and minor axes.

Uses only the locus position. Cost: a few trigonometric calls.
"""
import math

import antares.devkit as dk

M31_RA_DEG = 10.684792
M31_DEC_DEG = 41.269056
SEMI_MAJOR_DEG = 177.83 / 2 / 60
SEMI_MINOR_DEG = 69.66 / 2 / 60
POSITION_ANGLE_DEG = 35.0

_RA0 = math.radians(M31_RA_DEG)
_SIN_DEC0 = math.sin(math.radians(M31_DEC_DEG))
_COS_DEC0 = math.cos(math.radians(M31_DEC_DEG))
_SIN_PA = math.sin(math.radians(POSITION_ANGLE_DEG))
_COS_PA = math.cos(math.radians(POSITION_ANGLE_DEG))


def m31_elliptical_radius(ra_deg, dec_deg):
    """Elliptical radius in units of the D25 ellipse (<= 1 inside); inf on the far side of the sky."""
    dec = math.radians(dec_deg)
    dra = math.radians(ra_deg) - _RA0
    cos_c = _SIN_DEC0 * math.sin(dec) + _COS_DEC0 * math.cos(dec) * math.cos(dra)
    if cos_c <= 0:
        return math.inf
    xi = math.degrees(math.cos(dec) * math.sin(dra) / cos_c)  # towards east
    eta = math.degrees((_COS_DEC0 * math.sin(dec) - _SIN_DEC0 * math.cos(dec) * math.cos(dra)) / cos_c)  # north
    along_major = xi * _SIN_PA + eta * _COS_PA
    along_minor = xi * _COS_PA - eta * _SIN_PA
    return math.hypot(along_major / SEMI_MAJOR_DEG, along_minor / SEMI_MINOR_DEG)


class InM31(dk.Filter):
    NAME = 'In M31'
    OUTPUT_TAGS = [
        {
            'name': 'in_m31',
            'description': "Locus lies inside M31's D25 ellipse (OpenNGC: 177.83' x 69.66', PA 35 deg, "
                           'centred on RA 10.6848, Dec +41.2691).',
        },
    ]

    def run(self, locus):
        if m31_elliptical_radius(locus.ra, locus.dec) <= 1.0:
            locus.tag('in_m31')
