"""What the sandbox launcher claims on the host before it drops root: a uid of its own and a memory cgroup.

Loaded by sandbox.py by path (it runs with -I, its folder is not on sys.path); the standard library only.

The uid: every worker on the machine gets one no other worker holds, whichever ANTARES instance (server,
ingest process, backtest) started it: RLIMIT_NPROC, pipe buffers and message queues are counted per uid,
so two workers on one uid could starve each other (a fork bomb in one stops the other starting
processes). The launcher takes an exclusive flock on /run/antares-sandbox/<uid>.lock for a uid in the
configured range (ANTARES_SANDBOX_UID_RANGE), beginning at the worker's slot and going on to the next
free one, and hands the locked descriptor to bubblewrap as --sync-fd: bwrap's outer process (outside the
sandbox, where the filter cannot reach it) holds it while the sandbox runs, and the lock goes with it.

The cgroup: a cgroup v2 memory.max over the worker's whole process tree, page cache and tmpfs pages of its
files included (the rlimits bound each process's address space, not their sum, nor files). Only where the
host offers it (ANTARES_FILTER_CGROUP): `auto` uses /sys/fs/cgroup/antares-sandbox when /sys/fs/cgroup is
cgroup v2 with the memory controller and we may write there, and otherwise goes without (the tmpfs sizes,
the refused memfd and SysV shared memory, and the rlimits still bound it); `off` never; a folder: that
delegated cgroup v2 folder, which must offer the memory controller (else the worker does not start).
"""
import errno
import fcntl
import os
import stat

LOCK_DIR = '/run/antares-sandbox'
CGROUP_ROOT = '/sys/fs/cgroup'
AUTO_CGROUP = 'antares-sandbox'


class HostError(Exception):
    """The host refuses what the configuration asks for: the launcher says so and the worker does not start."""


def parse_uid_range(text):
    """'FIRST-LAST' (inclusive) -> (first, last); ValueError unless 1000 <= first <= last < 2**32 - 1."""
    first, sep, last = text.partition('-')
    if not sep or not first.strip().isdigit() or not last.strip().isdigit():
        raise ValueError(f'expected FIRST-LAST, e.g. 200000-265535, not {text!r}')
    first, last = int(first), int(last)
    if not 1000 <= first <= last < 2**32 - 1:
        raise ValueError(f'the uid range {text} must lie within 1000-4294967294, first <= last')
    return first, last


def _lock_dir(path):
    """Our own folder for the locks: made if missing, and refused if someone else could write into it."""
    try:
        os.mkdir(path, 0o700)
    except FileExistsError:
        pass
    st = os.lstat(path)
    if not stat.S_ISDIR(st.st_mode) or st.st_uid != os.geteuid() or st.st_mode & 0o022:
        raise HostError(f'{path} must be a folder of uid {os.geteuid()} that nobody else may write to')


def claim_uid(first, last, hint, lock_dir=LOCK_DIR):
    """A uid in first..last that no other launcher holds, from first + hint on, and its locked descriptor
    (inheritable, to pass to bwrap as --sync-fd): the uid is ours as long as that descriptor is open."""
    _lock_dir(lock_dir)
    count = last - first + 1
    for step in range(count):
        uid = first + (hint + step) % count
        fd = os.open(os.path.join(lock_dir, f'{uid}.lock'), os.O_RDONLY | os.O_CREAT | os.O_NOFOLLOW, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            continue
        os.set_inheritable(fd, True)
        return uid, fd
    raise HostError(f'every uid of the sandbox range {first}-{last} is taken: widen ANTARES_SANDBOX_UID_RANGE')


def _read(path):
    with open(path) as fh:
        return fh.read()


def _write(path, text):
    with open(path, 'w') as fh:
        fh.write(text)


def _offer_memory(folder):
    """Let folder's children have memory.max (cgroup v2 gives a child only what its parent enables)."""
    if 'memory' not in _read(os.path.join(folder, 'cgroup.subtree_control')).split():
        _write(os.path.join(folder, 'cgroup.subtree_control'), '+memory')


def _parent_cgroup(setting, root):
    """The folder the worker cgroups go in, or None where `auto` finds no usable cgroup v2 memory controller."""
    if setting == 'auto':
        try:
            if 'memory' not in _read(os.path.join(root, 'cgroup.controllers')).split():
                return None
            _offer_memory(root)
            parent = os.path.join(root, AUTO_CGROUP)
            os.makedirs(parent, exist_ok=True)
            _offer_memory(parent)
            return parent
        except OSError:
            return None  # cgroup v1, a read-only /sys/fs/cgroup, no permission: the other bounds remain
    try:
        if 'memory' not in _read(os.path.join(setting, 'cgroup.controllers')).split():
            raise HostError(f'the cgroup {setting} does not offer the memory controller (enable +memory in '
                            "its parent's cgroup.subtree_control)")
        _offer_memory(setting)
    except OSError as e:
        raise HostError(f'the cgroup {setting} (ANTARES_FILTER_CGROUP) cannot be used: {e.strerror}')
    return setting


def join_memory_cgroup(setting, name, max_bytes, root=CGROUP_ROOT, pid=None):
    """Move this process (and so the worker it becomes) into its own cgroup, <parent>/<name>, capped at
    max_bytes with no swap, killed as a whole when over it. Returns the cgroup's folder, or None (`off`, or
    `auto` on a host without a usable cgroup v2 memory controller). Raises HostError when the configured
    folder cannot be used."""
    if setting == 'off':
        return None
    parent = _parent_cgroup(setting, root)
    if parent is None:
        return None
    leaf = os.path.join(parent, name)
    try:
        os.makedirs(leaf, exist_ok=True)  # uid-N: kept for the next worker of that uid (its lock orders them)
        _write(os.path.join(leaf, 'memory.max'), str(max_bytes))
        for name, value in (('memory.swap.max', '0'), ('memory.oom.group', '1')):
            try:
                _write(os.path.join(leaf, name), value)
            except OSError as e:
                if e.errno != errno.ENOENT:  # no swap accounting on this kernel: nothing to swap to cap
                    raise
        _write(os.path.join(leaf, 'cgroup.procs'), str(os.getpid() if pid is None else pid))
    except OSError as e:
        if setting == 'auto':
            return None
        raise HostError(f'the cgroup {leaf} cannot be used: {e.strerror}')
    return leaf
