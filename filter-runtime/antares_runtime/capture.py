"""Per-locus capture of user output, kept apart from the protocol channel.

Python-level writes (print, sys.stdout/stderr) go to bounded in-memory buffers, so printing 1 GB costs
only the time to produce it; fd-level writes (os.write(1, ...), C libraries) land in O_APPEND files in
the sandbox's private /tmp, bounded by RLIMIT_FSIZE, and are read back and truncated after each locus.
"""
import io
import os

TRUNCATED = '\n[... {} more characters truncated]'


class _Bytes:
    """`sys.stdout.buffer` for code that writes bytes."""

    def __init__(self, text):
        self._text = text

    def write(self, data):
        self._text.write(bytes(data).decode('utf-8', 'replace'))
        return len(data)

    def flush(self):
        pass


class BoundedText(io.TextIOBase):
    encoding = 'utf-8'
    errors = 'replace'

    def __init__(self, fd, limit):
        super().__init__()
        self._fd = fd
        self.limit = limit
        self.buffer = _Bytes(self)
        self.reset()

    def reset(self):
        self.parts = []
        self.size = 0
        self.dropped = 0

    def write(self, text):
        if not isinstance(text, str):
            raise TypeError(f'write() argument must be str, not {type(text).__name__}')
        room = self.limit - self.size
        if room > 0:
            piece = text[:room]
            self.parts.append(piece)
            self.size += len(piece)
        self.dropped += max(0, len(text) - max(room, 0))
        return len(text)

    def writable(self):
        return True

    def isatty(self):
        return False

    def fileno(self):
        return self._fd

    def flush(self):
        pass


class Capture:
    """Captures fd 1 and fd 2 (and sys.stdout/sys.stderr) for one worker process."""

    def __init__(self, folder, limit):
        self.limit = limit
        self.files = []
        for fd, name in ((1, 'stdout'), (2, 'stderr')):
            path = os.path.join(folder, name)
            target = os.open(path, os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_APPEND, 0o600)
            os.dup2(target, fd)
            os.close(target)
            self.files.append(fd)
        self.out = BoundedText(1, limit)
        self.err = BoundedText(2, limit)
        self.install()

    def install(self):
        import sys
        sys.stdout = sys.__stdout__ = self.out
        sys.stderr = sys.__stderr__ = self.err

    def reset(self):
        self.out.reset()
        self.err.reset()

    def collect(self):
        """(stdout, stderr) since the last reset, each at most `limit` characters, with a truncation note."""
        return self._one(self.out, 1), self._one(self.err, 2)

    def _one(self, text, fd):
        raw = ''
        dropped = text.dropped
        try:
            size = os.fstat(fd).st_size
            if size:
                raw = os.pread(fd, min(size, self.limit * 4), 0).decode('utf-8', 'replace')
                dropped += max(0, size - self.limit * 4)
                os.ftruncate(fd, 0)
        except OSError:
            pass  # the filter closed or replaced the fd; the in-memory part is still reported
        if not text.parts and not raw:
            return ''
        out = ''.join(text.parts) + raw
        if len(out) > self.limit:
            dropped += len(out) - self.limit
            out = out[:self.limit]
        return out + (TRUNCATED.format(dropped) if dropped else '')
