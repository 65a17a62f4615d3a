"""PROTOCOL.md, "Deferred properties": the worker asks for an alert's properties when a filter reads them."""
import base64
import json

from conftest import tiny_locus

READ_ALL = '''
import antares.devkit as dk
class ReadAll(dk.Filter):
    OUTPUT_LOCUS_PROPERTIES = [{'name': 'mags', 'type': 'str', 'description': ''}]
    def run(self, locus):
        locus.properties['mags'] = str([a.properties.get('ant_mag') for a in locus.alerts])
'''
READ_TRIGGER = '''
import antares.devkit as dk
class ReadTrigger(dk.Filter):
    OUTPUT_LOCUS_PROPERTIES = [{'name': 'mag', 'type': 'float', 'description': ''}]
    def run(self, locus):
        locus.properties['mag'] = locus.alert.properties['ant_mag']
'''


def _deferred_locus(i, n=3):
    """A locus of n alerts whose earlier ones come deferred (no properties), the triggering one in full."""
    alerts = [{'alert_id': f'ztf_candidate:{i}{k}', 'mjd': 59000.0 + k, 'deferred': True} for k in range(n - 1)]
    alerts.append({'alert_id': f'ztf_candidate:{i}{n - 1}', 'mjd': 59000.0 + n - 1, 'properties': {'ant_mag': 17.0}})
    return dict(tiny_locus(i), alerts=alerts)


def _packed(props):
    return base64.b64encode(json.dumps(props).encode()).decode()


def _send_raw(worker, msg):
    worker.proc.stdin.write((json.dumps(msg) + '\n').encode())
    worker.proc.stdin.flush()


def test_a_filter_that_reads_only_the_triggering_alert_asks_for_nothing(plain_worker):
    assert plain_worker.load('t', READ_TRIGGER)['ok']
    reports, done = plain_worker.run('t', [_deferred_locus(1), _deferred_locus(2)])
    assert [r['new_locus_properties'] for r in reports] == [{'mag': 17.0}, {'mag': 17.0}]
    assert done['history_reads'] == 0


def test_the_first_read_asks_for_every_deferred_alert_of_the_locus_once(plain_worker):
    assert plain_worker.load('a', READ_ALL)['ok']
    msg = plain_worker._send({'op': 'run', 'filter_id': 'a', 'batch': [_deferred_locus(1)], 'more': True})
    # The next chunk arrives before the answer: the worker keeps it and runs it after this locus.
    _send_raw(plain_worker, {'op': 'more', 'id': msg['id'], 'batch': [_deferred_locus(2, n=2)], 'more': False})
    fetch = plain_worker._line(10)
    assert (fetch['op'], fetch['id'], fetch['nonce'], fetch['i']) == ('fetch', msg['id'], msg['nonce'], 0)
    assert fetch['alert_ids'] == ['ztf_candidate:10', 'ztf_candidate:11']
    _send_raw(plain_worker, {'op': 'fetched', 'id': msg['id'], 'i': 0,
                             'packed': {'ztf_candidate:10': _packed({'ant_mag': 19.0}),
                                        'ztf_candidate:11': _packed({'ant_mag': 18.5})}})
    report = plain_worker._line(10)
    assert (report['op'], report['i'], report['new_locus_properties']) == ('report', 0, {'mags': '[19.0, 18.5, 17.0]'})
    fetch = plain_worker._line(10)
    assert (fetch['op'], fetch['i'], fetch['alert_ids']) == ('fetch', 1, ['ztf_candidate:20'])
    _send_raw(plain_worker, {'op': 'fetched', 'id': msg['id'], 'i': 1, 'packed': {'ztf_candidate:20': _packed({})}})
    report = plain_worker._line(10)
    assert (report['i'], report['new_locus_properties']) == (1, {'mags': '[None, 17.0]'})
    done = plain_worker._line(10)
    assert (done['op'], done['n'], done['history_reads']) == ('done', 2, 2)
    # Held by the worker, decoded: the locus sent again by reference asks for nothing.
    again = dict(tiny_locus(1), alerts=['ztf_candidate:10', 'ztf_candidate:11', 'ztf_candidate:12'])
    reports, done = plain_worker.run('a', [again])
    assert reports[0]['new_locus_properties'] == {'mags': '[19.0, 18.5, 17.0]'}
    assert done['history_reads'] == 0


