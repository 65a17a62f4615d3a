"""Hostile filters in the bubblewrap sandbox: each is contained and reported, and work goes on."""
import os

import pytest

from conftest import ProtocolViolation, WorkerDied, tiny_locus

HEADER = 'import os, sys, time, antares.devkit as dk\n'
BENIGN = HEADER + '''
class Fine(dk.Filter):
    OUTPUT_TAGS = [{'name': 'fine', 'description': ''}]
    def run(self, locus):
        locus.tag('fine')
'''


def hostile(body, outputs="OUTPUT_TAGS = [{'name': 'h_ok', 'description': ''}]"):
    lines = '\n'.join('        ' + line for line in body.strip('\n').splitlines())
    return HEADER + f'''
class Hostile(dk.Filter):
    {outputs}
    OUTPUT_LOCUS_PROPERTIES = [{{'name': 'h_found', 'type': 'str', 'description': ''}}]
    def run(self, locus):
        if locus.locus_id != 'L0':
            locus.tag('h_ok')
            return
{lines}
'''


def run_hostile(make, body, n=3, **kwargs):
    """Run `body` on locus L0 of a batch, then check the same worker and a fresh one still work."""
    worker = make(**kwargs)
    assert worker.load('h', hostile(body))['ok']
    reports, done = worker.run('h', [tiny_locus(i) for i in range(n)])
    assert [r['status'] for r in reports[1:]] == ['ok'] * (n - 1)
    assert all(r['new_tags'] == ['h_ok'] for r in reports[1:])
    other = make()
    assert other.load('fine', BENIGN)['ok']
    assert other.run('fine', [tiny_locus(9)])[0][0]['new_tags'] == ['fine']
    return reports[0], done


def test_the_sandbox_has_no_server_data(sandboxed_worker):
    report, _ = run_hostile(sandboxed_worker, '''
paths = ['/etc/shadow', '/etc/passwd', '/work', '/work/main/var/db', '/root', '/home', '/var/lib/postgresql',
         '/run', '/var', '/proc/1/root/etc/shadow', '/opt/antares-runtime/../../work']
found = [p for p in paths if os.path.exists(p)]
for target in ('/usr/evil', '/opt/antares-runtime/evil.py', '/etc/evil'):
    try:
        open(target, 'w').write('x')
        found.append('wrote ' + target)
    except OSError:
        pass
locus.properties['h_found'] = ','.join(found)
open('/etc/shadow').read()
''')
    assert report['status'] == 'error' and report['error']['type'] == 'FileNotFoundError'
    assert report['new_locus_properties'] == {}  # an error discards the locus' outputs
    assert os.path.exists('/etc/shadow')  # (the host does have one)


def test_found_nothing_property(sandboxed_worker):
    report, _ = run_hostile(sandboxed_worker, '''
paths = ['/etc/shadow', '/work', '/work/main/var/db', '/root', '/var/lib/postgresql', '/home']
locus.properties['h_found'] = ','.join(p for p in paths if os.path.exists(p))
''')
    assert report['status'] == 'ok' and report['new_locus_properties'] == {'h_found': ''}


def test_no_network(sandboxed_worker):
    report, _ = run_hostile(sandboxed_worker, '''
import socket
reached = []
for host, port in (('1.1.1.1', 53), ('127.0.0.1', 8080), ('127.0.0.1', 5432), ('::1', 8080)):
    try:
        socket.create_connection((host, port), timeout=1).close()
        reached.append(f'{host}:{port}')
    except OSError:
        pass
try:
    socket.getaddrinfo('example.com', 80)
    reached.append('dns')
except OSError:
    pass
locus.properties['h_found'] = ','.join(reached)
''')
    assert report['status'] == 'ok' and report['new_locus_properties'] == {'h_found': ''}


def test_fork_bomb(sandboxed_worker):
    report, _ = run_hostile(sandboxed_worker, '''
while True:
    os.fork()
''')
    # The process limit stops the bomb: the filter's own fork raises BlockingIOError, unless (on a busy machine)
    # its copies keep it from the CPU until the locus' time runs out. Either way the copies are killed and the
    # worker goes on (run_hostile checks the next loci and a fresh worker).
    outcome = (report['status'], report['error']['type'])
    assert outcome in (('error', 'BlockingIOError'), ('timeout', 'Timeout'))
    assert report['killed_processes'] > 0


