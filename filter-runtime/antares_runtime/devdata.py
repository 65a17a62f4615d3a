"""Sample loci for the devkit helpers, which in the real devkit read ANTARES's test database.

The sandbox has no database, so: ANTARES_DEVKIT_LOCI may name a JSON-lines (or JSON list) file of locus
dicts (PROTOCOL.md), e.g. exported by the server for a dry run; otherwise a deterministic synthetic
sample of ZTF-like loci is generated. An unknown locus id gets a synthetic locus with that id (said on
stderr) so that notebook code like `dk.get_locus("ANT2020ho42c")` runs offline.
ANTARES_DEVKIT_FILES may name a folder holding the files a filter's REQUIRES_FILES names.
"""
import json
import math
import os
import random
import sys
import zlib

_loci = None


def all_loci():
    global _loci
    if _loci is None:
        path = os.environ.get('ANTARES_DEVKIT_LOCI')
        if path:
            with open(path, encoding='utf-8') as fh:
                text = fh.read()
            _loci = json.loads(text) if text.lstrip().startswith('[') else \
                [json.loads(line) for line in text.splitlines() if line.strip()]
        else:
            _loci = [synthetic_locus(f'ANT2020synth{i:03d}', seed=i) for i in range(20)]
    return _loci


def get_locus_ids(n=1):
    loci = all_loci()
    return [raw['locus_id'] for raw in random.sample(loci, min(n, len(loci)))]


def get_locus(locus_id, include_gravitational_wave_data=False):
    for raw in all_loci():
        if raw.get('locus_id') == locus_id:
            return raw
    print(f'devkit: {locus_id} is not in the sample loci; using a synthetic locus with that id', file=sys.stderr)
    return synthetic_locus(locus_id, seed=zlib.crc32(locus_id.encode()), gw=include_gravitational_wave_data)


def search_catalogs(ra, dec):
    """Catalog rows of sample loci within 1 arcsec of (ra, dec); offline there is no catalog service."""
    for raw in all_loci():
        if raw.get('catalog_objects') and _sep_arcsec(ra, dec, raw['ra'], raw['dec']) <= 1.0:
            return raw['catalog_objects']
    return {}


def files_for(cls):
    folder = os.environ.get('ANTARES_DEVKIT_FILES')
    files = {}
    for name in getattr(cls, 'REQUIRES_FILES', None) or ():
        path = os.path.join(folder, name) if folder else None
        if path and os.path.isfile(path):
            with open(path, 'rb') as fh:
                files[name] = fh.read()
        else:
            print(f'devkit: REQUIRES_FILES {name!r} not found (set ANTARES_DEVKIT_FILES); using empty bytes',
                  file=sys.stderr)
            files[name] = b''
    return files


def _sep_arcsec(ra1, dec1, ra2, dec2):
    r = math.radians
    c = (math.sin(r(dec1)) * math.sin(r(dec2)) + math.cos(r(dec1)) * math.cos(r(dec2)) * math.cos(r(ra1 - ra2)))
    return math.degrees(math.acos(max(-1.0, min(1.0, c)))) * 3600.0


def synthetic_locus(locus_id, seed=0, gw=False):
    rng = random.Random(seed)
    ra, dec = rng.uniform(0, 360), rng.uniform(-30, 80)
    object_id = f'ZTF20aa{seed % 100000:05d}'
    mjd0 = 58800.0 + rng.uniform(0, 300)
    alerts = []
    for i in range(rng.randint(2, 8)):
        band = rng.choice(['g', 'R'])
        mag = rng.uniform(15.0, 20.0)
        sigma = rng.choice([0.01, 0.05, 0.1])
        candid = 1000000000000000000 + seed * 100 + i
        alerts.append({
            'alert_id': f'ztf_candidate:{candid}', 'locus_id': locus_id, 'mjd': mjd0 + 2.0 * i,
            'survey': 'ztf', 'grav_wave_events': [],
            'properties': {
                'ant_mjd': mjd0 + 2.0 * i, 'ant_survey': 1, 'ant_ra': ra, 'ant_dec': dec,
                'ant_passband': band, 'ant_mag': mag, 'ant_magerr': sigma, 'ant_maglim': 20.5,
                'ztf_object_id': object_id, 'ztf_candid': candid, 'ztf_fid': 1 if band == 'g' else 2,
                'ztf_magpsf': mag, 'ztf_sigmapsf': sigma, 'ztf_rb': 0.9,
            },
        })
    metadata = {}
    if gw:
        alerts[-1]['grav_wave_events'] = [{'gracedb_id': 'S190425z', 'contour_level': 40.0, 'contour_area': 2805.7}]
        metadata = {'S190425z': {'gracedb_id': 'S190425z', 'notice_type': 'UPDATE',
                                 'event_datetime': '2019-04-25T08:18:05.017553'}}
    mags = [a['properties']['ant_mag'] for a in alerts]
    return {
        'locus_id': locus_id, 'ra': ra, 'dec': dec, 'tags': [], 'watch_list_ids': [], 'watch_object_ids': [],
        'properties': {
            'num_alerts': len(alerts), 'num_mag_values': len(alerts), 'ztf_object_id': object_id,
            'brightest_alert_magnitude': min(mags), 'newest_alert_magnitude': mags[-1],
            'newest_alert_observation_time': alerts[-1]['mjd'], 'oldest_alert_observation_time': alerts[0]['mjd'],
        },
        'alerts': alerts, 'catalog_objects': {}, 'grav_wave_events_metadata': metadata,
    }
