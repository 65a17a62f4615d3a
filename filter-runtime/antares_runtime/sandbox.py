"""Launch one filter worker inside bubblewrap, with rlimits: `/usr/bin/python3 sandbox.py [options]`.

Run by path (not -m) so it needs nothing on sys.path. It sets the rlimits, drops root to an
unprivileged uid of its own, then execs bwrap, whose process tree (the worker) inherits them. Why each piece:
- --unshare-all: no network (empty net namespace), own pid namespace (the worker can kill what a
  filter leaves behind, and can see nothing else), own ipc/uts/user namespaces.
- a new root holding only read-only /usr (Debian's python3, numpy, ...), the /etc files the dynamic
  linker needs, this runtime at /opt/antares-runtime and, when --python names a virtual environment's
  interpreter (ANTARES_FILTER_PYTHON), that environment's folder at its own path (interpreter_folders):
  no /work, /root, /var, /home, /etc/shadow.
- every place a filter can write is bounded (ADR 0058): the root and /dev are read-only (each a
  memory file system otherwise, sized at half the machine's RAM), /tmp is a tmpfs of tmp_mb, and
  /dev/shm is a link to it (shm_open, multiprocessing's semaphores), so that the two share one budget;
  /dev holds the minimal device nodes (as bwrap --dev makes them, without pseudo-terminals).
  --proc, --die-with-parent (never outlive the pool), --new-session (no terminal injection), --cap-drop ALL.
- memory outside those: memfd_create, memfd_secret, SysV shmget and mq_open fail with ENOSYS (seccomp:
  their pages count against no rlimit); a cgroup v2 memory.max of memory_mb + tmp_mb over the worker's
  whole tree where the host offers one (--cgroup, sandbox_host.py); oom_score_adj 1000, so that when the
  machine runs out of memory anyway, the kernel kills a filter worker before the server or the database.
- --seccomp: system calls a filter never needs (ptrace, mount, new namespaces, keyctl, bpf, ...) fail
  with EPERM (syscall_filter.py); --disable-userns: no user namespace can be made inside.
- rlimits: AS (memory), CPU (seconds over the worker's life; the pool recycles workers before it),
  NPROC (fork bombs), FSIZE (output files), NOFILE (descriptors, so pipe and socket buffers), CORE 0.
- Root drops to a uid of its own before exec, claimed from --uids (ANTARES_SANDBOX_UID_RANGE) from the
  slot on and held with a lock while the sandbox runs (sandbox_host.py): the kernel ignores RLIMIT_NPROC
  for root, and NPROC is counted per uid across the user namespaces that uid creates, so each worker on
  the machine, whichever instance started it, needs its own uid.
If user namespaces are unavailable and we are root, bwrap runs as root without --unshare-user
(documented fallback: NPROC is then not enforced by the kernel; the pid-namespace kill still applies).
"""
import argparse
import json
import os
import resource
import subprocess
import sys

RUNTIME = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
INSIDE = '/opt/antares-runtime'
# A filter's data files (REQUIRES_FILES), read-only, as its working directory: published filters
# np.load('name.npy') beside themselves. The pool makes one folder per loaded filter (one per worker).
FILES_INSIDE = '/filter-files'
# The worker's descriptors: enough for a filter's files and libraries; each may hold a pipe's or a
# socket's buffer of kernel memory, which no other limit counts.
NOFILE = 256
# /dev is a tmpfs only for the mount points of its device nodes and links, read-only once made.
DEV_BYTES = 1 << 20
DEV_NODES = ('null', 'zero', 'full', 'random', 'urandom', 'tty')
DEV_LINKS = (('/proc/self/fd', '/dev/fd'), ('/proc/self/fd/0', '/dev/stdin'), ('/proc/self/fd/1', '/dev/stdout'),
             ('/proc/self/fd/2', '/dev/stderr'), ('/tmp', '/dev/shm'))
