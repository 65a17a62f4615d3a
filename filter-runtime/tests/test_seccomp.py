"""The sandbox's seccomp filter: each system call a filter never needs fails with EPERM inside, while
ordinary filter code (numpy, threads, child processes) still runs."""
import json
import subprocess

import pytest

from conftest import require_prerequisites, tiny_locus

# name -> the C arguments of a call that, without the filter, would either succeed or fail with
# something other than EPERM where it can (so that EPERM shows the filter's hand, not a missing
# capability). Strings become C strings; everything else is passed as a C long.
CLONE_NEWUSER, CLONE_NEWNET, CLONE_NEWNS, CLONE_NEWPID, SIGCHLD = 0x10000000, 0x40000000, 0x20000, 0x20000000, 17
PROBES = {
    'ptrace': [0, 0, 0, 0],                       # PTRACE_TRACEME
    'process_vm_readv': ['PID', 0, 0, 0, 0, 0],   # zero iovecs from itself: 0 without the filter
    'process_vm_writev': ['PID', 0, 0, 0, 0, 0],
    'kcmp': ['PID', 'PID', 0, 0, 0],              # KCMP_FILE of fd 0 with itself
    'pidfd_getfd': [-1, 0, 0],
    'unshare': [CLONE_NEWUSER],                   # a nested user namespace
    'unshare ': [CLONE_NEWNET],
    'unshare  ': [CLONE_NEWNS],
    'clone': [CLONE_NEWUSER | SIGCHLD, 0, 0, 0, 0],
    'clone ': [CLONE_NEWPID | SIGCHLD, 0, 0, 0, 0],
    'setns': [-1, 0],
    'mount': ['none', '/tmp', 'tmpfs', 0, 0],
    'umount2': ['/tmp', 0],
    'open_tree': [-100, '/', 0],                  # AT_FDCWD, no clone: an O_PATH fd without the filter
    'fsopen': ['tmpfs', 0],
    'move_mount': [-1, '', -1, '', 0],
    'pivot_root': ['/tmp', '/tmp'],
    'chroot': ['/tmp'],
    'keyctl': [0, -3, 0],                         # KEYCTL_GET_KEYRING_ID of the session keyring
    'add_key': ['user', 'antares', 'x', 1, -3],
    'request_key': ['user', 'antares', 0, -3],
    'bpf': [0, 0, 0],
    'perf_event_open': [0, 0, -1, -1, 0],
    'userfaultfd': [1],                           # UFFD_USER_MODE_ONLY
    'io_uring_setup': [1, 0],
    'kexec_load': [0, 0, 0, 0],
    'init_module': [0, 0, ''],
    'finit_module': [-1, '', 0],
    'delete_module': ['antares', 0],
    'reboot': [0, 0, 0, 0],
    'swapon': ['/tmp/swap', 0],
    'swapoff': ['/tmp/swap'],
    'open_by_handle_at': [-100, 0, 0],
    'syslog': [10, 0, 0],                         # SYSLOG_ACTION_SIZE_BUFFER
}
# Calls that succeed or fail otherwise without the filter, checked in a process of the host.
UNFILTERED = {'ptrace', 'process_vm_readv', 'kcmp', 'pidfd_getfd', 'unshare', 'setns', 'open_tree', 'keyctl',
              'perf_event_open', 'io_uring_setup'}

PROBE = '''
import ctypes, errno, os
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
def probe(number, args):
    c_args = [ctypes.c_long(os.getpid()) if a == 'PID' else ctypes.c_char_p(a.encode()) if isinstance(a, str)
              else ctypes.c_long(a) for a in args]
    ctypes.set_errno(0)
    result = libc.syscall(ctypes.c_long(number), *c_args)
    if result == 0 and number == CLONE:
        os._exit(0)  # a child made by an unfiltered clone
    return [result, errno.errorcode.get(ctypes.get_errno(), str(ctypes.get_errno()))]
'''


def numbers():
    import seccomp
    return {name: seccomp.resolve_syscall(seccomp.Arch.NATIVE, name.strip()) for name in PROBES} | {
        'clone3': seccomp.resolve_syscall(seccomp.Arch.NATIVE, 'clone3')}


def probe_code(nums):
    calls = {name: [nums[name], args] for name, args in PROBES.items()} | {'clone3': [nums['clone3'], [0, 0]]}
    return PROBE.replace('CLONE', str(nums['clone'])) + f'CALLS = {json.dumps(calls)}\n'


def filter_code(nums):
    body = probe_code(nums).replace('\n', '\n' + ' ' * 8)
    return f'''import antares.devkit as dk
class Probe(dk.Filter):
    OUTPUT_LOCUS_PROPERTIES = [{{'name': 'probes', 'type': 'str', 'description': ''}}]
    def run(self, locus):
        import json{body}
        locus.properties['probes'] = json.dumps({{name: probe(n, args) for name, (n, args) in CALLS.items()}})
'''


def test_each_refused_call_fails_with_eperm_inside_the_sandbox(sandboxed_worker):
    require_prerequisites()
    nums = numbers()
    worker = sandboxed_worker()
    assert worker.load('probe', filter_code(nums))['ok']
    reports, _ = worker.run('probe', [tiny_locus(0)])
    assert reports[0]['status'] == 'ok', reports[0]
    seen = json.loads(reports[0]['new_locus_properties']['probes'])
    assert {name: seen[name] for name in PROBES} == {name: [-1, 'EPERM'] for name in PROBES}
    # clone3 keeps its flags in memory, out of seccomp's sight: "not implemented", so libc uses clone.
    assert seen['clone3'] == [-1, 'ENOSYS']


def test_the_same_calls_are_not_refused_without_the_filter():
    """The control: in an ordinary process the probes do not all end in EPERM, so the sandbox's do because of it."""
    require_prerequisites()
    nums = numbers()
    code = probe_code(nums) + 'import json\nprint(json.dumps({n: probe(*CALLS[n]) for n in ' + repr(sorted(UNFILTERED)) + '}))'
    out = subprocess.run(['/usr/bin/python3', '-I', '-c', code], capture_output=True, text=True, timeout=60, check=True)
    seen = json.loads(out.stdout)
    assert [name for name, (_, err) in seen.items() if err == 'EPERM'] == [], seen


ORDINARY = '''import threading, os, antares.devkit as dk
import numpy as np
class Ordinary(dk.Filter):
    OUTPUT_LOCUS_PROPERTIES = [{'name': 'total', 'type': 'float', 'description': ''},
                               {'name': 'child', 'type': 'int', 'description': ''}]
    def run(self, locus):
        parts = [0.0] * 4
        def work(i):
            parts[i] = float(np.linalg.norm(np.arange(1000.0) * (i + 1)))
        threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        locus.properties['total'] = sum(parts)
        pid = os.fork()
        if pid == 0:
            os._exit(7)
        locus.properties['child'] = os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])
'''


def test_ordinary_filters_still_work(sandboxed_worker):
    import numpy as np
    worker = sandboxed_worker()
    assert worker.load('ordinary', ORDINARY)['ok']
    reports, _ = worker.run('ordinary', [tiny_locus(0), tiny_locus(1)])
    expected = sum(float(np.linalg.norm(np.arange(1000.0) * (i + 1))) for i in range(4))
    for report in reports:
        assert report['status'] == 'ok', report
        assert report['new_locus_properties']['total'] == pytest.approx(expected)
        assert report['new_locus_properties']['child'] == 7
