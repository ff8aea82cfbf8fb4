"""The link of one table: outbox -> broker, seating -> controller, status both ways.

:class:`Link` is driven by :meth:`Link.run_once` (one turn: network, outbox, files), so one
process can run one link (``skat-table link``) or many (the tests' hundred tables, each on a
thread). Every failure to reach the broker is a state in ``status.json`` and a log line, never
an exception out of the loop.

Delivery: the outbox is read in order into a queue; up to ``window`` games are in flight; a
game leaves the queue when the broker's PUBACK for it arrived with success and the ledger has
recorded it. Each connection is a new MQTT client with a clean session: what was in flight
when a connection broke is simply sent again from the queue on the next one, in order. A
PUBACK that refuses (MQTT 5: "not authorized") keeps the game waiting and shows "refused".

A PUBACK is the broker's word, and a broker that crashes loses what it acknowledged since it
last saved (Mosquitto: ``autosave_interval``). So when a connection is lost, the games the
broker acknowledged in the ``resend_seconds`` before it last answered are queued again, ahead
of the waiting ones, and sent first on the next connection: the same bytes, so by ``id`` and
``revision`` a repeat changes nothing (docs/club-link.md), and nothing the broker may have lost
stays lost. The time from which to resend is kept in the ledger until they are acknowledged
again, so a link restarted in between resends them too.
"""

from __future__ import annotations

import contextlib
import logging
import ssl
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties

from firmware_host.clubside.clubconfig import ClubConfig
from firmware_host.clubside.clubfiles import (
    LEDGER_FILE,
    SEATING_FILE,
    STATUS_FILE,
    TABLE_FILE,
    LinkStatus,
    TableState,
    mtime,
    read_json,
    write_json,
)
from firmware_host.clubside.link.ledger import Ledger, LedgerError
from firmware_host.clubside.link.messages import (
    StatusPayloadError,
    encode,
    game_message,
    parse_status,
    status_message,
)
from firmware_host.clubside.link.outbox import OutboxError, OutboxSource
from firmware_host.clubside.seating import SeatingError, parse_seating

log = logging.getLogger("skat-table.link")
MAX_QUEUE = 5000  # outbox items held in memory at once; more wait in the journal


@dataclass
class LinkOptions:
    poll_interval: float = 0.05   # how often the outbox and table.json are looked at
    window: int = 20              # games in flight (published, not yet acknowledged)
    batch: int = 500              # outbox items read at once
    backoff_min: float = 1.0      # reconnect delays double from this ...
    backoff_max: float = 30.0     # ... up to this
    connect_timeout: float = 5.0
    status_every: float = 1.0     # status.json rewritten at most this often (state changes: now)
    protocol: str = "auto"        # "5", "3.1.1" or "auto" (5, and 3.1.1 if the broker wants)
    # After a lost connection, resend what was acknowledged this long before the broker last
    # answered (None: the config's [club] resend_seconds).
    resend_window: float | None = None


@dataclass
class _Item:
    seq: int
    n: int
    id: str
    revision: int
    payload: bytes
    mid: int | None = None
    acked: bool = False
    resent: bool = False  # acknowledged before, queued again after a lost connection


@dataclass
class _Conn:
    client: Any
    version: int
    connected: bool = False
    started: float = field(default_factory=time.monotonic)
    inflight: dict[int, _Item] = field(default_factory=dict)
    heard: float = 0.0  # epoch seconds: the broker last answered (CONNACK, PUBACK, a message)