def test_an_answer_that_says_the_properties_could_not_be_read_is_that_locus_error(plain_worker):
    assert plain_worker.load('a', READ_ALL)['ok']
    msg = plain_worker._send({'op': 'run', 'filter_id': 'a', 'batch': [_deferred_locus(1)]})
    assert plain_worker._line(10)['op'] == 'fetch'
    _send_raw(plain_worker, {'op': 'fetched', 'id': msg['id'], 'i': 0, 'error': 'the database is gone'})
    report = plain_worker._line(10)
    assert report['status'] == 'error' and 'the database is gone' in report['error']['message']
    assert plain_worker._line(10)['op'] == 'done'
    reports, _ = plain_worker.run('a', [tiny_locus(3)])  # the worker goes on
    assert reports[0]['status'] == 'ok'


def test_an_answer_that_lacks_what_was_asked_for_ends_the_worker(plain_worker):
    assert plain_worker.load('a', READ_ALL)['ok']
    msg = plain_worker._send({'op': 'run', 'filter_id': 'a', 'batch': [_deferred_locus(1)]})
    assert plain_worker._line(10)['op'] == 'fetch'
    _send_raw(plain_worker, {'op': 'fetched', 'id': msg['id'], 'i': 0, 'packed': {'ztf_candidate:10': _packed({})}})
    fatal = plain_worker._line(10)
    assert fatal['op'] == 'fatal' and 'lacks properties' in fatal['error']['message']
    assert plain_worker.proc.wait(10) == 70


def test_a_deferred_triggering_alert_is_asked_for_alone_and_its_reads_counted_apart(plain_worker):
    assert plain_worker.load('t', READ_TRIGGER)['ok']
    locus = _deferred_locus(1)
    locus['alerts'][-1] = {'alert_id': 'ztf_candidate:12', 'mjd': 59002.0, 'deferred': True}
    msg = plain_worker._send({'op': 'run', 'filter_id': 't', 'batch': [locus]})
    fetch = plain_worker._line(10)
    assert (fetch['op'], fetch['alert_ids']) == ('fetch', ['ztf_candidate:12'])
    _send_raw(plain_worker, {'op': 'fetched', 'id': msg['id'], 'i': 0, 'packed': {'ztf_candidate:12': _packed({'ant_mag': 16.5})}})
    report, done = plain_worker._line(10), plain_worker._line(10)
    assert report['new_locus_properties'] == {'mag': 16.5}
    assert (done['trigger_reads'], done['history_reads']) == (1, 0)


def test_a_locus_own_deferred_properties_are_asked_for_when_read(plain_worker):
    reads_locus = '''
import antares.devkit as dk
class ReadsLocus(dk.Filter):
    OUTPUT_LOCUS_PROPERTIES = [{'name': 'twice', 'type': 'int', 'description': ''}]
    def run(self, locus):
        if locus.locus_id == 'L1':
            locus.properties['twice'] = 2 * locus.properties['num_alerts']
'''
    assert plain_worker.load('l', reads_locus)['ok']
    loci = [dict(tiny_locus(i), deferred=True) for i in (1, 2)]
    for locus in loci:
        del locus['properties']
    msg = plain_worker._send({'op': 'run', 'filter_id': 'l', 'batch': loci})
    fetch = plain_worker._line(10)
    assert (fetch['op'], fetch['i'], fetch['locus'], fetch['alert_ids']) == ('fetch', 0, True, [])
    _send_raw(plain_worker, {'op': 'fetched', 'id': msg['id'], 'i': 0, 'locus_packed': _packed({'num_alerts': 7})})
    first, second, done = plain_worker._line(10), plain_worker._line(10), plain_worker._line(10)
    assert first['new_locus_properties'] == {'twice': 14}
    assert (second['status'], second['new_locus_properties']) == ('ok', {})  # L2: never read, never asked for
    assert (done['locus_reads'], done['trigger_reads'], done['history_reads']) == (1, 0, 0)
