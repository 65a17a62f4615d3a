"""Memory a filter could take outside its rlimits (ADR 0058): every writable place in the sandbox is
bounded, memfds and SysV shared memory are refused, each worker holds a host uid of its own, and the
memory cgroup is joined where the host offers one (its folder logic on a fake cgroup tree otherwise)."""
import json
import os
import subprocess

import pytest

from antares_runtime import sandbox_host
from conftest import RUNTIME, TEST_LIMITS, Worker, require_prerequisites, tiny_locus

CAP_MB = 16
# Each place is asked for 4 times the cap: without the bounds the host's shared memory would rise by
# about 3 x 64 MB (the root, /dev and /dev/shm were unsized memory file systems); with them by the cap.
TRY_MB = 4 * CAP_MB
GRABBER = f'''
import ctypes, errno, json, os
import antares.devkit as dk

MB = 1 << 20

def shmem():
    with open('/proc/meminfo') as fh:  # not namespaced: the host's figure
        for line in fh:
            if line.startswith('Shmem:'):
                return int(line.split()[1]) * 1024

def fill(folder, total):
    """Files of 4 MB (under RLIMIT_FSIZE) until `total` is written or the file system refuses."""
    written = 0
    try:
        while written < total:
            name = f'grab{{len(folder)}}-{{written}}'  # /dev/shm is /tmp: names of their own
            fd = os.open(os.path.join(folder, name), os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            try:
                for _ in range(4):
                    written += os.write(fd, b'x' * MB)
            finally:
                os.close(fd)
        return 'wrote', written
    except OSError as e:
        return errno.errorcode[e.errno], written

def refused(call):
    try:
        result = call()
    except OSError as e:
        return errno.errorcode[e.errno]
    if result == -1:
        return errno.errorcode[ctypes.get_errno()]
    return 'made'


class Grabber(dk.Filter):
    OUTPUT_LOCUS_PROPERTIES = [{{'name': 'grabbed', 'type': 'str', 'description': ''}}]

    def run(self, locus):
        before = shmem()
        outcome = {{}}
        for folder in ('/', '/dev', '/dev/shm', '/tmp', '/opt/antares-runtime', '/usr'):
            outcome[folder] = fill(folder, {TRY_MB} * MB)
        libc = ctypes.CDLL(None, use_errno=True)
        outcome['memfd_create'] = refused(lambda: os.memfd_create('grab'))
        outcome['shmget'] = refused(lambda: libc.shmget(0, {TRY_MB} * MB, 0o1600))  # IPC_PRIVATE, IPC_CREAT
        outcome['mq_open'] = refused(lambda: libc.mq_open(b'/grab', 0o100 | 2, 0o600, None))  # O_CREAT | O_RDWR
        outcome['shmem_rise'] = shmem() - before  # while the files are still there
        locus.properties['grabbed'] = json.dumps(outcome)
'''


def test_a_filter_that_grabs_memory_gets_errors_and_the_host_at_most_the_cap(sandboxed_worker):
    worker = sandboxed_worker(tmp_mb=CAP_MB)
    assert worker.load('grab', GRABBER)['ok']
    reports, _ = worker.run('grab', [tiny_locus(0)])
    assert reports[0]['status'] == 'ok', reports[0]
    outcome = json.loads(reports[0]['new_locus_properties']['grabbed'])
    for folder in ('/', '/dev', '/opt/antares-runtime', '/usr'):
        assert outcome[folder] == ['EROFS', 0], folder
    # /dev/shm is /tmp: one budget, filled by the first, after which the second has no room at all.
    assert outcome['/dev/shm'][0] == 'ENOSPC' and outcome['/tmp'] == ['ENOSPC', 0]
    assert CAP_MB * (1 << 20) - (1 << 20) <= outcome['/dev/shm'][1] <= CAP_MB * (1 << 20)
    assert {k: outcome[k] for k in ('memfd_create', 'shmget', 'mq_open')} == {
        'memfd_create': 'ENOSYS', 'shmget': 'ENOSYS', 'mq_open': 'ENOSYS'}
    # The host's shared memory rose by the cap at most (and a margin of one more for the rest of the
    # machine meanwhile), not by the 4 x 64 MB asked for.
    assert outcome['shmem_rise'] <= 2 * CAP_MB * (1 << 20), outcome['shmem_rise']
    # The worker goes on, and its budget is its own: a fresh worker writes as much again.
    assert worker.run('grab', [tiny_locus(1)])[0][0]['status'] == 'ok'


def host_uid(pid):
    with open(f'/proc/{pid}/status') as fh:
        return next(int(line.split()[1]) for line in fh if line.startswith('Uid:'))


def test_workers_of_one_slot_still_get_uids_of_their_own():
    """Two pools (or two ANTARES instances) starting a worker in the same slot: the second takes the next
    free uid of the range, and a uid comes free again when its worker ends."""
    require_prerequisites()
    if os.geteuid() != 0:
        pytest.skip('only a launcher started as root drops to a uid of the range')
    extra = ['--uids=310000-310001']
    first = Worker(slot=0, extra=extra)
    second = Worker(slot=0, extra=extra)
    try:
        uids = [host_uid(w.proc.pid) for w in (first, second)]
        assert uids == [310000, 310001]
        # The range is used up: a third launcher says so, and starts nothing.
        third = subprocess.run(['/usr/bin/python3', os.path.join(RUNTIME, 'antares_runtime', 'sandbox.py'), '--check',
                                f'--limits={json.dumps(TEST_LIMITS)}', *extra], capture_output=True, text=True, timeout=60)
        assert third.returncode == 126 and third.stdout == ''
        assert 'every uid of the sandbox range 310000-310001 is taken' in third.stderr
        first.close()
        again = Worker(slot=0, extra=extra)
        try:
            assert host_uid(again.proc.pid) == 310000
        finally:
            again.close()
    finally:
        first.close()
        second.close()


