"""What the server should hold, computed from the alert packets themselves (Debian's python3-avro), never
from our API: the wire format's section 5 (ZTF) and ADRs 0009/0013 (Rubin) applied to the raw records."""
import glob
import gzip
import io
import math
import os
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Dict, List, Optional

ZTF_PASSBANDS = {1: 'g', 2: 'R', 3: 'i'}
JD_TO_MJD = 2400000.5
NJY_ZERO_POINT = 31.4


@dataclass
class ExpectedAlert:
    alert_id: str
    mjd: float
    survey: int  # ant_survey as clients read it: 1, 2 ZTF, 4 LSST
    passband: str
    mag: Optional[float] = None
    magerr: Optional[float] = None
    maglim: Optional[float] = None
    ra: Optional[float] = None
    dec: Optional[float] = None
    forced: bool = False
    trigger: bool = False  # the packet's own detection (history rows are not)
    raw: dict = field(default_factory=dict)


@dataclass
class ExpectedThumbnail:
    filename: str
    thumbnail_type: str
    fits: bytes  # the cutout as the packet carries it, ungzipped

    def shape(self):
        """(height, width) of the cutout image."""
        from astropy.io import fits
        with fits.open(io.BytesIO(self.fits)) as hdus:
            return tuple(next(h for h in hdus if h.data is not None).data.shape)


@dataclass
class Expected:
    # ZTF objectId / Rubin diaObjectId (decimal string) -> alert id -> alert
    ztf: Dict[str, Dict[str, ExpectedAlert]] = field(default_factory=lambda: defaultdict(dict))
    rubin: Dict[str, Dict[str, ExpectedAlert]] = field(default_factory=lambda: defaultdict(dict))
    # triggering alert id -> its cutouts
    thumbnails: Dict[str, List[ExpectedThumbnail]] = field(default_factory=dict)
    # which of the objects came from the demo survey
    demo_objects: set = field(default_factory=set)

    def alerts_of(self, ztf_ids=(), rubin_ids=()):
        alerts = {}
        for key in ztf_ids:
            alerts.update(self.ztf.get(str(key), {}))
        for key in rubin_ids:
            alerts.update(self.rubin.get(str(key), {}))
        return alerts


def records(folder):
    import avro.datafile
    import avro.io
    for path in sorted(glob.glob(os.path.join(folder, '**', '*.avro'), recursive=True)):
        with open(path, 'rb') as fh:
            yield from avro.datafile.DataFileReader(fh, avro.io.DatumReader())


def ztf_level1(c):
    """Wire format section 5: each check is skipped when its field is absent."""
    def v(name):
        value = c.get(name)
        return value if isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value) else None
    return not ((v('rb') is not None and v('rb') < 0.55) or (v('nbad') is not None and v('nbad') != 0)
                or (v('magdiff') is not None and not -1.0 <= v('magdiff') <= 1.0)
                or (v('fwhm') is not None and v('fwhm') > 5.0) or (v('elong') is not None and v('elong') > 1.2))


def rubin_level1(s):
    """ADR 0009: SNR >= 5, no known solar-system object, no dipole, none of the untrustworthy flags."""
    if s.get('snr') is not None and s['snr'] < 5:
        return False
    if s.get('ssObjectId') not in (None, 0):
        return False
    if s.get('isDipole') is True:
        return False
    flags = ['psfFlux_flag', 'centroid_flag', 'pixelFlags_bad', 'pixelFlags_offimage', 'pixelFlags_nodataCenter',
             'pixelFlags_saturatedCenter', 'pixelFlags_suspectCenter']
    return not any(s.get(f) is True for f in flags)


def _ztf_detection(c, object_id):
    return ExpectedAlert(alert_id=f"ztf_candidate:{c['candid']}", mjd=c['jd'] - JD_TO_MJD, survey=1,
                         passband=ZTF_PASSBANDS.get(c['fid'], str(c['fid'])), mag=c.get('magpsf'),
                         magerr=c.get('sigmapsf'), maglim=c.get('diffmaglim'), ra=c.get('ra'), dec=c.get('dec'), raw=c)


def _ztf_upper_limit(c, object_id):
    return ExpectedAlert(alert_id=f"ztf_upper_limit:{object_id}-{c['pid']}", mjd=c['jd'] - JD_TO_MJD, survey=2,
                         passband=ZTF_PASSBANDS.get(c['fid'], str(c['fid'])), maglim=c.get('diffmaglim'), raw=c)


def _flux_mag(flux):
    return NJY_ZERO_POINT - 2.5 * math.log10(flux)


