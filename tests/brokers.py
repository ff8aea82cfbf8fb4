"""Real MQTT brokers for the tests: Mosquitto on a free loopback port, or amqtt in-process.

The club traffic (DESIGN.md "Club") is tested against a real broker, started by the test
itself, never against a mock. Mosquitto (Debian package ``mosquitto``;
``tests/system-packages.sh``, which ``make test`` runs, installs it) runs as a child process with
a generated config: a password file made with ``mosquitto_passwd``, an ACL file, persistence in
the test's directory, and optionally a TLS listener with a CA and server certificate made by the
test (``cryptography``). With ``SKAT_TEST_BROKER=amqtt`` (``make test-full`` runs the club and
link tests once more so) the same tests run against amqtt started in-process (a thread with its
own event loop) with the same accounts and ACL. Nothing is skipped silently: the pytest header
and each test's report say which broker ran (``broker: mosquitto 2.0.11 ...``), and where
Mosquitto is missing the fixtures fail with one line saying how to install it (no fallback).

API (fixtures in ``tests/conftest.py``)
---------------------------------------

``mqtt_broker``
    A running broker for one test, with the accounts of :func:`club_spec` for club ``c1`` and
    tables ``t1``, ``t2``, ``t3``: user ``server`` (reads and writes everything under
    ``skat/``), one user per table whose name is the table id (writes only its own
    ``skat/c1/table/<id>/status`` and ``/game``, reads its own ``/seating`` and the
    tournament topics), and ``watcher`` (reads everything, writes nothing).

``broker_factory(spec=None, *, tls=False)``
    Start more brokers, or brokers with your own :class:`BrokerSpec` (accounts, ACL rules);
    all are stopped when the test ends. ``tls=True`` adds a TLS listener.

``broker_kind``
    ``"mosquitto"`` or ``"amqtt"``: what this run uses (``SKAT_TEST_BROKER`` forces one).

A :class:`Broker` has:

- ``kind`` (``"mosquitto"``/``"amqtt"``), ``host`` (``127.0.0.1``), ``port``, ``tls_port``
  (``None`` without TLS), ``ca_file`` (PEM of the CA that signed the server certificate, for
  ``localhost`` and ``127.0.0.1``), ``directory`` (its files);
- ``url(tls=False)``: ``mqtt://127.0.0.1:PORT`` or ``mqtts://localhost:TLSPORT``;
- ``password(user)`` and ``password_file(user)`` (a file holding that password only, as the
  link's ``[club]`` config wants);
- ``stop()`` (SIGTERM: Mosquitto saves its persistence file), ``kill()`` (SIGKILL; amqtt: as
  stop), ``start()`` (same port, same files), ``restart()``; ``running``. Its ports lie below
  the kernel's ephemeral range, so that no outgoing connection takes one while it is down;
- ``persistent``: whether a stop and start keep retained messages and queued QoS 1 messages
  of persistent sessions (Mosquitto yes; amqtt keeps nothing);
- ``protocol``: the newest MQTT version it speaks (5 for Mosquitto, 4 = 3.1.1 for amqtt);
- ``wait_saved(after)``: wait until Mosquitto has written its persistence file after the
  epoch time ``after`` (a club broker that has run a while has the server's session saved;
  one killed before its first save comes back without it); amqtt saves nothing: returns;
- ``log_text()``: what the broker logged; ``describe()``: one line for reports.

Clients for tests (paho-mqtt, loop in a thread): ``connect(broker, user)`` returns a connected
client; ``Recorder(broker, user, "skat/#")`` subscribes (QoS 1; ``clean=False`` for a
persistent session) and keeps every message in ``messages`` (``Message(topic, payload,
retain)``); ``recorder.wait_for(lambda msgs: ..., timeout)`` waits until the test's condition
holds and returns it; ``pause()`` and ``resume()`` (a club server away and back: its
persistent session gets what was queued meanwhile); ``close()``.

Example (a test)::

    def test_something(mqtt_broker):
        client = paho.mqtt.client.Client(...)
        client.username_pw_set("t1", mqtt_broker.password("t1"))
        client.connect(mqtt_broker.host, mqtt_broker.port)

Outside pytest: ``with start_broker(club_spec("c1", ["t1"]), Path(tmp)) as broker: ...``.
"""

from __future__ import annotations

import contextlib
import datetime
import ipaddress
import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import threading
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

KINDS = ("mosquitto", "amqtt")
ENV_KIND = "SKAT_TEST_BROKER"
_SBIN = ("/usr/sbin", "/usr/local/sbin", "/sbin")