def test_claim_uid_takes_each_uid_once(tmp_path):
    lock_dir = str(tmp_path / 'locks')
    a, fd_a = sandbox_host.claim_uid(5000, 5002, 1, lock_dir)
    b, fd_b = sandbox_host.claim_uid(5000, 5002, 1, lock_dir)
    c, fd_c = sandbox_host.claim_uid(5000, 5002, 1, lock_dir)
    assert (a, b, c) == (5001, 5002, 5000)  # from the slot on, wrapping round
    with pytest.raises(sandbox_host.HostError, match='5000-5002 is taken'):
        sandbox_host.claim_uid(5000, 5002, 0, lock_dir)
    os.close(fd_b)
    assert sandbox_host.claim_uid(5000, 5002, 0, lock_dir)[0] == 5002
    os.chmod(lock_dir, 0o777)  # a folder others may write to is not trusted with the locks
    with pytest.raises(sandbox_host.HostError, match='nobody else may write'):
        sandbox_host.claim_uid(5000, 5002, 0, lock_dir)
    for fd in (fd_a, fd_c):
        os.close(fd)


@pytest.mark.parametrize('text', ['200000', '5-4', '999-2000', 'a-b', '1000-4294967295'])
def test_uid_ranges_refused(text):
    with pytest.raises(ValueError):
        sandbox_host.parse_uid_range(text)


def fake_cgroup(folder, controllers='cpu memory pids', enabled=''):
    os.makedirs(folder, exist_ok=True)
    for name, text in (('cgroup.controllers', controllers), ('cgroup.subtree_control', enabled)):
        with open(os.path.join(folder, name), 'w') as fh:
            fh.write(text)


def read(path):
    with open(path) as fh:
        return fh.read()


def test_memory_cgroup_folder_logic_on_a_fake_tree(tmp_path):
    """The files the launcher writes (a real cgroup v2 tree needs a host that offers one: see below)."""
    root = str(tmp_path)
    fake_cgroup(root)
    fake_cgroup(os.path.join(root, 'antares-sandbox'))  # (the kernel fills a folder made in a cgroup tree)
    leaf = sandbox_host.join_memory_cgroup('auto', 'uid-200001', 3 << 30, root=root, pid=4242)
    assert leaf == os.path.join(root, 'antares-sandbox', 'uid-200001')
    assert read(os.path.join(root, 'cgroup.subtree_control')) == '+memory'
    assert read(os.path.join(root, 'antares-sandbox', 'cgroup.subtree_control')) == '+memory'
    assert (read(f'{leaf}/memory.max'), read(f'{leaf}/memory.swap.max'), read(f'{leaf}/memory.oom.group'),
            read(f'{leaf}/cgroup.procs')) == (str(3 << 30), '0', '1', '4242')
    assert sandbox_host.join_memory_cgroup('off', 'uid-1', 1, root=root) is None
    # auto without cgroup v2 (no cgroup.controllers, as under cgroup v1) or without its memory controller
    assert sandbox_host.join_memory_cgroup('auto', 'uid-1', 1, root=str(tmp_path / 'none')) is None
    fake_cgroup(str(tmp_path / 'nomem'), controllers='cpu pids')
    assert sandbox_host.join_memory_cgroup('auto', 'uid-1', 1, root=str(tmp_path / 'nomem')) is None
    # a configured folder must work, or the worker does not start
    with pytest.raises(sandbox_host.HostError, match='does not offer the memory controller'):
        sandbox_host.join_memory_cgroup(str(tmp_path / 'nomem'), 'uid-1', 1)
    with pytest.raises(sandbox_host.HostError, match='cannot be used'):
        sandbox_host.join_memory_cgroup(str(tmp_path / 'missing'), 'uid-1', 1)
    fake_cgroup(str(tmp_path / 'delegated'), enabled='memory')
    leaf = sandbox_host.join_memory_cgroup(str(tmp_path / 'delegated'), 'uid-7', 5, pid=1)
    assert read(f'{leaf}/memory.max') == '5'


def test_the_worker_runs_in_its_capped_cgroup_where_the_host_offers_one(sandboxed_worker):
    require_prerequisites()
    try:
        offered = 'memory' in read('/sys/fs/cgroup/cgroup.controllers').split()
    except OSError:
        offered = False
    if not offered or os.geteuid() != 0:
        pytest.skip('this host offers no cgroup v2 memory controller to root: workers go without (ADR 0058)')
    worker = sandboxed_worker(tmp_mb=CAP_MB, memory_mb=1024)
    path = read(f'/proc/{worker.proc.pid}/cgroup').strip().split('::', 1)[1]
    assert os.path.basename(os.path.dirname(path)) == 'antares-sandbox'
    assert read(f'/sys/fs/cgroup{path}/memory.max').strip() == str((1024 + CAP_MB) << 20)