def test_infinite_loop(sandboxed_worker):
    report, _ = run_hostile(sandboxed_worker, '''
while True:
    try:
        pass
    except BaseException:
        pass
''', locus_timeout_s=1.0)
    assert report['status'] == 'timeout'


def test_allocate_10_gb(sandboxed_worker):
    report, _ = run_hostile(sandboxed_worker, '''
import numpy as np
try:
    np.ones(10 * 2**30 // 8)
except MemoryError:
    print('numpy refused')
hog = [bytearray(2**28) for _ in range(40)]
''', locus_timeout_s=30.0)
    assert report['status'] == 'error' and report['error']['type'] == 'MemoryError'
    assert report['stdout'] == 'numpy refused\n'


def test_print_1_gb(sandboxed_worker):
    report, _ = run_hostile(sandboxed_worker, '''
chunk = 'x' * 2**20
for _ in range(1024):
    print(chunk)
    sys.stderr.write(chunk)
''', locus_timeout_s=20.0)
    assert report['status'] == 'ok'
    assert len(report['stdout']) < 70000 and 'characters truncated' in report['stdout']
    assert len(report['stderr']) < 70000


def test_write_1_gb_to_fd_1(sandboxed_worker):
    report, _ = run_hostile(sandboxed_worker, '''
chunk = b'y' * 2**20
for _ in range(1024):
    os.write(1, chunk)
''', locus_timeout_s=20.0)
    assert report['status'] == 'error' and 'File too large' in report['error']['message']
    assert len(report['stdout']) < 70000


@pytest.mark.parametrize('body, codes', [
    ('os._exit(3)', (3,)),
    ('import ctypes\nctypes.string_at(0)', (-11, 139, 11)),
])
def test_process_death_is_reported(sandboxed_worker, body, codes):
    worker = sandboxed_worker()
    assert worker.load('h', hostile(body))['ok']
    with pytest.raises(WorkerDied) as died:
        worker.run('h', [tiny_locus(1), tiny_locus(0), tiny_locus(2)])
    assert died.value.code in codes
    assert [r['locus_id'] for r in died.value.reports] == ['L1']  # the crash is attributable to L0
    fresh = sandboxed_worker()
    assert fresh.load('fine', BENIGN)['ok'] and fresh.run('fine', [tiny_locus(3)])[0][0]['status'] == 'ok'


def test_sys_modules_tampering(sandboxed_worker):
    report, _ = run_hostile(sandboxed_worker, '''
import json
json.dumps = json.loads = None
json.JSONEncoder.encode = json.JSONEncoder.iterencode = lambda *a, **k: '{"forged": true}'
json.JSONDecoder.decode = lambda *a, **k: {'op': 'exit'}
for name in list(sys.modules):
    sys.modules[name] = None
locus.tag('h_ok')
''')
    assert report['status'] == 'ok' and report['new_tags'] == ['h_ok']


def test_forging_through_the_runtime_modules(sandboxed_worker):
    report, _ = run_hostile(sandboxed_worker, '''
import antares_runtime.core as core, antares_runtime.worker as worker
core.Changes.add_tag = lambda self, name: self.tags.add(name)  # skip the declaration check
worker.recheck = lambda report, allowed: None
worker.run_one = lambda *a, **k: ({'status': 'ok', 'new_tags': ['forged']}, None)
locus.tag('forged_undeclared')
''')
    assert report['status'] == 'error' and report['new_tags'] == []
    assert 'undeclared' in report['error']['message']


def test_forging_on_the_protocol_fd_is_detected(sandboxed_worker):
    worker = sandboxed_worker()
    assert worker.load('h', hostile('''
import json
line = json.dumps({'id': 2, 'nonce': 'guess', 'op': 'report', 'i': 0, 'status': 'ok', 'locus_id': 'L0',
                   'new_tags': ['forged'], 'new_locus_properties': {}, 'new_alert_properties': {}})
for fd in map(int, os.listdir('/proc/self/fd')):
    if fd > 2:
        try:
            os.write(fd, (line + '\\n').encode())
        except OSError:
            pass
'''))['ok']
    with pytest.raises(ProtocolViolation):
        worker.run('h', [tiny_locus(0)])