WORKER = f"import sys; sys.path.insert(0, '{INSIDE}'); from antares_runtime.worker import main; main()"
CHECK = 'import os, sys; print(os.getuid(), sorted(os.listdir("/")), flush=True)'
PROBE = f"import sys; sys.path.insert(0, '{INSIDE}'); from antares_runtime.environment import main; main(['--probe'])"
# /etc/matplotlibrc: Debian keeps matplotlib's defaults there; without it `import matplotlib` fails.
# /etc/fonts: fontconfig's configuration (read by libraries some filter packages load), else it complains.
ETC = ['/etc/alternatives', '/etc/ld.so.cache', '/etc/ld.so.conf', '/etc/ld.so.conf.d', '/etc/localtime',
       '/etc/mime.types', '/etc/matplotlibrc', '/etc/fonts']


# The limits, all required: they come from one place, the server's validated configuration
# (apps/pipeline/src/filters/sandbox-limits.ts), which the pool passes as --limits.
LIMITS = {'memory_mb': int, 'cpu_s': int, 'nproc': int, 'fsize_mb': int, 'tmp_mb': int,
          'locus_timeout_s': float, 'load_timeout_s': float, 'output_limit': int, 'max_line_bytes': int}


def limits_of(text):
    try:
        given = json.loads(text)
    except ValueError as e:
        raise argparse.ArgumentTypeError(f'not JSON: {e}')
    if not isinstance(given, dict) or set(given) != set(LIMITS):
        raise argparse.ArgumentTypeError(f'expected exactly the keys {", ".join(LIMITS)}')
    values = {}
    for key, kind in LIMITS.items():
        value = given[key]
        if isinstance(value, bool) or not isinstance(value, (int, float)) or value <= 0 or kind(value) != value:
            raise argparse.ArgumentTypeError(f'{key} must be a positive {kind.__name__}')
        values[key] = kind(value)
    return argparse.Namespace(**values)


def parse(argv):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument('--limits', type=limits_of, required=True,
                   help='JSON object: ' + ', '.join(LIMITS) + " (the pool's configuration; no defaults here)")
    p.add_argument('--slot', type=int, default=0, help='worker slot: where the search for a free uid begins')
    p.add_argument('--uids', default='200000-265535',
                   help='FIRST-LAST: the uids workers may run as (ANTARES_SANDBOX_UID_RANGE), each held by one worker')
    p.add_argument('--cgroup', default='auto',
                   help='auto, off, or a cgroup v2 folder: where each worker gets its memory.max (ANTARES_FILTER_CGROUP)')
    p.add_argument('--bwrap', default='/usr/bin/bwrap')
    p.add_argument('--python', default='/usr/bin/python3', help='the interpreter the worker runs (ANTARES_FILTER_PYTHON)')
    p.add_argument('--files', help="folder of the filter's data files: bound read-only as the working directory")
    p.add_argument('--no-userns', action='store_true', help='root only: run bwrap without a user namespace')
    p.add_argument('--check', action='store_true', help='start a sandbox, print what it sees, exit')
    p.add_argument('--probe', action='store_true',
                   help="start a sandbox, print the filter environment as JSON (environment.py's probe), exit")
    return p.parse_args(argv)


def interpreter_folders(python):
    """The folders besides /usr that the interpreter needs, bound read-only at their own paths.
    A virtual environment's root: the folder holding pyvenv.cfg, beside the executable or one above it
    (where Python itself looks, without resolving the executable's symlinks), so that a filter sees its
    lib/pythonX.Y/site-packages. And an interpreter installed outside /usr (a venv based on one, or one
    built into /opt): the prefix of the executable the path resolves to. Nothing else of the host is
    added. Raises ValueError for a missing interpreter, or one whose prefix would be the whole root."""
    path = os.path.abspath(python)
    real = os.path.realpath(path)
    if not os.path.isfile(real) or not os.access(real, os.X_OK):
        raise ValueError(f'the filter interpreter {python} does not exist or is not executable')
    folders = []
    for folder in (os.path.dirname(path), os.path.dirname(os.path.dirname(path))):
        if os.path.isfile(os.path.join(folder, 'pyvenv.cfg')):
            folders.append(folder)
            break

    def inside(p, folder):
        return os.path.commonpath([p, folder]) == folder
    if not inside(real, '/usr') and not any(inside(real, os.path.realpath(f)) for f in folders):
        folders.append(os.path.dirname(os.path.dirname(real)))
    if '/' in folders:
        raise ValueError(f'the filter interpreter {python} lies directly under /: bind its own folder instead')
    return folders


