"""The JSON-lines protocol (PROTOCOL.md) against a worker process, outside the sandbox."""
import base64
import json

import pytest

from conftest import tiny_locus

TAGGER = '''
import antares.devkit as dk

class Tagger(dk.Filter):
    OUTPUT_TAGS = [{'name': 't_seen', 'description': 'seen'}]
    OUTPUT_LOCUS_PROPERTIES = [{'name': 't_n', 'type': 'int', 'description': 'n'}]

    def setup(self):
        self.count = 0

    def run(self, locus):
        self.count += 1
        if locus.locus_id == 'L1':
            raise ValueError('bad locus')
        print('run', locus.locus_id)
        locus.properties['t_n'] = self.count
        locus.tag('t_seen')
'''


def test_load_reports_declared_outputs(plain_worker):
    reply = plain_worker.load('f1', TAGGER)
    assert reply['ok'] is True and reply['op'] == 'loaded'
    assert reply['outputs']['tags'] == ['t_seen']
    assert reply['outputs']['locus_properties'] == [{'name': 't_n', 'type': 'int'}]


def test_run_reports_each_locus_and_errors_do_not_stop_the_batch(plain_worker):
    plain_worker.load('f1', TAGGER)
    reports, done = plain_worker.run('f1', [tiny_locus(i) for i in range(3)])
    assert [r['status'] for r in reports] == ['ok', 'error', 'ok']
    assert reports[0]['new_tags'] == ['t_seen'] and reports[0]['stdout'] == 'run L0\n'
    assert reports[1]['error']['type'] == 'ValueError'
    assert 'bad locus' in reports[1]['error']['traceback'] and 'antares_filter_f1.py' in reports[1]['error']['traceback']
    assert reports[2]['new_locus_properties'] == {'t_n': 3}  # setup() ran once, state persists
    assert done['n'] == 3 and done['t_50_percentile'] > 0


@pytest.mark.parametrize('code, message', [
    ('x = (', 'SyntaxError'),
    ('import antares.devkit as dk\nX = dk.Filter\ndef helper(x, y): pass\n', 'defines no filter'),
    ('import antares.devkit as dk\nclass A(dk.Filter): pass\nclass B(dk.Filter): pass\nclass_name = "C"\n',
     'not defined'),
    ('import antares.devkit as dk\nclass A(dk.Filter):\n  OUTPUT_TAGS=[{"name":"a"}]\n'
     '  OUTPUT_LOCUS_PROPERTIES=[{"name":"p","type":"list"}]\n', 'type must be one of'),
    ('import antares.devkit as dk\nclass A(dk.Filter):\n  REQUIRES_FILES=["f.txt"]\n', 'REQUIRES_FILES'),
    ('import sys\nsys.exit(4)\n', 'SystemExit'),
])
def test_load_errors_come_back_with_a_traceback(plain_worker, code, message):
    reply = plain_worker.load('bad', code, class_name='C' if 'class_name' in code else None)
    assert reply['ok'] is False
    assert message in reply['error']['type'] + reply['error']['message'] + reply['error']['traceback']
    assert plain_worker.load('good', TAGGER)['ok'] is True  # the worker goes on


def test_class_name_selects_one_of_several_and_main_block_does_not_run(plain_worker):
    code = open('/work/shared/filters/examples/class_api_a_notebook_examples.py').read() \
        if __import__('os').path.exists('/work/shared/filters/examples') else None
    if code is None:
        pytest.skip('../shared/filters is not here')
    reply = plain_worker.load('hello', code, class_name='HelloWorld')
    assert reply['ok'] and reply['outputs']['tags'] == ['hello_world']
    assert 'DevKit is ready' in reply['stdout']  # dk.init() at module level, captured
    reports, _ = plain_worker.run('hello', [tiny_locus(5)])
    assert reports[0]['new_tags'] == ['hello_world'] and reports[0]['stdout'] == 'Hello Locus L5\n'


def test_timeouts_exits_and_output_are_per_locus(plain_worker):
    code = '''
import os, sys, time, antares.devkit as dk
class Rude(dk.Filter):
    def run(self, locus):
        kind = locus.properties['kind']
        if kind == 'loop':
            while True:
                try:
                    time.sleep(10)
                except Exception:
                    pass
        if kind == 'exit':
            sys.exit(2)
        if kind == 'print':
            for _ in range(200):
                print('x' * 100000)
            os.write(1, b'raw fd write\\n')
'''
    assert plain_worker.load('rude', code)['ok']
    loci = [tiny_locus(i, properties={'kind': k}) for i, k in enumerate(['loop', 'exit', 'print', 'none'])]
    reports, done = plain_worker.run('rude', loci)
    assert [r['status'] for r in reports] == ['timeout', 'error', 'ok', 'ok']
    assert reports[1]['error']['type'] == 'SystemExit'
    assert len(reports[2]['stdout']) < 70000 and 'characters truncated' in reports[2]['stdout']
    assert reports[3]['stdout'] == ''
    assert done['n'] == 4


