"""The catalogs the server imported, read from their files here: each object's id, name, position, match
radius and row, so that matches can be computed without the server."""
import csv
import json
from dataclasses import dataclass

import astropy.units as u
from astropy.coordinates import SkyCoord

POINT_RADIUS_DEG = 1 / 3600


@dataclass
class CatalogObject:
    catalog: str
    object_id: str
    name: object  # str, or None when the catalog has no name column
    ra: float
    dec: float
    radius_deg: float
    row: dict


def _number(text):
    try:
        return float(text)
    except ValueError:
        return None


def read(fact):
    """The objects of one catalog of facts['catalogs'] (the importer's options say which columns mean what)."""
    columns, objects = fact['columns'], []
    if fact['format'] == 'csv':
        with open(fact['file'], newline='') as fh:
            for row in csv.DictReader(fh):
                ra, dec = _number(row[columns.get('raCol', 'ra')]), _number(row[columns.get('decCol', 'dec')])
                size = _number(row.get(columns.get('diameterCol', ''), '') or '')
                radius = size / 2 / 60 if size else POINT_RADIUS_DEG  # diameters in arcmin, halved
                name = row[columns['nameCol']] if 'nameCol' in columns else None
                objects.append(CatalogObject(fact['name'], row[columns['idCol']], name or None, ra, dec, radius, row))
    else:  # GeoJSON points, RA in -180..180
        with open(fact['file']) as fh:
            for feature in json.load(fh)['features']:
                lon, lat = feature['geometry']['coordinates']
                row = dict(feature['properties'], id=feature['id'])
                objects.append(CatalogObject(fact['name'], str(feature['id']), None, lon % 360, lat, POINT_RADIUS_DEG, row))
    return objects


class Catalogs:
    def __init__(self, facts):
        self.objects = [o for fact in facts['catalogs'] for o in read(fact)]
        self.by_key = {(o.catalog, o.object_id): o for o in self.objects}
        self.names = sorted({o.catalog for o in self.objects})
        self._coords = SkyCoord([o.ra for o in self.objects] * u.deg, [o.dec for o in self.objects] * u.deg)
        self._radii = [o.radius_deg for o in self.objects]

    def matching(self, ra, dec):
        """Every object whose match circle holds the position."""
        separations = SkyCoord(ra * u.deg, dec * u.deg).separation(self._coords).deg
        return [o for o, sep, radius in zip(self.objects, separations, self._radii) if sep <= radius]


def same_row(data, row):
    """A catalog row as served (JSON values) against the file's (CSV text, or JSON values)."""
    for key, text in row.items():
        value = data.get(key)
        if isinstance(text, str):
            if text.strip() == '':
                if value is not None:
                    return False
            elif _number(text) is not None:
                if value is None or abs(float(value) - _number(text)) > 1e-9 * max(1, abs(_number(text))):
                    return False
            elif str(value).strip() != text.strip():
                return False
        elif value != text and not (isinstance(text, float) and isinstance(value, (int, float)) and abs(value - text) < 1e-12):
            return False
    return True