def unreadable(folders):
    """The first folder on the way to these that this (dropped) uid cannot pass or read: bwrap resolves a
    bind's source path as that uid, so a venv under a private folder (mode 700, e.g. /root) cannot be bound."""
    for folder in folders:
        real = os.path.realpath(folder)
        parts = real.strip('/').split('/')
        for n in range(1, len(parts) + 1):
            path = '/' + '/'.join(parts[:n])
            if not os.access(path, os.R_OK | os.X_OK if path == real else os.X_OK):
                return path
    return None


def bwrap_argv(opts, runtime_fd, userns, seccomp_fd, python_folders=(), files_fd=None, lock_fd=None):
    argv = [opts.bwrap, '--unshare-all', '--die-with-parent', '--new-session', '--cap-drop', 'ALL',
            '--seccomp', str(seccomp_fd), '--ro-bind', '/usr', '/usr']
    for top in ('bin', 'sbin', 'lib', 'lib32', 'lib64', 'libx32'):
        path = '/' + top
        if os.path.islink(path):
            argv += ['--symlink', os.readlink(path), path]  # merged /usr: /lib -> usr/lib
        elif os.path.isdir(path):
            argv += ['--ro-bind', path, path]
    for path in ETC:
        argv += ['--ro-bind-try', path, path]
    argv += ['--ro-bind-fd', str(runtime_fd), INSIDE,
             '--size', str(opts.limits.tmp_mb << 20), '--tmpfs', '/tmp', '--proc', '/proc',
             '--size', str(DEV_BYTES), '--tmpfs', '/dev']
    for node in DEV_NODES:
        argv += ['--dev-bind', f'/dev/{node}', f'/dev/{node}']
    for target, link in DEV_LINKS:
        argv += ['--symlink', target, link]
    argv += ['--remount-ro', '/dev', '--chdir', '/tmp', '--clearenv']
    for folder in python_folders:  # after --tmpfs /tmp: a venv under /tmp is bound onto it
        argv += ['--ro-bind', os.path.realpath(folder), folder]
    if files_fd is not None:
        argv += ['--ro-bind-fd', str(files_fd), FILES_INSIDE, '--chdir', FILES_INSIDE]
    # Last of the mounts: bwrap made every mount point in the root, which then takes no more writes.
    argv += ['--remount-ro', '/']
    if lock_fd is not None:
        argv += ['--sync-fd', str(lock_fd)]  # held by bwrap outside the sandbox: the uid stays ours
    if userns:
        # --disable-userns: no user namespace inside this one, whatever the seccomp filter lets through.
        argv += ['--unshare-user', '--disable-userns', '--uid', '65534', '--gid', '65534']
    env = {'HOME': '/tmp', 'USER': 'filter', 'LANG': 'C.UTF-8', 'PATH': '/usr/bin:/bin', 'TMPDIR': '/tmp',
           'MPLCONFIGDIR': '/tmp/matplotlib', 'MPLBACKEND': 'Agg', 'ANTARES_SANDBOX': '1',
           # One thread each: BLAS/OpenMP pools would otherwise spawn a thread per CPU in every worker.
           'OPENBLAS_NUM_THREADS': '1', 'OMP_NUM_THREADS': '1', 'MKL_NUM_THREADS': '1',
           'NUMEXPR_NUM_THREADS': '1', 'ANTARES_LOCUS_TIMEOUT_S': str(opts.limits.locus_timeout_s),
           'ANTARES_LOAD_TIMEOUT_S': str(opts.limits.load_timeout_s), 'ANTARES_OUTPUT_LIMIT': str(opts.limits.output_limit),
           'ANTARES_MAX_LINE_BYTES': str(opts.limits.max_line_bytes)}
    for key, value in env.items():
        argv += ['--setenv', key, value]
    command = CHECK if opts.check else PROBE if opts.probe else WORKER
    return argv + ['--', opts.python, '-I', '-B', '-c', command]


