"""The JSON-lines protocol (PROTOCOL.md) against a worker process, outside the sandbox."""
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
    ('import antares.devkit as dk\nclass A(dk.Filter): pass\nclass B(dk.Filter): pass\n', 'exactly one'),
    ('import antares.devkit as dk\nclass A(dk.Filter):\n  OUTPUT_TAGS=[{"name":"a"}]\n'
     '  OUTPUT_LOCUS_PROPERTIES=[{"name":"p","type":"list"}]\n', 'type must be one of'),
    ('import antares.devkit as dk\nclass A(dk.Filter):\n  REQUIRES_FILES=["f.txt"]\n', 'REQUIRES_FILES'),
    ('import sys\nsys.exit(4)\n', 'SystemExit'),
])
def test_load_errors_come_back_with_a_traceback(plain_worker, code, message):
    reply = plain_worker.load('bad', code)
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