class BrokerUnavailable(RuntimeError):
    """No broker can run here; the message says what to install."""


# ---- what a broker is set up with ----------------------------------------------------------


@dataclass(frozen=True)
class AclRule:
    """One line of access control, in Mosquitto's terms.

    ``access`` is ``read`` (subscribe and receive), ``write`` (publish) or ``readwrite``;
    ``topic`` may hold MQTT wildcards and, in a pattern (``user`` None: it applies to every
    user), ``%u`` for the user name.

    >>> AclRule("write", "skat/c1/table/%u/game").mosquitto_line()
    'pattern write skat/c1/table/%u/game'
    """

    access: str
    topic: str
    user: str | None = None

    def __post_init__(self) -> None:
        if self.access not in ("read", "write", "readwrite"):
            raise ValueError(f"ACL access must be read, write or readwrite, not {self.access!r}")

    def mosquitto_line(self) -> str:
        if self.user is None:
            return f"pattern {self.access} {self.topic}"
        return f"topic {self.access} {self.topic}"

    def topic_for(self, user: str) -> str:
        return self.topic.replace("%u", user)


@dataclass(frozen=True)
class BrokerSpec:
    """Accounts (user -> password) and ACL rules; no anonymous access."""

    users: dict[str, str]
    acl: tuple[AclRule, ...] = ()
    # Messages Mosquitto queues for a persistent session that is offline (its default of 1000
    # would drop games of a long run while the subscriber is away).
    max_queued_messages: int = 1_000_000

    def allows(self, user: str, access: str, topic: str) -> bool:
        """Whether ``user`` may read or write ``topic`` (a topic name, or for ``read`` a
        subscription filter that the rule must cover)."""
        for rule in self.acl:
            if rule.user not in (None, user) or (access not in rule.access):
                continue
            if _covers(rule.topic_for(user), topic):
                return True
        return False


def club_spec(club: str, tables: Iterable[str], *, server: str = "server",
              watcher: str = "watcher") -> BrokerSpec:
    """The production layout of DESIGN.md: a table's user name is its table id.

    >>> spec = club_spec("c1", ["t1", "t2"])
    >>> spec.allows("t1", "write", "skat/c1/table/t1/game")
    True
    >>> spec.allows("t1", "write", "skat/c1/table/t2/game")
    False
    >>> spec.allows("t1", "read", "skat/c1/table/t1/seating")
    True
    >>> spec.allows("server", "read", "skat/#")
    True
    """
    users = {t: secrets.token_hex(8) for t in tables}
    users[server] = secrets.token_hex(8)
    users[watcher] = secrets.token_hex(8)
    base = f"skat/{club}"
    acl = (
        AclRule("readwrite", "skat/#", user=server),
        AclRule("read", "skat/#", user=watcher),
        AclRule("write", f"{base}/table/%u/status"),
        AclRule("write", f"{base}/table/%u/game"),
        AclRule("read", f"{base}/table/%u/status"),
        AclRule("read", f"{base}/table/%u/seating"),
        AclRule("read", f"{base}/tournament/#"),
    )
    return BrokerSpec(users=users, acl=acl)


def _covers(allowed: str, wanted: str) -> bool:
    """Whether the ACL topic ``allowed`` covers the topic or filter ``wanted``.

    >>> _covers("skat/#", "skat/c1/table/t1/game"), _covers("a/+/c", "a/b/c")
    (True, True)
    >>> _covers("a/+/c", "a/#"), _covers("a/b", "a/b/c")
    (False, False)
    """
    a, w = allowed.split("/"), wanted.split("/")
    for i, level in enumerate(a):
        if level == "#":
            return True
        if i >= len(w) or w[i] == "#":
            return False
        if level == "+":
            if w[i] == "#":
                return False
            continue
        if level != w[i]:
            return False
    return len(a) == len(w)


# ---- choosing the broker -------------------------------------------------------------------


def mosquitto_binary() -> str | None:
    found = shutil.which("mosquitto")
    if found:
        return found
    for d in _SBIN:
        p = Path(d) / "mosquitto"
        if p.exists() and os.access(p, os.X_OK):
            return str(p)
    return None


def _passwd_binary() -> str:
    found = shutil.which("mosquitto_passwd")
    if found:
        return found
    for d in ("/usr/bin", *_SBIN):
        p = Path(d) / "mosquitto_passwd"
        if p.exists():
            return str(p)
    raise BrokerUnavailable(MOSQUITTO_MISSING)


