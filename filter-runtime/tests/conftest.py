"""Shared fixtures: a minimal Python client of the worker protocol, sandboxed or not.

Missing prerequisites skip the sandbox tests with the apt command that installs them, except under
CI=true, where they fail: CI must really run them.
"""
import itertools
import json
import os
import secrets
import selectors
import subprocess
import sys
import time

import pytest

RUNTIME = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, RUNTIME)
APT = ('apt-get install -y bubblewrap python3-numpy python3-scipy python3-pandas python3-astropy '
       'python3-statsmodels python3-sklearn python3-seccomp python3-pytest python3-avro')


def missing_prerequisites():
    missing = []
    if not os.access('/usr/bin/bwrap', os.X_OK):
        missing.append('/usr/bin/bwrap')
    for module in ('numpy', 'scipy', 'pandas', 'astropy', 'statsmodels', 'sklearn', 'avro', 'seccomp'):
        try:
            __import__(module)
        except ImportError:
            missing.append(f'python3-{module} (Debian)')
    return missing


def require_prerequisites():
    missing = missing_prerequisites()
    if missing:
        message = f'missing {", ".join(missing)}; install with: {APT}'
        if os.environ.get('CI') == 'true':
            pytest.fail(message)
        pytest.skip(message)


_SLOTS = itertools.count()
TEST_LIMITS = {'memory_mb': 2048, 'cpu_s': 3600, 'nproc': 64, 'fsize_mb': 64, 'tmp_mb': 256,
               'locus_timeout_s': 2.0, 'load_timeout_s': 60.0, 'output_limit': 65536,
               'max_line_bytes': 1 << 26}


class WorkerDied(Exception):
    def __init__(self, code, reports):
        super().__init__(f'worker exited with {code} after {len(reports)} reports')
        self.code = code
        self.reports = reports


class ProtocolViolation(Exception):
    pass


class Worker:
    """Speaks PROTOCOL.md to one worker process."""

    def __init__(self, sandboxed=True, slot=0, locus_timeout_s=2.0, memory_mb=2048, extra=(), tmp_mb=256):
        if sandboxed:
            # The tests' own limits (the server passes its configured ones the same way).
            limits = dict(TEST_LIMITS, locus_timeout_s=locus_timeout_s, memory_mb=memory_mb, tmp_mb=tmp_mb)
            argv = ['/usr/bin/python3', os.path.join(RUNTIME, 'antares_runtime', 'sandbox.py'),
                    f'--slot={slot}', f'--limits={json.dumps(limits)}', *extra]
            env = {'PATH': '/usr/bin:/bin'}
        else:
            argv = ['/usr/bin/python3', '-B', '-m', 'antares_runtime.worker']
            env = dict(os.environ, PYTHONPATH=RUNTIME, ANTARES_LOCUS_TIMEOUT_S=str(locus_timeout_s))
        # A sandbox can fail to start while the kernel still reaps an earlier one's processes (bwrap:
        # "Creating new namespace failed: Resource temporarily unavailable"): that is the machine, so
        # try again a few times, as the server's pool does.
        for attempt in range(1, 6):
            self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env, cwd='/')
            self.sel = selectors.DefaultSelector()
            self.sel.register(self.proc.stdout, selectors.EVENT_READ)
            self.buf = b''
            self.seq = 0
            ready = self._line(60)
            if ready is not None or not sandboxed or attempt == 5:
                break
            self.proc.wait()
            time.sleep(0.3 * attempt)
        assert ready and ready['op'] == 'ready', ready

    def _line(self, timeout):
        deadline = time.monotonic() + timeout
        while b'\n' not in self.buf:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError('no answer from the worker')
            if not self.sel.select(left):
                continue
            chunk = os.read(self.proc.stdout.fileno(), 1 << 20)
            if not chunk:
                return None
            self.buf += chunk
        line, self.buf = self.buf.split(b'\n', 1)
        return json.loads(line)

    def _send(self, msg):
        self.seq += 1
        msg.update(id=self.seq, nonce=secrets.token_hex(8))
        self.proc.stdin.write((json.dumps(msg) + '\n').encode())
        self.proc.stdin.flush()
        return msg

    def _expect(self, msg, reply):
        if reply.get('id') != msg['id'] or reply.get('nonce') != msg['nonce']:
            raise ProtocolViolation(f'unexpected line {str(reply)[:300]}')

    def load(self, filter_id, code, files=None, class_name=None, timeout=120):
        import base64
        msg = self._send({'op': 'load', 'filter_id': filter_id, 'code': code, 'class_name': class_name,
                          'files': {k: base64.b64encode(v).decode() for k, v in (files or {}).items()}})
        reply = self._line(timeout)
        if reply is None:
            raise WorkerDied(self.proc.wait(), [])
        self._expect(msg, reply)
        return reply

    def run(self, filter_id, batch, timeout=120):
        msg = self._send({'op': 'run', 'filter_id': filter_id, 'batch': batch})
        reports = []
        while True:
            reply = self._line(timeout)
            if reply is None:
                raise WorkerDied(self.proc.wait(), reports)
            self._expect(msg, reply)
            if reply['op'] == 'done':
                return reports, reply
            if reply.get('i') != len(reports):
                raise ProtocolViolation(f'report out of order: {reply.get("i")}')
            reports.append(reply)

    def close(self):
        if self.proc.poll() is None:
            try:
                self._send({'op': 'exit'})
                self.proc.wait(5)
            except (OSError, subprocess.TimeoutExpired):
                self.proc.kill()
                self.proc.wait()


@pytest.fixture
def sandboxed_worker():
    require_prerequisites()
    workers = []

    def make(**kwargs):
        # A slot of its own (slots pick the sandbox uid): what a test before left running cannot count
        # against this worker's process limit.
        w = Worker(sandboxed=True, slot=10 + next(_SLOTS) % 140, **kwargs)
        workers.append(w)
        return w
    yield make
    for w in workers:
        w.close()


@pytest.fixture(scope='session')
def ztf():
    """Locus snapshots of the real ZTF packets in ../shared/data (realdata.ztf_loci)."""
    require_prerequisites()
    import realdata
    return realdata.ztf_loci()


@pytest.fixture
def plain_worker():
    w = Worker(sandboxed=False)
    yield w
    w.close()


def tiny_locus(i=0, **extra):
    locus = {'locus_id': f'L{i}', 'ra': 10.0 + i, 'dec': -5.0, 'tags': [], 'properties': {'num_alerts': 2},
             'alerts': [{'alert_id': f'ztf_candidate:{i}1', 'mjd': 59000.0, 'properties': {'ant_mag': 18.0}},
                        {'alert_id': f'ztf_candidate:{i}2', 'mjd': 59001.0,
                         'properties': {'ant_mag': 17.5, 'ant_passband': 'g'}}],
             'catalog_objects': {}, 'grav_wave_events_metadata': {}}
    locus.update(extra)
    return locus