class Link:
    """One table's club link (see the module docstring)."""

    def __init__(self, cfg: ClubConfig, source: OutboxSource, spool: Path,
                 options: LinkOptions | None = None, *,
                 clock: Callable[[], float] = time.time) -> None:
        self.cfg = cfg
        self.source = source
        self.spool = Path(spool)
        self.opt = options or LinkOptions()
        self.clock = clock
        self.ledger = Ledger.open(self.spool / LEDGER_FILE)
        self.queue: deque[_Item] = deque()
        self._read_seq = self.ledger.cursor
        self._conn: _Conn | None = None
        self._next_attempt = 0.0
        self._backoff = self.opt.backoff_min
        self._protocol = {"5": mqtt.MQTTv5, "3.1.1": mqtt.MQTTv311}.get(self.opt.protocol,
                                                                       mqtt.MQTTv5)
        self._next_poll = 0.0
        self._table_mtime: float | None = None
        self.table = TableState.from_json(read_json(self.spool / TABLE_FILE)) or TableState()
        self.state = "connecting"
        self.since = self.clock()
        self.detail = "starting"
        self._status_written: tuple[Any, ...] | None = None
        self._status_at = 0.0
        self._last_status_sent: bytes | None = None
        self.published = 0   # PUBACKs with success (for tests and the bench)
        self.on_acked: Callable[[str, int], None] | None = None
        self.seating_problems = 0
        self.resent = 0      # games queued again after a lost connection (for tests and logs)
        self._resending: set[tuple[int, int]] = set()
        self._closed = False
        self._resend_window = (self.opt.resend_window if self.opt.resend_window is not None
                               else float(cfg.resend_seconds))

    # ---- the loop ------------------------------------------------------------------------

    def run(self, stop: Callable[[], bool], tick: float = 0.05) -> None:
        while not stop():
            self.run_once(tick)
        self.close()

    def run_once(self, timeout: float = 0.2) -> None:
        if time.monotonic() >= self._next_poll:
            self._next_poll = time.monotonic() + self.opt.poll_interval
            self._poll_outbox()
            self._poll_table()
        now = time.monotonic()
        if self._conn is None and now >= self._next_attempt:
            self._connect()
        conn = self._conn
        if conn is not None:
            rc = conn.client.loop(timeout=timeout)
            if rc != mqtt.MQTT_ERR_SUCCESS and self._conn is conn:
                self._lost(f"connection lost ({mqtt.error_string(rc)})")
            elif (self._conn is conn and not conn.connected
                  and time.monotonic() - conn.started > self.opt.connect_timeout):
                self._lost(f"{self.cfg.host}:{self.cfg.port} accepted the connection but "
                           f"did not answer within {self.opt.connect_timeout:g} s")
        else:
            time.sleep(max(0.0, min(timeout, self._next_attempt - now)))
        self._record_acks()
        self._fill_window()
        self._write_status()

    @property
    def waiting(self) -> int:
        return len(self.queue)

    @property
    def online(self) -> bool:
        return self._conn is not None and self._conn.connected

    # ---- the outbox ----------------------------------------------------------------------

    def _poll_outbox(self) -> None:
        if len(self.queue) >= MAX_QUEUE:
            return
        try:
            rows = self.source.read(self._read_seq, self.opt.batch)
        except OutboxError as exc:
            log.warning("club: cannot read the outbox: %s", exc)
            return
        if len(rows) >= self.opt.batch and rows[0].seq != rows[-1].seq:
            # A record's items must come together: leave the last record for the next read.
            last = rows[-1].seq
            rows = [r for r in rows if r.seq != last]
        for row in rows:
            self._read_seq = max(self._read_seq, row.seq)
            if self.ledger.is_acked(row.seq, row.n):
                continue
            try:
                msg = game_message(self.cfg, series=row.series, game=row.game,
                                   revision=row.revision, payload=row.payload)
            except (TypeError, ValueError, AttributeError) as exc:
                log.error("club: outbox item #%s cannot be sent (%s); it stays waiting",
                          row.seq, exc)
                self._read_seq = row.seq - 1
                return
            self.queue.append(_Item(row.seq, row.n, msg["id"], msg["revision"], encode(msg)))

    def _fill_window(self) -> None:
        conn = self._conn
        if conn is None or not conn.connected:
            return
        for item in self.queue:
            if len(conn.inflight) >= self.opt.window:
                break
            if item.mid is not None or item.acked:
                continue
            info = conn.client.publish(self.cfg.topic("game"), item.payload, qos=1)
            if info.rc != mqtt.MQTT_ERR_SUCCESS:
                break
            item.mid = info.mid
            conn.inflight[info.mid] = item

    def _acked(self, item: _Item) -> None:
        item.acked = True
        self.published += 1

    def _record_acks(self) -> None:
        """Write what the broker acknowledged in this turn: one transaction, one fsync."""
        done = []
        while self.queue and self.queue[0].acked:
            done.append(self.queue.popleft())
        if not done:
            return
        cursor = done[-1].seq if not self.queue or self.queue[0].seq != done[-1].seq else (
            done[-1].seq - 1)
        try:
            self.ledger.record([(i.seq, i.n, i.id, i.revision) for i in done], cursor=cursor)
        except LedgerError as exc:
            # Not recorded: they stay waiting and are sent again (a repeat changes nothing).
            log.error("club: %s", exc)
            for i in reversed(done):
                i.acked, i.mid = False, None
                self.queue.appendleft(i)
            return
        if self._resending:
            self._resending.difference_update((i.seq, i.n) for i in done if i.resent)
            if not self._resending:
                try:
                    self.ledger.clear_resend()
                except LedgerError as exc:
                    log.error("club: %s", exc)
        if self.on_acked is not None:
            for i in done:
                self.on_acked(i.id, i.revision)

    def _mark_resend(self, conn: _Conn) -> None:
        """A connection that was up is lost: what the broker acknowledged shortly before it
        last answered may be lost with it (a crash before its next save)."""
        if not conn.connected or self._resend_window <= 0:
            return
        heard = conn.heard
        # paho notes every packet that came in (PINGRESP too) on its monotonic clock.
        last_in = getattr(conn.client, "_last_msg_in", None)
        if isinstance(last_in, int | float) and last_in > 0:
            heard = max(heard, time.time() - (time.monotonic() - last_in))
        try:
            self.ledger.mark_resend(heard - self._resend_window)
        except LedgerError as exc:
            log.error("club: %s", exc)

    def _requeue_recent(self) -> None:
        """Queue again, ahead of the waiting games, what was acknowledged since the ledger's
        ``resend_since`` (and is not in the queue already)."""
        since = self.ledger.resend_since
        if since is None:
            return
        queued = {(i.seq, i.n) for i in self.queue}
        wanted = [k for k in self.ledger.acked_since(since) if k not in queued]
        if not wanted:
            self._resending.clear()
            with contextlib.suppress(LedgerError):
                self.ledger.clear_resend()
            return
        keys = set(wanted)
        items: list[_Item] = []
        after, last = wanted[0][0] - 1, wanted[-1][0]
        try:
            while after < last:
                rows = self.source.read(after, self.opt.batch)
                if not rows:
                    break
                for row in rows:
                    if (row.seq, row.n) in keys:
                        msg = game_message(self.cfg, series=row.series, game=row.game,
                                           revision=row.revision, payload=row.payload)
                        items.append(_Item(row.seq, row.n, msg["id"], msg["revision"],
                                           encode(msg), resent=True))
                after = rows[-1].seq
        except (OutboxError, TypeError, ValueError, AttributeError) as exc:
            # Kept in the ledger: tried again on the next connection.
            log.error("club: cannot read the outbox to send recent games again: %s", exc)
            return
        # Nothing is in flight on a new connection: the queue can be put in order again.
        self.queue = deque(sorted([*items, *self.queue], key=lambda i: (i.seq, i.n)))
        self._resending = {(i.seq, i.n) for i in items}
        self.resent += len(items)
        log.info("club: %d game(s) the broker acknowledged shortly before the connection was "
                 "lost are sent again (a broker that crashed may have lost them)", len(items))
        if not items:
            with contextlib.suppress(LedgerError):
                self.ledger.clear_resend()

    # ---- connection ----------------------------------------------------------------------

    def _password(self) -> str | None:
        try:
            with open(self.cfg.password_file, encoding="utf-8") as f:
                return f.read(4096).strip("\r\n")
        except (OSError, UnicodeDecodeError) as exc:
            self._set_state("refused", f"cannot read the password file "
                            f"{self.cfg.password_file}: {getattr(exc, 'strerror', None) or exc}")
            return None

    def _connect(self) -> None:
        password = self._password()
        if password is None:
            self._schedule_retry()
            return
        cfg = self.cfg
        version = self._protocol
        kwargs: dict[str, Any] = {"client_id": f"skat-table-{cfg.club}-{cfg.table}",
                                  "protocol": version}
        if version != mqtt.MQTTv5:
            kwargs["clean_session"] = True
        client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, **kwargs)
        client.username_pw_set(cfg.username, password)
        client.connect_timeout = self.opt.connect_timeout
        client.max_inflight_messages_set(self.opt.window)
        client.enable_logger(logging.getLogger("skat-table.link.mqtt"))
        will = encode(status_message(cfg, "offline", self.table, self.clock()))
        client.will_set(cfg.topic("status"), will, qos=1, retain=True)
        conn = _Conn(client, version)
        client.on_connect = lambda c, u, f, rc, p=None: self._on_connect(conn, rc)
        client.on_disconnect = lambda c, u, f, rc, p=None: self._on_disconnect(conn, rc)
        client.on_publish = lambda c, u, mid, rc, p=None: self._on_publish(conn, mid, rc)
        client.on_message = lambda c, u, msg: self._on_message(msg)
        try:
            if cfg.tls:
                ctx = ssl.create_default_context(
                    cafile=str(cfg.ca_file) if cfg.ca_file else None)
                client.tls_set_context(ctx)
            extra: dict[str, Any] = {}
            if version == mqtt.MQTTv5:
                props = Properties(PacketTypes.CONNECT)
                props.SessionExpiryInterval = 0
                extra = {"clean_start": True, "properties": props}
            client.connect(cfg.host, cfg.port, keepalive=cfg.keepalive, **extra)
        except ssl.SSLError as exc:
            self._failed(f"TLS refused by {cfg.host}:{cfg.port}: {exc.reason or exc}")
            return
        except (OSError, ValueError) as exc:
            why = getattr(exc, "strerror", None) or str(exc) or type(exc).__name__
            self._failed(f"cannot reach {cfg.host}:{cfg.port}: {why}")
            return
        self._conn = conn

    def _failed(self, why: str, state: str = "offline") -> None:
        self._set_state(state, why)
        self._schedule_retry()

    def _schedule_retry(self) -> None:
        self._next_attempt = time.monotonic() + self._backoff
        self._backoff = min(self.opt.backoff_max, self._backoff * 2)

    def _on_connect(self, conn: _Conn, rc: Any) -> None:
        if conn is not self._conn:
            return
        if rc.is_failure:
            text = str(rc)
            if conn.version == mqtt.MQTTv5 and self.opt.protocol == "auto" and (
                    "protocol" in text.lower() or rc.value in (1, 0x84)):
                log.info("club: the broker speaks MQTT 3.1.1 only; using it")
                self._protocol = mqtt.MQTTv311
                self._drop(conn)
                self._next_attempt = 0.0
                return
            refused = rc.value in (4, 5, 0x86, 0x87, 0x8C)
            self._drop(conn)
            self._failed(f"the broker refused this table: {text}",
                         "refused" if refused else "offline")
            return
        conn.connected = True
        conn.heard = time.time()
        self._backoff = self.opt.backoff_min
        self._requeue_recent()
        self._set_state("online", f"connected to {self.cfg.host}:{self.cfg.port}")
        conn.client.subscribe([(self.cfg.topic("seating"), 1), (self.cfg.topic("status"), 1)])
        self._publish_status()

    def _on_disconnect(self, conn: _Conn, rc: Any) -> None:
        if conn is self._conn:
            self._lost(f"disconnected: {rc}")

    def _lost(self, why: str) -> None:
        conn = self._conn
        if conn is None:
            return
        self._mark_resend(conn)
        if not conn.connected and self.opt.protocol == "auto":
            # Closed before any CONNACK we could read: an MQTT 3.1.1 broker answers an MQTT 5
            # CONNECT with a short refusal paho cannot parse. Alternate until one works.
            self._protocol = mqtt.MQTTv311 if conn.version == mqtt.MQTTv5 else mqtt.MQTTv5
        self._drop(conn)
        self._failed(why)

    def _drop(self, conn: _Conn) -> None:
        """Forget a connection: what it had in flight is sent again on the next one."""
        for item in conn.inflight.values():
            item.mid = None
        conn.inflight.clear()
        if self._conn is conn:
            self._conn = None
        conn.connected = False
        with contextlib.suppress(Exception):
            conn.client.on_disconnect = None
            conn.client.disconnect()
        with contextlib.suppress(Exception):
            sock = conn.client.socket()
            if sock is not None:
                sock.close()

    def _on_publish(self, conn: _Conn, mid: int, rc: Any) -> None:
        conn.heard = time.time()
        item = conn.inflight.pop(mid, None)
        if item is None:
            return  # our status message, or an item of a connection already dropped
        if rc is not None and getattr(rc, "is_failure", False):
            item.mid = None
            log.error("club: the broker refused game %s: %s", item.id, rc)
            self._lost_refused(f"the broker refuses this table's games ({rc})")
            return
        self._acked(item)

    def _lost_refused(self, why: str) -> None:
        conn = self._conn
        if conn is not None:
            self._drop(conn)
        self._backoff = max(self._backoff, self.opt.backoff_max / 2)
        self._failed(why, "refused")

    # ---- what the broker sends -------------------------------------------------------------

    def _on_message(self, msg: Any) -> None:
        try:
            if msg.topic == self.cfg.topic("seating"):
                self._seating(bytes(msg.payload))
            elif msg.topic == self.cfg.topic("status"):
                self._status_seen(bytes(msg.payload))
        except Exception:  # a message must never end the link; say what happened
            log.exception("club: a message on %s could not be handled", msg.topic)

    def _seating(self, data: bytes) -> None:
        if not data:
            log.info("club: the club server withdrew the seating; the table keeps its own")
            return
        try:
            seating = parse_seating(data)
        except SeatingError as exc:
            self.seating_problems += 1
            log.warning("club: seating from the club server not applied: %s", exc)
            return
        path = self.spool / SEATING_FILE
        current = read_json(path) or {}
        current.pop("received", None)
        if current == seating.to_json():
            return  # the retained seating again, after a reconnect
        write_json(path, {**seating.to_json(), "received": self.clock()})
        log.info("club: new seating: tournament %s, series %s, %s", seating.tournament,
                 seating.series, ", ".join(seating.names))

    def _status_seen(self, data: bytes) -> None:
        try:
            obj = parse_status(data)
        except StatusPayloadError as exc:
            log.warning("club: a message on this table's status topic is not a status (%s); "
                        "it is corrected", exc)
            if self.online:
                self._publish_status(force=True)
            return
        if obj.get("table") != self.cfg.table or (
                obj.get("state") == "offline" and self.online):
            # A last will of an earlier connection that came after our own status.
            self._publish_status(force=True)

    # ---- the table's status ----------------------------------------------------------------

    def _poll_table(self) -> None:
        path = self.spool / TABLE_FILE
        m = mtime(path)
        if m is None or m == self._table_mtime:
            return
        self._table_mtime = m
        state = TableState.from_json(read_json(path))
        if state is None:
            log.warning("club: %s is not a table state; the status stays %s", path,
                        self.table.state)
            return
        if state != self.table:
            self.table = state
            self._publish_status()

    def _publish_status(self, force: bool = False) -> None:
        if not self.online:
            return
        assert self._conn is not None
        payload = encode(status_message(self.cfg, self.table.state, self.table, self.clock()))
        if not force and payload == self._last_status_sent:
            return
        self._conn.client.publish(self.cfg.topic("status"), payload, qos=1, retain=True)
        self._last_status_sent = payload

    def _set_state(self, state: str, detail: str) -> None:
        was_online = self.state == "online"
        if state != self.state:
            if state == "online" or was_online or self.state == "connecting":
                self.since = self.clock()
            quiet = state == "online" or self._closed
            log.log(logging.INFO if quiet else logging.WARNING, "club: %s (%s)", state, detail)
        elif detail != self.detail:
            log.info("club: still %s (%s)", state, detail)
        self.state, self.detail = state, detail
        self._write_status(now=True)

    def _write_status(self, now: bool = False) -> None:
        key = (self.state, self.since, self.waiting, self.detail)
        if key == self._status_written:
            return
        t = time.monotonic()
        if not now and t - self._status_at < self.opt.status_every and (
                self._status_written is not None and self._status_written[0] == self.state):
            return
        status = LinkStatus(self.state, self.since, self.waiting,
                            f"{self.cfg.host}:{self.cfg.port}", self.detail, self.clock())
        try:
            write_json(self.spool / STATUS_FILE, status.to_json())
        except OSError as exc:
            log.warning("club: cannot write %s: %s", self.spool / STATUS_FILE, exc)
            return
        self._status_written, self._status_at = key, t

    # ---- the end ---------------------------------------------------------------------------

    def close(self, goodbye: bool = True) -> None:
        """Stop: say "offline" on the retained status first (a clean stop sends no will)."""
        if self._closed:
            return
        self._closed = True
        conn = self._conn
        if conn is not None and conn.connected and goodbye:
            with contextlib.suppress(Exception):
                payload = encode(status_message(self.cfg, "offline", self.table, self.clock()))
                info = conn.client.publish(self.cfg.topic("status"), payload, qos=1,
                                           retain=True)
                deadline = time.monotonic() + 2.0
                while not info.is_published() and time.monotonic() < deadline:
                    conn.client.loop(timeout=0.1)
        if conn is not None:
            self._drop(conn)
        self._record_acks()
        self._set_state("offline", "the link was stopped")
        self.ledger.close()