def amqtt_available() -> bool:
    try:
        import amqtt.broker  # noqa: F401
    except ImportError:
        return False
    return True


MOSQUITTO_MISSING = ("missing Debian packages for the tests: mosquitto; install them with: "
                     "sudo apt-get install mosquitto (or run make test, which installs it)")


def chosen_kind() -> str:
    """``SKAT_TEST_BROKER`` if set, else Mosquitto; never amqtt unasked."""
    forced = os.environ.get(ENV_KIND, "").strip().lower()
    if forced:
        if forced not in KINDS:
            raise BrokerUnavailable(f"{ENV_KIND}={forced!r}: use one of {', '.join(KINDS)}")
        if forced == "mosquitto" and mosquitto_binary() is None:
            raise BrokerUnavailable(MOSQUITTO_MISSING)
        if forced == "amqtt" and not amqtt_available():
            raise BrokerUnavailable(f"{ENV_KIND}=amqtt but amqtt is not installed")
        return forced
    if mosquitto_binary() is not None:
        return "mosquitto"
    raise BrokerUnavailable(MOSQUITTO_MISSING)


def mosquitto_version() -> str:
    binary = mosquitto_binary()
    if binary is None:
        return "not installed"
    out = subprocess.run([binary, "-h"], capture_output=True, text=True, timeout=10)
    m = re.search(r"mosquitto version (\S+)", out.stdout + out.stderr)
    return m.group(1) if m else "unknown version"


def describe_kind(kind: str) -> str:
    if kind == "mosquitto":
        return f"mosquitto {mosquitto_version()} ({mosquitto_binary()})"
    from importlib.metadata import version

    return f"amqtt {version('amqtt')} (in-process; chosen by {ENV_KIND})"


# ---- ports and certificates ----------------------------------------------------------------


def free_port(host: str = "127.0.0.1") -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((host, 0))
        return int(s.getsockname()[1])


def _ephemeral_range() -> tuple[int, int]:
    try:
        low, high = Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()
        return int(low), int(high)
    except (OSError, ValueError):
        return 32768, 60999


def restartable_port(host: str = "127.0.0.1") -> int:
    """A free port below the kernel's ephemeral range, for a broker that is restarted on the
    same port: a port of that range can be taken meanwhile as the local port of any outgoing
    connection on the machine ("Address already in use" when the broker comes back)."""
    import random

    low = _ephemeral_range()[0]
    top = low - 1 if low > 12000 else 65535
    bottom = 10000 if low > 12000 else _ephemeral_range()[1] + 1
    for _ in range(200):
        port = random.randint(bottom, top)
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
            try:
                s.bind((host, port))
            except OSError:
                continue
            return port
    return free_port(host)


def wait_for_port(host: str, port: int, timeout: float = 10.0, alive: Any = None) -> None:
    deadline = time.monotonic() + timeout
    while True:
        try:
            with socket.create_connection((host, port), timeout=0.5):
                return
        except OSError:
            if alive is not None and not alive():
                raise BrokerUnavailable(f"the broker exited before listening on {port}") from None
            if time.monotonic() > deadline:
                raise BrokerUnavailable(f"no broker listening on {host}:{port} after "
                                        f"{timeout:.0f} s") from None
            time.sleep(0.02)


@dataclass(frozen=True)
class TlsFiles:
    ca_file: Path
    cert_file: Path
    key_file: Path


def make_certificates(directory: Path, hosts: tuple[str, ...] = ("localhost", "127.0.0.1")
                      ) -> TlsFiles:
    """A CA and a server certificate it signed, for ``hosts`` (names and IP addresses)."""
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

    now = datetime.datetime.now(datetime.UTC)
    ca_key = ec.generate_private_key(ec.SECP256R1())
    ca_name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "skat-table test CA")])
    ca_cert = (
        x509.CertificateBuilder().subject_name(ca_name).issuer_name(ca_name)
        .public_key(ca_key.public_key()).serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(days=2))
        .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
        .add_extension(x509.KeyUsage(digital_signature=True, key_cert_sign=True, crl_sign=True,
                                     content_commitment=False, key_encipherment=False,
                                     data_encipherment=False, key_agreement=False,
                                     encipher_only=False, decipher_only=False), critical=True)
        .sign(ca_key, hashes.SHA256())
    )
    key = ec.generate_private_key(ec.SECP256R1())
    names: list[x509.GeneralName] = []
    for h in hosts:
        try:
            names.append(x509.IPAddress(ipaddress.ip_address(h)))
        except ValueError:
            names.append(x509.DNSName(h))
    cert = (
        x509.CertificateBuilder()
        .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, hosts[0])]))
        .issuer_name(ca_name).public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(days=2))
        .add_extension(x509.SubjectAlternativeName(names), critical=False)
        .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
        .sign(ca_key, hashes.SHA256())
    )
    directory.mkdir(parents=True, exist_ok=True)
    files = TlsFiles(directory / "ca.pem", directory / "server.pem", directory / "server.key")
    files.ca_file.write_bytes(ca_cert.public_bytes(serialization.Encoding.PEM))
    files.cert_file.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    files.key_file.write_bytes(key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.TraditionalOpenSSL,
        serialization.NoEncryption()))
    files.key_file.chmod(0o600)
    return files


