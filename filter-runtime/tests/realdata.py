"""Locus dicts (PROTOCOL.md) built from the real ZTF and Rubin alert packets in ../shared/data.

Normalisation follows the wire format section 5 (ztf_ copies, ant_ fields); only what the tests need.
"""
import glob
import os

SHARED = os.environ.get('ANTARES_SHARED_DATA') or os.path.abspath(
    os.path.join(os.path.dirname(__file__), '..', '..', '..', 'shared', 'data'))
ZTF_DIRS = ['ztf-avro-alert/samples', 'fink-broker/ztf_v3.3_20200101', 'fink-client/ztf_v3.3']
RUBIN_DIRS = ['fink-broker/rubin_v9.0_fink_subset', 'fink-broker/rubin_v7.4_fink']
PASSBANDS = {1: 'g', 2: 'R', 3: 'i'}


def available():
    return os.path.isdir(SHARED)


def packets(dirs):
    import avro.datafile
    import avro.io
    for folder in dirs:
        for path in sorted(glob.glob(os.path.join(SHARED, folder, '*.avro'))):
            with open(path, 'rb') as fh:
                for record in avro.datafile.DataFileReader(fh, avro.io.DatumReader()):
                    record.pop('cutoutScience', None)
                    record.pop('cutoutTemplate', None)
                    record.pop('cutoutDifference', None)
                    yield record


def _ztf_alert(cand, object_id, locus_id):
    mjd = cand['jd'] - 2400000.5
    props = {'ztf_' + k: v for k, v in cand.items() if v is not None and not isinstance(v, (dict, list, bytes))}
    props.update(ztf_object_id=object_id, ant_mjd=mjd, ant_ra=cand.get('ra'), ant_dec=cand.get('dec'),
                 ant_passband=PASSBANDS.get(cand.get('fid')), ant_maglim=cand.get('diffmaglim'))
    if cand.get('candid'):
        props.update(ant_survey=1, ant_mag=cand.get('magpsf'), ant_magerr=cand.get('sigmapsf'))
        alert_id = f"ztf_candidate:{cand['candid']}"
    else:
        props.update(ant_survey=2)
        alert_id = f"ztf_upper_limit:{object_id}-{cand.get('pid')}"
    props = {k: v for k, v in props.items() if v is not None}
    return {'alert_id': alert_id, 'locus_id': locus_id, 'mjd': mjd, 'survey': 'ztf',
            'properties': props, 'grav_wave_events': []}


def ztf_loci():
    """One locus snapshot per detection in each packet's history, as the pipeline sees the locus grow:
    the snapshot's triggering alert is that detection (so every real measurement gets filtered)."""
    out = []
    for i, rec in enumerate(packets(ZTF_DIRS)):
        prv = [c for c in (rec.get('prv_candidates') or []) if c.get('jd') is not None]
        history = sorted(prv, key=lambda c: c['jd']) + [rec['candidate']]
        for k, cand in enumerate(history):
            if not cand.get('candid') or not cand.get('sigmapsf'):
                continue
            locus_id = f"ANTztf{i:03d}x{k:02d}"
            alerts = [_ztf_alert(c, rec['objectId'], locus_id) for c in history[:k + 1]]
            out.append({
                'locus_id': locus_id, 'ra': cand['ra'], 'dec': cand['dec'], 'tags': [],
                'properties': {'ztf_object_id': rec['objectId'], 'num_alerts': len(alerts),
                               'num_mag_values': sum('ant_mag' in a['properties'] for a in alerts)},
                'alerts': alerts, 'catalog_objects': {}, 'grav_wave_events_metadata': {},
                '_raw_candidate': {'fid': cand['fid'], 'sigmapsf': cand['sigmapsf']},
            })
    return out


def _lsst_alert(source, locus_id):
    props = {'lsst_diaSource_' + k: v for k, v in source.items()
             if v is not None and not isinstance(v, (dict, list, bytes))}
    mjd = source.get('midpointMjdTai')
    props.update(ant_mjd=mjd, ant_survey=4, ant_ra=source.get('ra'), ant_dec=source.get('dec'),
                 ant_passband=source.get('band'))
    return {'alert_id': f"lsst:{source['diaSourceId']}", 'locus_id': locus_id, 'mjd': mjd, 'survey': 'lsst',
            'properties': props, 'grav_wave_events': []}


FLAGS = ['psfFlux_flag', 'centroid_flag', 'shape_flag', 'isDipole', 'pixelFlags_saturated', 'pixelFlags_edge',
         'pixelFlags_cr', 'pixelFlags_streak']


def rubin_loci(doctored=3):
    """One locus per packet. No real source in the samples passes the LSST quality cuts, so the first
    `doctored` v9.0 packets are added again with snr >= 12 and every flag cleared (ids end in 'dr')
    to exercise the filter's tagging path on otherwise real alerts."""
    out = []
    records = list(packets(RUBIN_DIRS))
    extra = [(r, True) for r in records if 'isDipole' in r['diaSource']][:doctored]
    for i, (rec, doctor) in enumerate([(r, False) for r in records] + extra):
        source = dict(rec['diaSource'])
        if doctor:
            source.update({k: False for k in FLAGS}, snr=max(source['snr'], 12.0), ssObjectId=0)
        locus_id = f"ANTlsst{i:03d}" + ('dr' if doctor else '')
        prv = sorted(rec.get('prvDiaSources') or [], key=lambda s: s.get('midpointMjdTai') or 0)
        alerts = [_lsst_alert(s, locus_id) for s in prv] + [_lsst_alert(source, locus_id)]
        out.append({
            'locus_id': locus_id, 'ra': source['ra'], 'dec': source['dec'], 'tags': [],
            'properties': {'num_alerts': len(alerts), 'num_mag_values': len(alerts)},
            'alerts': alerts, 'catalog_objects': {}, 'grav_wave_events_metadata': {},
            '_raw_source': dict(source),
        })
    return out


def strip_private(loci):
    return [{k: v for k, v in locus.items() if not k.startswith('_')} for locus in loci]
