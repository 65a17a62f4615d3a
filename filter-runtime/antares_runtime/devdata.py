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
    locus_id = str(locus_id)
    print(f'devkit: {locus_id} is not in the sample loci; using a synthetic locus with that id', file=sys.stderr)
    return synthetic_locus(locus_id, seed=zlib.crc32(locus_id.encode()), gw=include_gravitational_wave_data)


def alert_number(alert_id):
    """The number a 2019 devkit user knew an alert by (its ids were integers): the ZTF candid or Rubin
    diaSourceId after the id's prefix, else the id itself."""
    tail = str(alert_id).rpartition(':')[2]
    return int(tail) if tail.isdigit() else alert_id


def get_alert_ids(n=1):
    """n random detection alert ids of the sample loci, as numbers where they have one."""
    ids = [alert_number(a['alert_id']) for raw in all_loci() for a in raw.get('alerts') or ()
           if isinstance(a, dict) and not str(a.get('alert_id', '')).startswith(('ztf_upper_limit:', 'lsst_forced:'))]
    return random.sample(ids, min(n, len(ids)))


def locus_of_alert(alert_id, include_gravitational_wave_data=False):
    """The sample locus as it was when `alert_id` (a full id or its number) arrived: its alerts up to
    that one, which triggers it. A locus id works too; an unknown id gets a synthetic locus."""
    wanted = str(alert_id)
    for raw in all_loci():
        alerts = [a for a in raw.get('alerts') or () if isinstance(a, dict)]
        for alert in alerts:
            aid = str(alert.get('alert_id'))
            if aid == wanted or aid.rpartition(':')[2] == wanted:
                mjd = alert.get('mjd')
                kept = [a for a in alerts if mjd is None or a.get('mjd') is None or a['mjd'] <= mjd]
                return dict(raw, alerts=kept, alert_id=alert.get('alert_id'))
    return get_locus(alert_id, include_gravitational_wave_data)


def mock_locus(ra, dec, alerts):
    """A sample locus at (ra, dec) made of the given alert property dicts (oldest first); returns the
    number of its last alert, which get_locus_data()/run_stage() then accept (2019's dk.mock_locus)."""
    loci = all_loci()
    base = 900000000 + 100 * len(loci)
    locus_id = f'ANTmock{len(loci):04d}'
    made = []
    for i, given in enumerate(alerts):
        mjd = float(given.get('ant_mjd', given.get('mjd', 58800.0 + i)))
        props = {'ant_mjd': mjd, 'ant_ra': ra, 'ant_dec': dec, 'ant_survey': 1}
        props.update(given)
        made.append({'alert_id': f'mock:{base + i}', 'locus_id': locus_id, 'mjd': mjd, 'survey': 'ztf',
                     'properties': props, 'grav_wave_events': []})
    loci.append({'locus_id': locus_id, 'ra': ra, 'dec': dec, 'tags': [], 'properties': {'num_alerts': len(made)},
                 'alerts': made, 'catalog_objects': {}, 'grav_wave_events_metadata': {}})
    return base + len(made) - 1


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
        metadata = {'S190425z': {'gracedb_id': 'S190425z', 'notice_type': 'UPDATE', 'id': 1, 'version_id': 1,
                                 'notice_datetime': '2019-04-25T09:00:00.000Z',
                                 'event_datetime': '2019-04-25T08:18:05.017Z', 'false_alarm_rate': 4.5e-13,
                                 'external_coinc': None, 'skymap_base64': None}}
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
