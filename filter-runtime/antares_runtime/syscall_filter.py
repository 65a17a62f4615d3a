"""The seccomp filter of the sandbox: system calls a filter never needs fail with EPERM (or ENOSYS).

Built with Debian's libseccomp binding (python3-seccomp) when the launcher starts a worker, and handed
to bubblewrap as a compiled BPF program (`bwrap --seccomp FD`), which installs it right before it execs
the worker: everything the filter runs inherits it and cannot remove it.

EPERM rather than killing the process: a filter that tries one gets an ordinary Python exception
(PermissionError), which becomes that locus' error report; the worker goes on. libseccomp checks the
audit architecture first (a call made through another ABI, e.g. 32-bit int 0x80 or x32 from an x86_64
process, would otherwise bypass the numbering below), and kills on a foreign one.

Why these: each reaches kernel code a filter has no use for and that has a history of privilege
escalations, or acts on other processes (ptrace and friends), or changes what the sandbox is made of
(mounts, namespaces, root). Namespaces are refused by flag, since clone() also makes every thread and
child process: clone/unshare with any CLONE_NEW* flag fail. clone3 passes its flags in memory, which
seccomp cannot read, so it fails with ENOSYS: the C library then falls back to clone(), as it does on
kernels older than 5.3 (what container runtimes do too).

Memory no limit counts (ADR 0058): a memfd's pages (memfd_create, memfd_secret) belong to no file
system with a size and, once unmapped, to no address space; a SysV shared memory segment (shmget) lives
on in the worker's IPC namespace after it is detached, whose size limits are the kernel's huge
defaults; POSIX message queues (mq_open) hold kernel memory. These fail with ENOSYS, as on a kernel
built without them, so that a library that can do without them falls back (to a file in /tmp, whose
tmpfs is sized) and a filter that insists gets an OSError it can see.
"""
import errno
import os

import seccomp

REFUSED = (
    # other processes: debugging, reading and writing their memory, stealing their file descriptors
    'ptrace', 'process_vm_readv', 'process_vm_writev', 'pidfd_getfd', 'kcmp', 'process_madvise',
    # the file system tree of the sandbox
    'mount', 'umount2', 'mount_setattr', 'move_mount', 'open_tree', 'fsopen', 'fsconfig', 'fsmount', 'fspick',
    'pivot_root', 'chroot', 'name_to_handle_at', 'open_by_handle_at',
    # joining other namespaces
    'setns',
    # kernel key rings, BPF programs, performance counters, page-fault handling, io_uring
    'keyctl', 'add_key', 'request_key', 'bpf', 'perf_event_open', 'userfaultfd',
    'io_uring_setup', 'io_uring_enter', 'io_uring_register', 'fanotify_init', 'lookup_dcookie',
    # the machine itself
    'kexec_load', 'kexec_file_load', 'init_module', 'finit_module', 'delete_module', 'reboot',
    'swapon', 'swapoff', 'acct', 'quotactl', 'quotactl_fd', 'settimeofday', 'clock_settime', 'syslog',
    'vhangup', 'iopl', 'ioperm', 'uselib', 'nfsservctl', '_sysctl', 'create_module', 'get_kernel_syms',
    'query_module',
)

MISSING = ('memfd_create', 'memfd_secret', 'shmget', 'mq_open')

CLONE_NEWTIME = 0x00000080  # unshare() only: clone() keeps its exit signal in these low bits
CLONE_NEW = {
    'CLONE_NEWNS': 0x00020000, 'CLONE_NEWCGROUP': 0x02000000, 'CLONE_NEWUTS': 0x04000000,
    'CLONE_NEWIPC': 0x08000000, 'CLONE_NEWUSER': 0x10000000, 'CLONE_NEWPID': 0x20000000,
    'CLONE_NEWNET': 0x40000000,
}


def build():
    """The filter (not yet loaded): allow by default, refuse the calls above."""
    policy = seccomp.SyscallFilter(defaction=seccomp.ALLOW)
    refuse = seccomp.ERRNO(errno.EPERM)
    for action, names in ((refuse, REFUSED), (seccomp.ERRNO(errno.ENOSYS), MISSING)):
        for name in names:
            try:
                policy.add_rule(action, name)
            except (RuntimeError, ValueError):
                pass  # a call this architecture (or this libseccomp) does not have: nothing to refuse
    for flag in CLONE_NEW.values():
        policy.add_rule(refuse, 'clone', seccomp.Arg(0, seccomp.MASKED_EQ, flag, flag))
    for flag in (*CLONE_NEW.values(), CLONE_NEWTIME):
        policy.add_rule(refuse, 'unshare', seccomp.Arg(0, seccomp.MASKED_EQ, flag, flag))
    policy.add_rule(seccomp.ERRNO(errno.ENOSYS), 'clone3')
    return policy


def compiled_fd():
    """A file descriptor (inheritable, at offset 0) holding the compiled BPF program, for bwrap --seccomp."""
    fd = os.memfd_create('antares-seccomp', 0)
    with os.fdopen(os.dup(fd), 'wb') as out:
        build().export_bpf(out)
    os.lseek(fd, 0, os.SEEK_SET)
    os.set_inheritable(fd, True)
    return fd