def test_unknown_filter_and_garbage_lines(plain_worker):
    reports, done = plain_worker.run('nope', [tiny_locus()])
    assert reports == [] and done['error']['type'] == 'NotLoaded'
    plain_worker.proc.stdin.write(b'not json\n')
    plain_worker.proc.stdin.flush()
    assert plain_worker._line(10)['op'] == 'error'


def _send_raw(worker, line):
    worker.proc.stdin.write((line + '\n').encode())
    worker.proc.stdin.flush()


def test_a_batch_may_come_in_several_lines(plain_worker):
    # PROTOCOL.md: `"more": true` says a `{"op": "more", "id"}` line continues the batch; report
    # indexes run on across the lines and `done` counts them all.
    assert plain_worker.load('f1', TAGGER)['ok']
    msg = plain_worker._send({'op': 'run', 'filter_id': 'f1', 'batch': [tiny_locus(0)], 'more': True})
    _send_raw(plain_worker, json.dumps({'op': 'more', 'id': msg['id'], 'batch': [tiny_locus(2), tiny_locus(3)], 'more': True}))
    _send_raw(plain_worker, json.dumps({'op': 'more', 'id': msg['id'], 'batch': [tiny_locus(1)], 'more': False}))
    replies = [plain_worker._line(10) for _ in range(5)]
    assert all(r['id'] == msg['id'] and r['nonce'] == msg['nonce'] for r in replies)
    assert [(r['op'], r.get('i'), r.get('locus_id')) for r in replies] == [
        ('report', 0, 'L0'), ('report', 1, 'L2'), ('report', 2, 'L3'), ('report', 3, 'L1'), ('done', None, None)]
    assert [r['status'] for r in replies[:4]] == ['ok', 'ok', 'ok', 'error']
    assert replies[4]['n'] == 4
    # The worker reads on: the next request is answered as usual.
    reports, done = plain_worker.run('f1', [tiny_locus(4)])
    assert reports[0]['new_locus_properties'] == {'t_n': 5} and done['n'] == 1


def test_a_batch_for_an_unknown_filter_is_read_to_its_end(plain_worker):
    msg = plain_worker._send({'op': 'run', 'filter_id': 'nope', 'batch': [tiny_locus(0)], 'more': True})
    _send_raw(plain_worker, json.dumps({'op': 'more', 'id': msg['id'], 'batch': [tiny_locus(1)], 'more': False}))
    done = plain_worker._line(10)
    assert done['op'] == 'done' and done['error']['type'] == 'NotLoaded'
    assert plain_worker.load('f1', TAGGER)['ok']


def test_a_continuation_that_is_not_one_ends_the_worker(plain_worker):
    assert plain_worker.load('f1', TAGGER)['ok']
    msg = plain_worker._send({'op': 'run', 'filter_id': 'f1', 'batch': [tiny_locus(0)], 'more': True})
    plain_worker._send({'op': 'ping'})
    assert plain_worker._line(10)['op'] == 'report'
    fatal = plain_worker._line(10)
    assert fatal['op'] == 'fatal' and 'next chunk' in fatal['error']['message']
    assert plain_worker.proc.wait(10) == 70
    assert msg['id']


def _packed(alert):
    alert = dict(alert)
    alert['packed'] = base64.b64encode(json.dumps(alert.pop('properties')).encode()).decode()
    return alert


def test_packed_alert_properties_are_decoded_when_read(plain_worker):
    # PROTOCOL.md: an alert's properties may come packed (base64 of their JSON); the worker keeps them
    # packed until a filter reads them. Every way of reading them sees the same values.
    code = '''
import antares.devkit as dk
class Reader(dk.Filter):
    REQUIRED_ALERT_PROPERTIES = ['ant_passband']
    OUTPUT_LOCUS_PROPERTIES = [{'name': 'mags', 'type': 'str', 'description': ''},
                               {'name': 'decoded_before', 'type': 'int', 'description': ''}]
    OUTPUT_ALERT_PROPERTIES = [{'name': 'seen', 'type': 'int', 'description': ''}]
    def run(self, locus):
        raws = locus._raw['alerts']
        locus.properties['decoded_before'] = sum('properties' in a for a in raws)
        first = locus.alert.properties['ant_mag']
        locus.alert.properties['seen'] = 1
        mags = [a.properties['ant_mag'] for a in locus.alerts]
        assert locus.alert is locus.alerts[-1]
        assert [a['properties']['ant_mag'] for a in locus.to_dict()['alerts']] == mags
        locus.properties['mags'] = f'{first} {mags} {len(locus.lightcurve)}'
'''
    assert plain_worker.load('r', code)['ok']
    locus = tiny_locus(7)
    locus['alerts'] = [_packed(a) for a in locus['alerts']]
    reports, _ = plain_worker.run('r', [locus])
    assert reports[0]['status'] == 'ok', reports[0].get('error')
    # Only the triggering alert was decoded (REQUIRED_ALERT_PROPERTIES) before the filter read them.
    assert reports[0]['new_locus_properties'] == {'mags': '17.5 [18.0, 17.5] 2', 'decoded_before': 1}
    assert reports[0]['new_alert_properties'] == {'seen': 1}
    # Kept by the worker, then referred to by id: decoded once, the same values.
    again = dict(tiny_locus(7), alerts=[a['alert_id'] for a in locus['alerts']])
    reports, _ = plain_worker.run('r', [again])
    assert reports[0]['new_locus_properties'] == {'mags': '17.5 [18.0, 17.5] 2', 'decoded_before': 2}