# ---- the broker ----------------------------------------------------------------------------


@dataclass
class Broker:
    """A broker this test started; see the module docstring."""

    kind: str
    spec: BrokerSpec
    directory: Path
    port: int
    tls: TlsFiles | None = None
    tls_port: int | None = None
    host: str = "127.0.0.1"
    _proc: subprocess.Popen[bytes] | None = field(default=None, repr=False)
    _amqtt: Any = field(default=None, repr=False)

    @property
    def persistent(self) -> bool:
        return self.kind == "mosquitto"

    @property
    def protocol(self) -> int:
        """The newest MQTT version it speaks: 5 (Mosquitto) or 4, i.e. 3.1.1 (amqtt)."""
        return 5 if self.kind == "mosquitto" else 4

    @property
    def ca_file(self) -> Path | None:
        return self.tls.ca_file if self.tls else None

    def url(self, tls: bool = False) -> str:
        if tls:
            if self.tls_port is None:
                raise ValueError("this broker was started without TLS (tls=True)")
            return f"mqtts://localhost:{self.tls_port}"
        return f"mqtt://{self.host}:{self.port}"

    def password(self, user: str) -> str:
        return self.spec.users[user]

    def password_file(self, user: str) -> Path:
        path = self.directory / "secrets" / f"{user}.password"
        if not path.exists():
            path.parent.mkdir(exist_ok=True)
            path.write_text(self.password(user) + "\n", encoding="utf-8")
            path.chmod(0o600)
        return path

    def describe(self) -> str:
        tls = f", TLS on {self.tls_port}" if self.tls_port else ""
        return f"{describe_kind(self.kind)} at {self.host}:{self.port}{tls}"

    # ---- life ----

    @property
    def running(self) -> bool:
        if self.kind == "mosquitto":
            return self._proc is not None and self._proc.poll() is None
        return self._amqtt is not None

    def start(self) -> None:
        if self.running:
            return
        if self.kind == "mosquitto":
            self._start_mosquitto()
        else:
            self._start_amqtt()

    def stop(self) -> None:
        """Stop cleanly (SIGTERM): Mosquitto writes its persistence file first."""
        self._end(signal.SIGTERM)

    def kill(self) -> None:
        """Kill at once (SIGKILL): what Mosquitto did not save yet is gone."""
        self._end(signal.SIGKILL)

    def restart(self, kill: bool = False) -> None:
        (self.kill if kill else self.stop)()
        self.start()

    def _end(self, sig: int) -> None:
        if self.kind == "mosquitto":
            proc, self._proc = self._proc, None
            if proc is not None and proc.poll() is None:
                proc.send_signal(sig)
                try:
                    proc.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait(timeout=10)
        elif self._amqtt is not None:
            runner, self._amqtt = self._amqtt, None
            runner.stop()

    def wait_saved(self, after: float, timeout: float = 10.0) -> None:
        """Wait until the persistence file was written after ``after`` (epoch seconds)."""
        if self.kind != "mosquitto":
            return
        path = self.directory / "mosquitto.db"
        deadline = time.monotonic() + timeout
        while True:
            with contextlib.suppress(FileNotFoundError):
                if path.stat().st_mtime > after:
                    return
            if time.monotonic() > deadline:
                raise TimeoutError(f"Mosquitto did not save {path} within {timeout:g} s")
            time.sleep(0.05)

    def log_text(self) -> str:
        path = self.directory / "broker.log"
        return path.read_text(encoding="utf-8", errors="replace") if path.exists() else ""

    # ---- Mosquitto ----

    def _write_mosquitto_files(self) -> Path:
        d = self.directory
        passwd = d / "passwd"
        passwd.write_text("".join(f"{u}:{p}\n" for u, p in self.spec.users.items()),
                          encoding="utf-8")
        passwd.chmod(0o600)
        # -U hashes every password of a plain "user:password" file in place.
        subprocess.run([_passwd_binary(), "-U", str(passwd)], check=True, capture_output=True,
                       timeout=30)
        lines: list[str] = []
        for rule in self.spec.acl:
            if rule.user is None:
                lines.append(rule.mosquitto_line())
        by_user: dict[str, list[AclRule]] = {}
        for rule in self.spec.acl:
            if rule.user is not None:
                by_user.setdefault(rule.user, []).append(rule)
        for user, rules in by_user.items():
            lines.append(f"\nuser {user}")
            lines += [r.mosquitto_line() for r in rules]
        (d / "acl").write_text("\n".join(lines) + "\n", encoding="utf-8")
        conf = [
            "per_listener_settings false",
            "allow_anonymous false",
            f"password_file {passwd}",
            f"acl_file {d / 'acl'}",
            "persistence true",
            f"persistence_location {d}/",
            "autosave_interval 1",
            f"max_queued_messages {self.spec.max_queued_messages}",
            "max_inflight_messages 0",
            f"log_dest file {d / 'broker.log'}",
            "log_type error",
            "log_type warning",
            "log_type notice",
            "log_type information",
            "connection_messages true",
            "log_timestamp_format %H:%M:%S",
            # Started as root (CI), Mosquitto would switch to user "mosquitto" and lose access
            # to the test's files; as anyone else this line is ignored.
            "user root" if os.geteuid() == 0 else "",
            f"listener {self.port} {self.host}",
        ]
        if self.tls is not None and self.tls_port is not None:
            conf += [
                f"listener {self.tls_port} {self.host}",
                f"cafile {self.tls.ca_file}",
                f"certfile {self.tls.cert_file}",
                f"keyfile {self.tls.key_file}",
                "tls_version tlsv1.2",
            ]
        path = d / "mosquitto.conf"
        path.write_text("\n".join(c for c in conf if c) + "\n", encoding="utf-8")
        return path

    def _start_mosquitto(self) -> None:
        conf = self.directory / "mosquitto.conf"
        if not conf.exists():
            conf = self._write_mosquitto_files()
        binary = mosquitto_binary()
        if binary is None:
            raise BrokerUnavailable("mosquitto is not installed")
        stderr = (self.directory / "broker.stderr").open("ab")
        self._proc = subprocess.Popen([binary, "-c", str(conf)], stdin=subprocess.DEVNULL,
                                      stdout=stderr, stderr=stderr, start_new_session=True)
        stderr.close()
        proc = self._proc
        try:
            wait_for_port(self.host, self.port, alive=lambda: proc.poll() is None)
            if self.tls_port is not None:
                wait_for_port(self.host, self.tls_port, alive=lambda: proc.poll() is None)
        except BrokerUnavailable as exc:
            self.kill()
            tail = (self.directory / "broker.stderr").read_text(errors="replace")[-2000:]
            raise BrokerUnavailable(f"{exc}\n{tail}\n{self.log_text()[-2000:]}") from None

    # ---- amqtt ----

    def _start_amqtt(self) -> None:
        from brokers_amqtt import AmqttRunner

        runner = AmqttRunner(self.spec, self.host, self.port, self.tls, self.tls_port,
                             self.directory / "broker.log")
        runner.start()
        self._amqtt = runner


