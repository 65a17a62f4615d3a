"""get_thumbnails: the three cutouts of a packet's own detection, under the real system's file names, as PNG
images of the packet's FITS cutouts (same size)."""
import struct


def png_size(blob):
    assert blob[:8] == b'\x89PNG\r\n\x1a\n'
    width, height = struct.unpack('>II', blob[16:24])
    return height, width


def test_thumbnails_of_real_ztf_and_rubin_alerts(search, expected):
    real = [alert_id for alert_id, cutouts in expected.thumbnails.items()
            if cutouts and not any(alert_id in expected.ztf.get(o, {}) or alert_id in expected.rubin.get(o, {})
                                   for o in expected.demo_objects)]
    ztf = [a for a in real if a.startswith('ztf_')][::3]
    rubin = [a for a in real if a.startswith('lsst:')][::10]
    assert len(ztf) >= 10 and len(rubin) >= 5
    for alert_id in ztf + rubin:
        thumbnails = search.get_thumbnails(alert_id)
        wanted = {t.thumbnail_type: t for t in expected.thumbnails[alert_id]}
        assert sorted(thumbnails) == sorted(wanted)
        for kind, thumbnail in thumbnails.items():
            assert thumbnail['alert_id'] == alert_id and thumbnail['type'] == kind
            assert thumbnail['file_name'] == wanted[kind].filename
            assert png_size(thumbnail['blob']) == wanted[kind].shape()


def test_an_alert_without_cutouts_has_no_thumbnails(search, expected):
    # History rows (earlier detections and upper limits) come without cutouts.
    history = next(a.alert_id for alerts in expected.ztf.values() for a in alerts.values() if not a.trigger)
    assert search.get_thumbnails(history) == {}
