"""The filter worker: JSON lines over a private copy of stdin/stdout (see PROTOCOL.md).

Run as `python3 -m antares_runtime.worker` (normally inside the sandbox, see sandbox.py). The protocol
fds are dup'ed away at start and fds 0/1/2 re-pointed at /dev/null and capture files, so nothing user
code prints can reach the channel. Everything the worker needs is bound into main()'s locals before
user code runs: replacing modules in sys.modules or importing this module gives user code nothing
to call. Reports are built from the worker's own per-run change log.
"""
import _signal
import base64
import binascii
import fcntl
import json
import os
import re
import resource
import signal
import sys
import tempfile
import time
import types

from .api import instantiate
from .discovery import filter_candidates, find_filter_class
from .capture import Capture
from .core import format_error, percentiles, run_one
from .deferred import PropertyFetcher, ProtocolMismatch
from . import locus as _locus
from .environment import load_astropy_table_with_astropy


class LocusTimeout(BaseException):
    """Raised by SIGALRM; a BaseException so `except Exception` in user code does not swallow it."""


# The limits come from the server's configuration (apps/pipeline/src/filters/sandbox-limits.ts): the
# pool hands them to sandbox.py as --limits, which puts these four in the worker's environment and
# sets the rest as rlimits. These values stand in only for a worker started by hand, outside the
# launcher (the runtime's own tests, debugging); a run or load message may still name its own timeout.
UNLAUNCHED_FALLBACK = {'ANTARES_OUTPUT_LIMIT': 65536, 'ANTARES_LOCUS_TIMEOUT_S': 5, 'ANTARES_LOAD_TIMEOUT_S': 120,
                       'ANTARES_MAX_LINE_BYTES': 1 << 30}


def _configured(name, kind):
    return kind(os.environ.get(name, UNLAUNCHED_FALLBACK[name]))


IN_USER_CODE = [False]  # the alarm only raises while a filter's code (or its load/setup) is running


def _on_alarm(signum, frame):
    if IN_USER_CODE[0]:
        raise LocusTimeout()


def _stray_guard(own_pid):
    """Inside the sandbox's pid namespace, a function killing what a filter left behind (returns how
    many). The namespace's last allocated pid tells in 1 us whether any process (or thread) was
    created since the last call, so the /proc scan only runs when something was."""
    if os.environ.get('ANTARES_SANDBOX') != '1':
        return lambda: 0
    try:
        with open('/proc/1/comm') as fh:
            if fh.read().strip() != 'bwrap':
                return lambda: 0  # not our own pid namespace: never signal anything
        last_pid_fd = os.open('/proc/sys/kernel/ns_last_pid', os.O_RDONLY)
    except OSError:
        return lambda: 0
    pread, listdir, kill, waitpid, sleep = os.pread, os.listdir, os.kill, os.waitpid, time.sleep
    state = [pread(last_pid_fd, 32, 0)]

    def others():
        return [p for p in listdir('/proc') if p.isdigit() and int(p) not in (1, own_pid)]

    def check():
        now = pread(last_pid_fd, 32, 0)
        if now == state[0]:
            return 0
        strays = others()
        for _ in range(50 if strays else 0):  # a fork bomb may still be forking: kill until none is left
            try:
                kill(-1, signal.SIGKILL)  # every process we may signal in this namespace but us and pid 1
            except OSError:
                pass
            try:
                while waitpid(-1, os.WNOHANG)[0]:
                    pass
            except ChildProcessError:
                pass
            if not others():
                break
            sleep(0.01)
        state[0] = pread(last_pid_fd, 32, 0)
        return len(strays)
    return check


def recheck(report, allowed):
    """Re-validate a report against the load-time snapshot of declared outputs."""
    if report.get('status') != 'ok':
        return
    tags, locus_props, alert_props = allowed
    problems = [f'tag {t!r}' for t in report['new_tags'] if t not in tags]
    for declared, key in ((locus_props, 'new_locus_properties'), (alert_props, 'new_alert_properties')):
        for name, value in report[key].items():
            kind = declared.get(name)
            ok = value is None or (kind == 'str' and type(value) is str) or \
                (kind == 'int' and type(value) is int) or (kind == 'float' and type(value) is float)
            if not ok:
                problems.append(f'{key} {name!r}')
    if problems:
        report.update(status='error', new_tags=[], new_locus_properties={}, new_alert_properties={},
                      error={'type': 'FilterError', 'traceback': '',
                             'message': 'undeclared or mistyped outputs: ' + ', '.join(problems)})


class ProtocolError(Exception):
    """A request line the worker cannot follow (a pool bug): the worker reports it as fatal and exits."""