def new_broker(kind: str, spec: BrokerSpec, directory: Path, tls: bool) -> Broker:
    directory.mkdir(parents=True, exist_ok=True)
    tls_files = make_certificates(directory / "tls") if tls else None
    last: Exception | None = None
    for _ in range(5):
        # A free port can be taken between our probe and the broker's bind: try another.
        broker = Broker(kind=kind, spec=spec, directory=directory, port=restartable_port(),
                        tls=tls_files, tls_port=restartable_port() if tls else None)
        with contextlib.suppress(FileNotFoundError):
            (directory / "mosquitto.conf").unlink()
        try:
            broker.start()
            return broker
        except (BrokerUnavailable, OSError) as exc:
            last = exc
    raise BrokerUnavailable(f"the {kind} broker did not start: {last}")


@contextlib.contextmanager
def start_broker(spec: BrokerSpec, directory: Path, *, tls: bool = False,
                 kind: str | None = None) -> Iterator[Broker]:
    """A running broker for the ``with`` block; stopped (and its files kept) afterwards."""
    broker = new_broker(kind or chosen_kind(), spec, directory, tls)
    try:
        yield broker
    finally:
        # Persistence and logs stay in ``directory`` for a failing test's post-mortem.
        broker.kill()


# ---- clients for tests -----------------------------------------------------------------------


