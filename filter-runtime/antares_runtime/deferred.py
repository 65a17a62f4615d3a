"""Alert properties the pool sends only when a filter reads them (PROTOCOL.md, "Deferred properties").

A Rubin locus brings a year of alerts, and most filters read only its triggering alert's properties:
sending every alert's properties in full to every worker cost more than running the filters. The pool
may send an alert `deferred` (its id, mjd, survey and GW associations only). The first time a filter
reads a deferred alert's properties, the worker asks the pool for them in one `fetch` line (for the
triggering alert, its own; for another, those of every deferred alert of the locus in flight) and
reads the answer from its input; the batch's next chunks that come first are kept for later. A locus'
own properties (some 150 light-curve features) may come deferred the same way. The worker also counts
the loci where a filter read properties it had not decoded before (the locus', the triggering alert's
and the other alerts' apart): the pool sends a filter that reads some on many loci those in full
instead (one round trip per locus would cost more).

A locus' alert list itself may come deferred (`alerts_deferred`: its triggering alert alone): the first
read of `locus.alerts` (a light curve, a time series) asks for the rest the same way (`alerts`).
"""
import os
from _thread import allocate_lock

from .core import trigger_alert, format_error
from .locus import KeptAlert


class ProtocolMismatch(Exception):
    """The pool referred to an alert this worker does not hold (a pool bug, reported per locus)."""


class PropertyFetcher:
    """The worker's side of deferred properties, for the run in flight. `readline` reads the channel;
    `send` writes one line; `in_user` is the worker's flag that lets the alarm raise."""

    def __init__(self, send, readline, decode, in_user, resolve=None):
        self._send, self._readline, self._decode, self._in_user = send, readline, decode, in_user
        self._resolve = resolve  # the worker's resolve_alerts: a list of ids and alerts made whole
        self.queued = []  # continuation lines of the batch read while waiting for an answer
        self.rid = self.nonce = self.raw = None
        self.i = 0
        self.reads = {}  # the run's counts of loci where properties were read, by kind (`done` says them)
        self._read = set()  # the kinds read on the locus in flight
        self._trigger = None
        self._lock = allocate_lock()  # a filter's threads reading at once ask one at a time

    def begin_run(self, rid, nonce):
        self.rid, self.nonce = rid, nonce
        self.queued.clear()
        self.reads = dict.fromkeys(('locus_reads', 'trigger_reads', 'history_reads', 'list_reads'), 0)

    def begin_locus(self, i, raw):
        self.i, self.raw = i, raw
        self._read.clear()
        self._trigger = None

    def end_locus(self):
        for kind in self._read:
            self.reads[kind] += 1
        self.raw = self._trigger = None

    def next_line(self):
        """The next line of the channel: one kept while waiting for an answer, else a new one."""
        return self.queued.pop(0) if self.queued else self._readline()

    def _is_trigger(self, raw):
        if self._trigger is None:
            self._trigger = trigger_alert(self.raw)
        return raw is self._trigger

    def note(self, raw):
        """Properties are being decoded: counted as a read of the locus', the triggering alert's or another's."""
        if self.raw is None:
            return
        if raw is self.raw:
            self._read.add('locus_reads')
        elif type(raw) is not KeptAlert:
            return
        elif self._is_trigger(raw):
            self._read.add('trigger_reads')
        else:
            self._read.add('history_reads')

    def fetch(self, raw):
        """Fill in `packed` of this deferred alert: the triggering one alone, another with every deferred
        alert of the locus in flight (a filter reading one earlier alert reads the light curve)."""
        with self._lock:
            if raw is self.raw and raw.get('deferred') is True:
                self._fetch([], locus=True)  # the locus' own properties
                return
            alerts = self.raw.get('alerts') if self.raw is not None else None
            wanted = [a for a in alerts or () if type(a) is KeptAlert and a.get('deferred') is True]
            # Only the locus in flight's alerts are asked for: an alert of another (a filter's thread
            # still reading after its locus ended, a copy) has no properties to give.
            if any(a is raw for a in wanted):
                self._fetch([raw] if self._is_trigger(raw) else wanted)

    def alerts(self, raw):
        """The whole alert list of the locus in flight is read: counted (sent whole or not, so that the
        pool keeps sending it whole to a filter that reads it), and asked for if it came `alerts_deferred`
        (its triggering alert alone). Another locus' list (a copy, a filter's thread after its locus
        ended) stays as sent."""
        if raw is not self.raw:
            return
        self._read.add('list_reads')
        if raw.get('alerts_deferred') is not True:
            return
        with self._lock:
            if raw.get('alerts_deferred') is not True:
                return
            answer = self._ask([], alerts=True)
            del raw['alerts_deferred']
            if answer.get('error'):
                raise RuntimeError(f"the locus' alerts could not be read: {answer['error']}")
            listed = answer.get('alerts')
            if type(listed) is not dict or type(listed.get('alerts')) is not list:
                self._fatal("the answer lacks the locus' alerts that were asked for")
            whole = {'locus_id': raw.get('locus_id'), 'alerts': listed['alerts']}
            if listed.get('kept'):
                whole['kept'] = listed['kept']
            if not self._resolve(whole):
                raise ProtocolMismatch('the locus names alerts this worker was never sent')
            raw['alerts'] = whole['alerts']

    def _ask(self, wanted, **what):
        # The alarm must not cut a line of the channel in two: it is held off while the answer is read
        # (it repeats every second, so a filter past its time is still stopped once the answer is in).
        in_user = self._in_user[0]
        self._in_user[0] = False
        try:
            ask = {'id': self.rid, 'nonce': self.nonce, 'op': 'fetch', 'i': self.i,
                   'alert_ids': [a.get('alert_id') for a in wanted], **what}
            self._send(ask)
            return self._answer()
        finally:
            self._in_user[0] = in_user

    def _fetch(self, wanted, locus=False):
        answer = self._ask(wanted, **({'locus': True} if locus else {}))
        if answer.get('error'):
            raise RuntimeError(f"the properties asked for could not be read: {answer['error']}")
        if locus:
            value = answer.get('locus_packed')
            if type(value) is not str:
                self._fatal("the answer lacks the locus' properties that were asked for")
            self.raw['packed'] = value
            del self.raw['deferred']
        packed = answer.get('packed')
        for a in wanted:
            value = packed.get(a.get('alert_id')) if type(packed) is dict else None
            if type(value) is not str:
                self._fatal('the answer lacks properties that were asked for')
            a['packed'] = value
            del a['deferred']

    def _answer(self):
        while True:
            line = self._readline()
            if not line:
                self._fatal('the input ended while waiting for alert properties')
            try:
                msg = self._decode(line.decode('utf-8'))
            except ValueError:  # UnicodeDecodeError included
                msg = None
            if not isinstance(msg, dict) or msg.get('id') != self.rid:
                self._fatal('expected the alert properties asked for')
            if msg.get('op') == 'more':
                self.queued.append(line)
            elif msg.get('op') == 'fetched' and msg.get('i') == self.i:
                return msg
            else:
                self._fatal('expected the alert properties asked for')

    def _fatal(self, message):
        # Raised inside a filter's call, an exception could be caught by the filter and the channel
        # left out of step: the worker ends at once instead, as for any line it cannot follow.
        try:
            self._send({'op': 'fatal', 'error': format_error(RuntimeError(message))})
        finally:
            os._exit(70)