def test_earlier_alerts_properties_are_read_only_and_made_once_per_alert(plain_worker):
    # An earlier alert's properties cannot be written, so the worker makes their copy once and later
    # runs reuse it; the triggering alert's copy is fresh each run, and writes to it are still recorded.
    code = '''
import copy, json, pickle, antares.devkit as dk
SEEN = {}
class Reader(dk.Filter):
    OUTPUT_LOCUS_PROPERTIES = [{'name': 'reused', 'type': 'int', 'description': ''},
                               {'name': 'refused', 'type': 'int', 'description': ''}]
    OUTPUT_ALERT_PROPERTIES = [{'name': 'seen', 'type': 'int', 'description': ''}]
    def run(self, locus):
        reused = refused = 0
        for a in locus.alerts:
            if a is locus.alert:
                continue
            reused += SEEN.get(a.alert_id) is a.properties
            SEEN[a.alert_id] = a.properties
            for write in (lambda: a.properties.__setitem__('x', 1), lambda: a.properties.update(x=1),
                          lambda: a.properties.pop('ant_mag')):
                try:
                    write()
                except TypeError:
                    refused += 1
        locus.alert.properties['seen'] = 1
        json.dumps(locus.to_dict())
        # Copies are plain dicts of the filter's own: making them writes nothing, editing them is allowed.
        mine = copy.deepcopy(locus.to_dict())
        mine['alerts'][0]['properties']['x'] = 1
        pickle.loads(pickle.dumps(locus.to_dict()))
        props = copy.deepcopy(locus.alerts[0].properties)
        props['x'] = 1
        assert type(props) is dict and type(copy.copy(locus.properties)) is dict
        locus.properties['reused'] = reused
        locus.properties['refused'] = refused
'''
    assert plain_worker.load('ro', code)['ok']
    first = tiny_locus(8)
    first['alerts'] = [_packed(a) for a in first['alerts']]
    reports, _ = plain_worker.run('ro', [first])
    assert reports[0]['status'] == 'ok', reports[0].get('error')
    assert reports[0]['new_locus_properties'] == {'reused': 0, 'refused': 3}
    # The same alerts again (by id): the earlier one's read-only copy is the one made before.
    again = dict(tiny_locus(8), alerts=[a['alert_id'] for a in first['alerts']])
    reports, _ = plain_worker.run('ro', [again])
    assert reports[0]['new_locus_properties'] == {'reused': 1, 'refused': 3}
    assert reports[0]['new_alert_properties'] == {'seen': 1}


def test_packed_locus_properties_are_decoded_when_read(plain_worker):
    # A locus' own properties may come packed too: REQUIRED_LOCUS_PROPERTIES, reads and writes see them.
    code = '''
import antares.devkit as dk
class Reader(dk.Filter):
    REQUIRED_LOCUS_PROPERTIES = ['num_alerts']
    OUTPUT_LOCUS_PROPERTIES = [{'name': 'twice', 'type': 'int', 'description': ''}]
    def run(self, locus):
        locus.properties['twice'] = 2 * locus.properties['num_alerts']
'''
    assert plain_worker.load('lp', code)['ok']
    packed = _packed(tiny_locus(9))
    missing = _packed(tiny_locus(10, properties={'other': 1}))
    reports, _ = plain_worker.run('lp', [packed, missing])
    assert [r['status'] for r in reports] == ['ok', 'skipped']
    assert reports[0]['new_locus_properties'] == {'twice': 4}
    assert reports[1]['skip_reason'] == 'missing required locus property num_alerts'


def test_a_request_line_over_the_cap_is_refused_before_it_is_decoded(monkeypatch):
    # The launcher sets the cap from the pool's --limits (max_line_bytes); started by hand, from the environment.
    from conftest import Worker
    monkeypatch.setenv('ANTARES_MAX_LINE_BYTES', '4096')
    worker = Worker(sandboxed=False)
    try:
        # A line within the cap is read as ever.
        assert worker.load('short', TAGGER)['ok'] is True
        # A well-formed load line of 8 KiB: decoded, it would load a filter; over the cap, it is refused.
        worker._send({'op': 'load', 'filter_id': 'long', 'code': TAGGER + '#' * 8000})
        reply = worker._line(60)
        assert reply['op'] == 'fatal'
        assert reply['error'] == {'type': 'ProtocolError', 'traceback': '', 'message': 'a request line over 4096 bytes'}
        assert worker.proc.wait(30) == 70
    finally:
        worker.close()
