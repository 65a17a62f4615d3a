"""PROTOCOL.md, "Deferred alert lists": a locus may come with its triggering alert alone, and the worker
asks for the rest when its filter reads the light curve."""
import json

from conftest import tiny_locus

COUNT = '''
import antares.devkit as dk
class Count(dk.Filter):
    OUTPUT_LOCUS_PROPERTIES = [{'name': 'mags', 'type': 'str', 'description': ''}]
    def run(self, locus):
        locus.properties['mags'] = str([a.properties.get('ant_mag') for a in locus.alerts])
'''
TRIGGER = '''
import antares.devkit as dk
class Trigger(dk.Filter):
    OUTPUT_LOCUS_PROPERTIES = [{'name': 'mag', 'type': 'float', 'description': ''}]
    def run(self, locus):
        locus.properties['mag'] = locus.alert.properties['ant_mag']
'''


def _send_raw(worker, msg):
    worker.proc.stdin.write((json.dumps(msg) + '\n').encode())
    worker.proc.stdin.flush()


def _trigger_only(i):
    """Locus `i` of tiny_locus sent with its triggering (last) alert alone."""
    locus = tiny_locus(i)
    return dict(locus, alerts=locus['alerts'][-1:], alerts_deferred=True)


def test_a_filter_that_reads_only_the_triggering_alert_is_never_sent_the_rest(plain_worker):
    assert plain_worker.load('t', TRIGGER)['ok']
    reports, done = plain_worker.run('t', [_trigger_only(1), _trigger_only(2)])
    assert [(r['status'], r['new_locus_properties']) for r in reports] == [('ok', {'mag': 17.5})] * 2
    assert done['list_reads'] == 0


def test_the_first_read_of_locus_alerts_asks_for_the_whole_list_and_the_worker_keeps_it(plain_worker):
    assert plain_worker.load('c', COUNT)['ok']
    msg = plain_worker._send({'op': 'run', 'filter_id': 'c', 'batch': [_trigger_only(1)]})
    fetch = plain_worker._line(10)
    assert (fetch['op'], fetch['i'], fetch['alerts'], fetch['alert_ids']) == ('fetch', 0, True, [])
    # The whole list as a batch would send it: the triggering alert (held now) by its id, the other in full.
    first = tiny_locus(1)['alerts'][0]
    _send_raw(plain_worker, {'op': 'fetched', 'id': msg['id'], 'i': 0,
                             'alerts': {'alerts': [first, 'ztf_candidate:12']}})
    report, done = plain_worker._line(10), plain_worker._line(10)
    assert (report['status'], report['new_locus_properties']) == ('ok', {'mags': '[18.0, 17.5]'})
    assert (done['op'], done['list_reads']) == ('done', 1)
    # The list the answer gave is the worker's for the locus: it may now be sent as `kept`.
    reports, _ = plain_worker.run('c', [dict(tiny_locus(1), kept=2, alerts=[])])
    assert reports[0]['new_locus_properties'] == {'mags': '[18.0, 17.5]'}


def test_a_list_sent_deferred_leaves_the_list_the_worker_keeps_as_it_was(plain_worker):
    assert plain_worker.load('t', TRIGGER)['ok']
    assert plain_worker.load('c', COUNT)['ok']
    reports, done = plain_worker.run('c', [tiny_locus(3)])  # both alerts kept for L3
    # A list sent whole and read is counted too: the pool goes on sending it whole to this filter.
    assert (reports[0]['status'], done['list_reads']) == ('ok', 1)
    assert plain_worker.run('t', [dict(_trigger_only(3), alerts=['ztf_candidate:32'])])[1]['list_reads'] == 0
    reports, _ = plain_worker.run('c', [dict(tiny_locus(3), kept=2, alerts=[])])
    assert reports[0]['new_locus_properties'] == {'mags': '[18.0, 17.5]'}


def test_an_answer_naming_alerts_the_worker_never_had_is_that_locus_error(plain_worker):
    assert plain_worker.load('c', COUNT)['ok']
    msg = plain_worker._send({'op': 'run', 'filter_id': 'c', 'batch': [_trigger_only(4), tiny_locus(5)]})
    assert plain_worker._line(10)['op'] == 'fetch'
    _send_raw(plain_worker, {'op': 'fetched', 'id': msg['id'], 'i': 0, 'alerts': {'alerts': ['ztf_candidate:99']}})
    report, second, done = plain_worker._line(10), plain_worker._line(10), plain_worker._line(10)
    assert (report['status'], report['error']['type']) == ('error', 'ProtocolMismatch')
    assert (second['status'], done['op']) == ('ok', 'done')  # the next locus runs as usual


def test_an_answer_that_says_the_list_could_not_be_read_is_that_locus_error(plain_worker):
    assert plain_worker.load('c', COUNT)['ok']
    msg = plain_worker._send({'op': 'run', 'filter_id': 'c', 'batch': [_trigger_only(6)]})
    assert plain_worker._line(10)['alerts'] is True
    _send_raw(plain_worker, {'op': 'fetched', 'id': msg['id'], 'i': 0, 'error': 'the database is gone'})
    report, done = plain_worker._line(10), plain_worker._line(10)
    assert report['status'] == 'error' and 'the database is gone' in report['error']['message']
    assert done['list_reads'] == 1