def _rubin_detection(s):
    flux, err = s.get('psfFlux'), s.get('psfFluxErr')
    mag = _flux_mag(abs(flux)) if flux else None
    return ExpectedAlert(alert_id=f"lsst:{s['diaSourceId']}", mjd=s['midpointMjdTai'], survey=4, passband=str(s.get('band') or ''),
                         mag=mag, magerr=(2.5 / math.log(10) * err / abs(flux)) if flux and err is not None else None,
                         maglim=_flux_mag(5 * err) if err else None, ra=s.get('ra'), dec=s.get('dec'), raw=s)


def _rubin_forced(s):
    flux, err = s.get('psfFlux'), s.get('psfFluxErr')
    significant = flux is not None and err is not None and err > 0 and flux / err >= 5
    return ExpectedAlert(alert_id=f"lsst_forced:{s['diaForcedSourceId']}", mjd=s.get('midpointMjdTai'), survey=4,
                         passband=str(s.get('band') or ''), mag=_flux_mag(flux) if significant else None,
                         magerr=2.5 / math.log(10) * err / flux if significant else None, maglim=_flux_mag(5 * err) if err and err > 0 else None, forced=True, raw=s)


def _cutout_bytes(value):
    if isinstance(value, dict):  # ZTF: {fileName, stampData}
        value = value.get('stampData')
    return value or None


def _thumbnails(record, stems):
    out = []
    for key, kind in (('cutoutScience', 'science'), ('cutoutTemplate', 'template'), ('cutoutDifference', 'difference')):
        data = _cutout_bytes(record.get(key))
        if not data:
            continue
        if data[:2] == b'\x1f\x8b':
            data = gzip.decompress(data)
        if data[:6] != b'SIMPLE':
            continue  # the 2016 commissioning packets carry JPEGs: not thumbnails
        out.append(ExpectedThumbnail(filename=stems[kind], thumbnail_type=kind, fits=data))
    return out


def load(ztf_dirs, rubin_dirs, demo_dir):
    expected = Expected()
    for folder in list(ztf_dirs) + list(rubin_dirs) + [demo_dir]:
        for record in records(folder):
            if 'candidate' in record:
                _add_ztf(expected, record, folder == demo_dir)
            elif 'diaSource' in record:
                _add_rubin(expected, record, folder == demo_dir)
    return expected


def _add_ztf(expected, record, demo):
    c = record['candidate']
    # 2016 commissioning packets have no objectId: their numeric alertId stands for it.
    object_id = str(record['objectId'] if 'objectId' in record else record['alertId'])
    if not ztf_level1(c):
        return
    if demo:
        expected.demo_objects.add(object_id)
    alerts = expected.ztf[object_id]
    trigger = _ztf_detection(c, object_id)
    trigger.trigger = True
    alerts[trigger.alert_id] = trigger
    for row in record.get('prv_candidates') or []:
        if row.get('jd') is None:
            continue
        if row.get('candid') is None:
            limit = _ztf_upper_limit(row, object_id)
            alerts.setdefault(limit.alert_id, limit)
        elif ztf_level1(row):
            detection = _ztf_detection(row, object_id)
            alerts.setdefault(detection.alert_id, detection)
    stem = f"candid{c['candid']}"
    expected.thumbnails[trigger.alert_id] = _thumbnails(record, {
        'science': f"{stem}_pid{c['pid']}_targ_sci.fits.png", 'template': f'{stem}_ref.fits.png',
        'difference': f"{stem}_pid{c['pid']}_targ_diff.fits.png"})


def _add_rubin(expected, record, demo):
    source = record['diaSource']
    if not rubin_level1(source):
        return
    object_id = str(source.get('diaObjectId') or (record.get('diaObject') or {}).get('diaObjectId'))
    if demo:
        expected.demo_objects.add(object_id)
    alerts = expected.rubin[object_id]
    trigger = _rubin_detection(source)
    trigger.trigger = True
    alerts[trigger.alert_id] = trigger
    visits = {source.get('visit')}
    for prv in record.get('prvDiaSources') or []:
        if prv.get('diaSourceId') is None:
            continue
        visits.add(prv.get('visit'))
        if rubin_level1(prv):
            alerts.setdefault(f"lsst:{prv['diaSourceId']}", _rubin_detection(prv))
    for forced in record.get('prvDiaForcedSources') or []:
        if forced.get('diaForcedSourceId') is None or (forced.get('visit') is not None and forced.get('visit') in visits):
            continue
        alerts.setdefault(f"lsst_forced:{forced['diaForcedSourceId']}", _rubin_forced(forced))
    stem = f"diaSource{source['diaSourceId']}"
    expected.thumbnails[trigger.alert_id] = _thumbnails(record, {
        'science': f'{stem}_sci.fits.png', 'template': f'{stem}_ref.fits.png', 'difference': f'{stem}_diff.fits.png'})