class ConnectRefused(RuntimeError):
    """The broker refused the connection (the reason is in the message)."""


def connect(broker: Broker, user: str | None, *, password: str | None = None,
            tls: bool = False, client_id: str = "", clean: bool = True,
            ca_file: Path | None = None, timeout: float = 10.0, on_message: Any = None) -> Any:
    """A paho client connected as ``user`` (its network loop running in a thread).
    ``on_message`` is set before it connects: a persistent session's queued messages may come
    at once."""
    import paho.mqtt.client as mqtt

    version = mqtt.MQTTv5 if broker.protocol == 5 else mqtt.MQTTv311
    kwargs: dict[str, Any] = {"client_id": client_id, "protocol": version}
    if version != mqtt.MQTTv5:
        kwargs["clean_session"] = clean
    client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, **kwargs)
    if user is not None:
        client.username_pw_set(user, broker.password(user) if password is None else password)
    if tls:
        client.tls_set(ca_certs=str(ca_file or broker.ca_file))
    done = threading.Event()
    result: dict[str, Any] = {}

    def on_connect(c: Any, userdata: Any, flags: Any, reason: Any, props: Any = None) -> None:
        result["reason"] = reason
        done.set()

    client.on_connect = on_connect
    if on_message is not None:
        client.on_message = on_message
    port = broker.tls_port if tls else broker.port
    host = "localhost" if tls else broker.host
    connect_kwargs: dict[str, Any] = {}
    if version == mqtt.MQTTv5:
        from paho.mqtt.packettypes import PacketTypes
        from paho.mqtt.properties import Properties

        props = Properties(PacketTypes.CONNECT)
        props.SessionExpiryInterval = 0 if clean else 3600
        connect_kwargs = {"clean_start": clean, "properties": props}
    try:
        client.connect(host, port, keepalive=30, **connect_kwargs)
    except OSError as exc:
        raise ConnectRefused(f"cannot connect: {exc}") from None
    client.loop_start()
    if not done.wait(timeout):
        client.loop_stop()
        raise ConnectRefused("no CONNACK (TLS refused or broker silent)")
    reason = result["reason"]
    if getattr(reason, "is_failure", False):
        client.loop_stop()
        client.disconnect()
        raise ConnectRefused(str(reason))
    return client


@dataclass(frozen=True)
class Message:
    topic: str
    payload: bytes
    retain: bool


class Recorder:
    """Subscribes to ``topic`` and keeps what arrives (see the module docstring)."""

    def __init__(self, broker: Broker, user: str, topic: str = "skat/#", *,
                 client_id: str = "", clean: bool = True, qos: int = 1) -> None:
        self.messages: list[Message] = []
        self._cond = threading.Condition()
        self._subscribed = threading.Event()
        self._topic, self._qos = topic, qos
        self._args = (broker, user, client_id, clean)
        self.client: Any = None
        self.resume()

    def resume(self) -> None:
        """Connect (again, after :meth:`pause`): a persistent session gets what the broker
        queued meanwhile."""
        broker, user, client_id, clean = self._args
        self._subscribed.clear()
        self.client = connect(broker, user, client_id=client_id, clean=clean,
                              on_message=self._on_message)
        self.client.on_subscribe = lambda *a: self._subscribed.set()
        self.client.subscribe(self._topic, self._qos)
        if not self._subscribed.wait(10):
            raise ConnectRefused(f"no SUBACK for {self._topic}")

    def pause(self) -> None:
        """Disconnect (the club server away); with ``clean=False`` the broker keeps queueing."""
        self.close()

    def _on_message(self, client: Any, userdata: Any, msg: Any) -> None:
        with self._cond:
            self.messages.append(Message(msg.topic, bytes(msg.payload), bool(msg.retain)))
            self._cond.notify_all()

    def wait_for(self, condition: Any, timeout: float = 10.0) -> Any:
        """Wait until ``condition(messages)`` is true; return its value (falsy on timeout)."""
        deadline = time.monotonic() + timeout
        with self._cond:
            while True:
                value = condition(list(self.messages))
                left = deadline - time.monotonic()
                if value or left <= 0:
                    return value
                self._cond.wait(min(left, 0.5))

    def close(self) -> None:
        if self.client is not None:
            self.client.disconnect()
            self.client.loop_stop()
            self.client = None