def set_limits(opts):
    mb = 1 << 20
    given = opts.limits
    limits = [(resource.RLIMIT_AS, given.memory_mb * mb), (resource.RLIMIT_CPU, given.cpu_s),
              (resource.RLIMIT_NPROC, given.nproc), (resource.RLIMIT_FSIZE, given.fsize_mb * mb),
              (resource.RLIMIT_NOFILE, NOFILE), (resource.RLIMIT_CORE, 0)]
    for which, value in limits:
        resource.setrlimit(which, (value, value))


def sibling(name):
    """A module beside this file (run by path with -I, its folder is not on sys.path)."""
    import importlib.util
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location(name, os.path.join(here, f'{name}.py'))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def syscall_filter():
    return sibling('syscall_filter')


def raise_oom_score():
    """First in line for the kernel's OOM killer (inherited by the worker's processes); best effort."""
    try:
        with open('/proc/self/oom_score_adj', 'w') as fh:
            fh.write('1000')
    except OSError:
        pass


def userns_available():
    try:
        with open('/proc/sys/user/max_user_namespaces') as fh:
            if int(fh.read()) == 0:
                return False
    except (OSError, ValueError):
        pass
    try:
        with open('/proc/sys/kernel/unprivileged_userns_clone') as fh:
            return fh.read().strip() != '0'
    except OSError:
        return True


def main(argv=None):
    opts = parse(sys.argv[1:] if argv is None else argv)
    if not os.access(opts.bwrap, os.X_OK):
        sys.stderr.write(f'antares sandbox: {opts.bwrap} is missing: apt-get install -y bubblewrap\n')
        return 127
    try:
        folders = interpreter_folders(opts.python)
    except ValueError as e:
        sys.stderr.write(f'antares sandbox: {e}\n')
        return 127
    runtime_fd = os.open(RUNTIME, os.O_PATH | os.O_DIRECTORY)  # opened before dropping root
    os.set_inheritable(runtime_fd, True)
    # Opened before dropping root too: the folder may lie where the worker's uid cannot look.
    files_fd = os.open(opts.files, os.O_PATH | os.O_DIRECTORY) if opts.files else None
    if files_fd is not None:
        os.set_inheritable(files_fd, True)
    userns = not opts.no_userns and userns_available()
    host = sibling('sandbox_host')
    lock_fd = None
    try:
        first, last = host.parse_uid_range(opts.uids)
        if os.geteuid() == 0 and userns:
            uid, lock_fd = host.claim_uid(first, last, opts.slot)
        else:
            uid = os.getuid()
        # Before dropping root, which the cgroup folders belong to.
        limits = opts.limits
        name = f'uid-{uid}' if lock_fd is not None else f'pid-{os.getpid()}'
        host.join_memory_cgroup(opts.cgroup, name, (limits.memory_mb + limits.tmp_mb) << 20)
    except (ValueError, host.HostError) as e:
        sys.stderr.write(f'antares sandbox: {e}\n')
        return 126
    raise_oom_score()
    if os.geteuid() == 0 and userns:
        os.setgroups([])
        os.setgid(uid)
        os.setuid(uid)  # real, effective and saved: no way back to root
    elif not userns and os.geteuid() != 0:
        sys.stderr.write('antares sandbox: user namespaces are disabled and we are not root\n')
        return 126
    blocked = unreadable(folders)
    if blocked:
        sys.stderr.write(f'antares sandbox: the filter interpreter {opts.python} needs {blocked}, which the sandbox '
                         f'user (uid {os.getuid()}) cannot read: install it in a world-readable folder '
                         '(chmod o+rx on its path), e.g. /opt/antares-filter-env\n')
        return 126
    try:
        seccomp_fd = syscall_filter().compiled_fd()
    except ImportError:
        sys.stderr.write('antares sandbox: the seccomp binding is missing: apt-get install -y python3-seccomp\n')
        return 127
    set_limits(opts)
    argv = bwrap_argv(opts, runtime_fd, userns, seccomp_fd, folders, files_fd, lock_fd)
    if opts.check or opts.probe:
        fds = (runtime_fd, seccomp_fd, files_fd, lock_fd)
        return subprocess.call(argv, pass_fds=tuple(fd for fd in fds if fd is not None))
    os.execv(argv[0], argv)


if __name__ == '__main__':
    sys.exit(main())