def _bigger_pipes(*fds):
    """Room for a whole chunk of a batch in the kernel's pipe buffer (64 KiB by default), so the pool
    can write the next chunk while this worker reads the one before. Best effort."""
    size = getattr(fcntl, 'F_SETPIPE_SZ', None)
    for fd in fds:
        try:
            if size is not None:
                fcntl.fcntl(fd, size, 1 << 20)
        except OSError:
            pass


def _codec():
    """JSON encode/decode built from the C accelerator objects, captured before any user code runs:
    patching json's Python classes or functions later (user code shares this interpreter) changes
    nothing in what the worker writes or reads."""
    from _json import encode_basestring, make_encoder, make_scanner

    def default(obj):
        return repr(obj)

    iterencode = make_encoder(None, default, encode_basestring, None, ':', ',', False, False, False)
    scan = make_scanner(json.JSONDecoder())
    join = ''.join

    def encode(obj):
        return join(iterencode(obj, 0))

    def decode(text):
        try:
            obj, end = scan(text, 0)
        except StopIteration as stop:
            raise ValueError(f'invalid JSON at character {stop.value}') from None
        if text[end:].strip():
            raise ValueError('extra data after the JSON value')
        return obj
    return encode, decode


def main():
    own_pid = os.getpid()
    proto_in = os.dup(0)
    proto_out = os.dup(1)  # os.dup makes non-inheritable fds: subprocesses of filters never get them
    _bigger_pipes(proto_in, proto_out)
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    limit = _configured('ANTARES_OUTPUT_LIMIT', int)
    capture = Capture(tempfile.mkdtemp(prefix='antares-capture-'), limit)
    code_dir = tempfile.mkdtemp(prefix='antares-filters-')
    load_astropy_table_with_astropy()
    default_timeout = _configured('ANTARES_LOCUS_TIMEOUT_S', float)
    load_timeout = _configured('ANTARES_LOAD_TIMEOUT_S', float)
    encode, decode = _codec()
    a2b_base64 = binascii.a2b_base64
    _locus.UNPACK[0] = lambda packed: decode(a2b_base64(packed).decode('utf-8'))
    run_one_, recheck_, format_error_, percentiles_ = run_one, recheck, format_error, percentiles
    killed_strays, find_class, instantiate_ = _stray_guard(own_pid), find_filter_class, instantiate
    candidates = filter_candidates
    write = os.write
    getpid = os.getpid
    setitimer = signal.setitimer
    timer = signal.ITIMER_REAL
    set_handler, sigalrm = _signal.signal, int(signal.SIGALRM)  # the C function: no enum wrapping per locus
    perf = time.perf_counter
    filters = {}
    # Alerts this worker was sent before, by id: the pool sends an alert once and then only its id
    # (PROTOCOL.md, "Alert references"); it names in `forget` the ones it no longer tracks.
    alert_cache = {}
    kept_alert = _locus.KeptAlert
    # Each locus' alerts as of its last run here: a locus sent again names how many of them open its
    # list (`kept`) and sends only the rest (PROTOCOL.md, "Kept alert lists"); `forget_loci` drops lists.
    locus_alerts = {}

    def resolve_alerts(raw):
        """Replace alert ids in a locus by the alerts sent earlier; False if one is unknown."""
        alerts = raw.get('alerts') if isinstance(raw, dict) else None
        if not isinstance(alerts, list):
            return True
        locus_id = raw.get('locus_id')
        if raw.get('alerts_deferred') is True:
            # Only the triggering alert came (PROTOCOL.md, "Deferred alert lists"): the list kept for the
            # locus stays as it was, and the whole one comes if the filter asks for it (fetcher.alerts).
            resolved = resolved_list([], alerts)
            raw['alerts'] = resolved if resolved is not None else alerts
            return resolved is not None
        kept = raw.pop('kept', 0)
        # Dropped now and kept again only once resolved: after a mismatch no stale list can be used.
        before = locus_alerts.pop(locus_id, None) if type(locus_id) is str else None
        if kept:
            if type(kept) is not int or before is None or not 0 < kept <= len(before):
                return False
            resolved = before[:kept]
        else:
            resolved = []
        if resolved_list(resolved, alerts) is None:
            return False
        raw['alerts'] = resolved
        if type(locus_id) is str:
            locus_alerts[locus_id] = resolved[:]  # a copy: nothing done to the locus dict reaches the kept list
        return True

    def resolved_list(resolved, alerts):
        """`resolved` followed by `alerts`, each id replaced by the alert it names; None if one is unknown."""
        append, get = resolved.append, alert_cache.get
        for a in alerts:
            if type(a) is str:
                a = get(a)
                if a is None:
                    return None
            elif type(a) is dict:
                alert_id = a.get('alert_id')
                if type(alert_id) is str:
                    a = alert_cache[alert_id] = kept_alert(a)
            append(a)
        return resolved

    def closed_in_child():
        # A filter's os.fork() child must never speak on the protocol channel.
        for fd in (proto_in, proto_out):
            try:
                os.close(fd)
            except OSError:
                pass
    os.register_at_fork(after_in_child=closed_in_child)

    def send(obj):
        if getpid() != own_pid:
            os._exit(0)  # a forked copy of the worker (fork via ctypes) returning into this loop
        try:
            data = (encode(obj) + '\n').encode('utf-8')
        except (TypeError, ValueError) as exc:
            # e.g. a value JSON cannot carry: the answer keeps its framing and becomes an error
            keep = {k: obj.get(k) for k in ('id', 'nonce', 'op', 'i', 'locus_id', 'n') if k in obj}
            data = (encode(dict(keep, status='error', t=0, new_locus_properties={}, new_alert_properties={},
                                new_tags=[], raised_halt=False, stdout='', stderr='',
                                error=format_error_(exc))) + '\n').encode()
        view = memoryview(data)
        while view:
            view = view[write(proto_out, view):]

    in_user = IN_USER_CODE

    def call_user(seconds, fn, *args):
        """fn(*args) under the time limit; the alarm repeats each second if user code catches it."""
        set_handler(sigalrm, _on_alarm)  # re-armed each time: a filter may have replaced it
        setitimer(timer, seconds, 1.0)
        in_user[0] = True
        try:
            return fn(*args)
        finally:
            in_user[0] = False
            setitimer(timer, 0)

    def load(msg):
        filter_id = str(msg['filter_id'])
        module_name = 'antares_filter_' + re.sub(r'\W', '_', filter_id)
        path = os.path.join(code_dir, module_name + '.py')
        code = msg['code']
        with open(path, 'w', encoding='utf-8') as fh:  # so inspect.getsource()/tracebacks show lines
            fh.write(code)
        module = types.ModuleType(module_name)
        module.__file__ = path
        sys.modules[module_name] = module
        exec(compile(code, path, 'exec'), module.__dict__)
        # Which filters the file defines, before user code can change its namespace again (setup()).
        found = [c.__name__ for c in candidates(module.__dict__, module_name, code)]
        cls = find_class(module.__dict__, msg.get('class_name'), module_name, code)
        files = {name: base64.b64decode(data) for name, data in (msg.get('files') or {}).items()}
        instance, decl = instantiate_(cls, files, bool(msg.get('files_pending')))
        if instance is None:  # checked up to its declarations: it waits for its data files
            missing = [name for name in decl.requires_files if name not in files]
            return dict(decl.outputs(), class_name=cls.__name__, filter_classes=found, files_missing=missing)
        # A snapshot taken before any run: patching the runtime's classes later does not widen it.
        allowed = (frozenset(decl.tags), dict(decl.locus_props), dict(decl.alert_props))
        filters[filter_id] = (instance, decl, allowed)
        return dict(decl.outputs(), class_name=cls.__name__, filter_classes=found)

    def handle_load(msg):
        reply = {'id': msg.get('id'), 'nonce': msg.get('nonce'), 'op': 'loaded', 'filter_id': msg.get('filter_id')}
        capture.reset()
        t0 = perf()
        seconds = float(msg.get('timeout_s') or load_timeout)
        try:
            reply['outputs'] = call_user(seconds, load, msg)
            reply['ok'] = True
        except LocusTimeout:
            in_user[0] = False
            reply.update(ok=False, error={'type': 'Timeout', 'traceback': '',
                                          'message': f'loading the filter took longer than {seconds:g} s, its limit'})
        except BaseException as exc:  # SystemExit at module level included: the worker must go on
            in_user[0] = False
            reply.update(ok=False, error=format_error_(exc))
        reply['t'] = perf() - t0
        reply['stdout'], reply['stderr'] = capture.collect()
        killed_strays()
        send(reply)

    def next_chunk(rid):
        """The continuation line of run `rid` (PROTOCOL.md: a batch may come in several lines)."""
        line = fetcher.next_line()
        if not line:
            raise ProtocolError('the input ended inside a batch')
        msg = decode(line.decode('utf-8'))
        if not isinstance(msg, dict) or msg.get('op') != 'more' or msg.get('id') != rid:
            raise ProtocolError('expected the next chunk of the batch being run')
        return msg

    def handle_run(msg):
        rid, nonce = msg.get('id'), msg.get('nonce')
        entry = filters.get(str(msg.get('filter_id')))
        if entry is None:
            while msg.get('more'):  # read the rest of the batch: the next line is a new request
                msg = next_chunk(rid)
            send({'id': rid, 'nonce': nonce, 'op': 'done', 'n': 0,
                  'error': {'type': 'NotLoaded', 'message': f'filter {msg.get("filter_id")} is not loaded'}})
            return
        instance, decl, allowed = entry
        seconds = float(msg.get('locus_timeout_s') or default_timeout)
        for alert_id in msg.get('forget') or ():
            alert_cache.pop(alert_id, None)
        for locus_id in msg.get('forget_loci') or ():
            locus_alerts.pop(locus_id, None)
        times = []
        i = 0
        fetcher.begin_run(rid, nonce)
        while True:
            for raw in msg.get('batch') or ():
                capture.reset()
                fetcher.begin_locus(i, raw)
                try:
                    if not resolve_alerts(raw):
                        raise ProtocolMismatch('the locus names alerts this worker was never sent')
                    report, _ = call_user(seconds, run_one_, instance, decl, raw)
                except LocusTimeout:
                    in_user[0] = False
                    report = {'status': 'timeout', 'error': {
                        'type': 'Timeout', 'message': f'the filter ran longer than {seconds} s on this locus',
                        'traceback': ''}}
                except BaseException as exc:  # SystemExit, KeyboardInterrupt: reported, the worker goes on
                    in_user[0] = False
                    report = {'status': 'error', 'error': format_error_(exc)}
                if getpid() != own_pid:
                    os._exit(0)
                fetcher.end_locus()
                recheck_(report, allowed)
                if 'locus_id' not in report:
                    report.update(locus_id=raw.get('locus_id') if isinstance(raw, dict) else None, t=seconds,
                                  new_locus_properties={}, new_alert_properties={}, new_tags=[], raised_halt=False)
                report['stdout'], report['stderr'] = capture.collect()
                strays = killed_strays()
                if strays:
                    report['killed_processes'] = strays
                if report['status'] == 'ok':
                    times.append(report['t'])
                report.update(id=rid, nonce=nonce, op='report', i=i)
                send(report)
                i += 1
            if not msg.get('more'):
                break
            msg = next_chunk(rid)
        usage = resource.getrusage(resource.RUSAGE_SELF)
        done = {'id': rid, 'nonce': nonce, 'op': 'done', 'n': i, **fetcher.reads,
                'cpu_s': usage.ru_utime + usage.ru_stime, 'maxrss_kb': usage.ru_maxrss}
        done.update(percentiles_(times))
        send(done)

    reader = os.fdopen(proto_in, 'rb', buffering=1 << 16)
    max_line = _configured('ANTARES_MAX_LINE_BYTES', int)
    bounded_readline = reader.readline

    def read_line():
        """The next request line, newline included, read no further than the cap (ADR 0062): a longer
        one is never decoded; the worker says so and ends, as for any line it cannot follow."""
        line = bounded_readline(max_line + 1)
        if len(line) > max_line:
            try:
                send({'op': 'fatal', 'error': {'type': 'ProtocolError', 'traceback': '',
                                               'message': f'a request line over {max_line} bytes'}})
            finally:
                os._exit(70)
        return line
    fetcher = PropertyFetcher(send, read_line, decode, in_user, resolve_alerts)
    _locus.FETCH[0], _locus.NOTE[0], _locus.FETCH_ALERTS[0] = fetcher.fetch, fetcher.note, fetcher.alerts
    send({'op': 'ready', 'pid': own_pid, 'python': sys.version.split()[0]})

    def serve():
        while True:
            line = read_line()
            if not line:
                return
            if not line.strip():
                continue
            try:
                msg = decode(line.decode('utf-8'))
                op = msg.get('op')
            except Exception as exc:  # noqa: BLE001 - a bad line must not end the worker
                send({'op': 'error', 'error': format_error_(exc)})
                continue
            if op == 'run':
                handle_run(msg)
            elif op == 'load':
                handle_load(msg)
            elif op == 'unload':
                filters.pop(str(msg.get('filter_id')), None)
                send({'id': msg.get('id'), 'nonce': msg.get('nonce'), 'op': 'unloaded'})
            elif op == 'ping':
                send({'id': msg.get('id'), 'nonce': msg.get('nonce'), 'op': 'pong'})
            elif op == 'exit':
                return
            else:
                error = {'type': 'ProtocolError', 'message': f'unknown op {op!r}'}
                send({'id': msg.get('id'), 'op': 'error', 'error': error})
    try:
        serve()
    except BaseException as exc:  # the worker itself failed: say why on the channel, then die
        try:
            send({'op': 'fatal', 'error': format_error_(exc)})
        finally:
            os._exit(70)
    os._exit(0)  # skip interpreter teardown: user atexit hooks must not write anything


if __name__ == '__main__':
    main()
