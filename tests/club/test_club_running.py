"""Running the club without a technician: the club's Mosquitto configuration, the club
server's systemd unit and its installer.

- ``systemd/mosquitto/skat-club.conf`` and ``skat-club.acl`` start a real Mosquitto as they
  are, under Debian's own ``mosquitto.conf`` (which includes ``conf.d``): only the paths of
  the password file, the ACL, the persistence and the log, and the port, point into the
  test's directory. Run as root, the broker drops to user ``mosquitto`` before it reads the
  files, so the owner and mode the docs give are what is tested (root's own 0600 file is
  refused). A table connects with its account; anonymous and a wrong password are refused;
  a table cannot publish on another table's topics nor read another table's seating; the
  server reads the games and writes the seatings; a message over ``message_size_limit`` is
  dropped (its PUBACK says so) and one at the limit arrives; the retained state is saved
  within a second or two.
- ``systemd/skat-table-club.service``: ``systemd-analyze verify`` and the settings that
  matter (restart on failure, not on a wrong config, its user, its directories, hardening).
- ``systemd/install-club.sh`` run for real as root in the install sandbox
  (``tests/controller/installsandbox.py``): user, directories, the config and its password
  with their modes, the broker's files and accounts, the unit enabled and started; the
  config it writes loads; a second run changes nothing.
"""

from __future__ import annotations

import importlib.util
import os
import pwd
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
import pytest
from brokers import free_port, mosquitto_binary, wait_for_port
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties

ROOT = Path(__file__).resolve().parents[2]
MOSQUITTO = ROOT / "systemd" / "mosquitto"
UNIT = ROOT / "systemd" / "skat-table-club.service"
INSTALL_CLUB = ROOT / "systemd" / "install-club.sh"
LIMIT = 262144

# What Debian's mosquitto package ships as /etc/mosquitto/mosquitto.conf (bookworm, trixie).
DEBIAN_MAIN = """\
pid_file /run/mosquitto/mosquitto.pid

persistence true
persistence_location /var/lib/mosquitto/

log_dest file /var/log/mosquitto/mosquitto.log

include_dir /etc/mosquitto/conf.d
"""


def _settings(text: str) -> list[str]:
    return [line.strip() for line in text.splitlines()
            if line.strip() and not line.lstrip().startswith("#")]


def test_the_shipped_broker_settings_are_the_documented_ones() -> None:
    conf = _settings((MOSQUITTO / "skat-club.conf").read_text(encoding="utf-8"))
    assert "allow_anonymous false" in conf and "listener 1883" in conf
    assert "password_file /etc/mosquitto/skat-club/passwd" in conf
    assert "acl_file /etc/mosquitto/skat-club/acl" in conf
    assert f"message_size_limit {LIMIT}" in conf
    assert {"persistence true", "autosave_interval 1", "autosave_on_changes false"} <= set(conf)
    # Debian's main file names the persistence location; a second one stops Mosquitto.
    assert not [c for c in conf if c.startswith(("persistence_location", "pid_file"))]
    docs = (ROOT / "docs" / "club.md").read_text(encoding="utf-8")
    assert "message_size_limit 262144" in docs and "mosquitto:mosquitto" in docs


# ---- a real Mosquitto from the shipped files ------------------------------------------------


class ClubBroker:
    """Mosquitto started from Debian's main file and the shipped conf.d file and ACL."""

    def __init__(self, directory: Path, users: dict[str, str]) -> None:
        self.directory = directory
        self.users = users
        self.port = free_port()
        self.proc: subprocess.Popen[bytes] | None = None
        # Root: the broker drops to user mosquitto before it reads the files, as on the club's
        # box; the files get the owner the docs give. Anyone else: the broker stays that user.
        self.owner = pwd.getpwnam("mosquitto") if os.geteuid() == 0 else None

    def _own(self, path: Path, mode: int) -> None:
        path.chmod(mode)
        if self.owner is not None:
            os.chown(path, self.owner.pw_uid, self.owner.pw_gid)

    def write(self) -> Path:
        d = self.directory
        for sub in ("conf.d", "skat-club", "data", "log"):
            (d / sub).mkdir(parents=True, exist_ok=True)
        for sub in ("data", "log"):
            self._own(d / sub, 0o755)
        passwd = d / "skat-club" / "passwd"
        passwd.write_text("".join(f"{u}:{p}\n" for u, p in self.users.items()), encoding="utf-8")
        if self.users:
            subprocess.run(["mosquitto_passwd", "-U", str(passwd)], check=True, timeout=30,
                           capture_output=True)
        self._own(passwd, 0o600)
        acl = d / "skat-club" / "acl"
        shutil.copyfile(MOSQUITTO / "skat-club.acl", acl)
        self._own(acl, 0o600)
        # The shipped file, with its paths in this directory and a free port: nothing else.
        conf = (MOSQUITTO / "skat-club.conf").read_text(encoding="utf-8")
        conf = conf.replace("/etc/mosquitto/skat-club/", f"{d}/skat-club/")
        assert conf.count("listener 1883\n") == 1
        conf = conf.replace("listener 1883\n", f"listener {self.port} 127.0.0.1\n")
        (d / "conf.d" / "skat-club.conf").write_text(conf, encoding="utf-8")
        main = (DEBIAN_MAIN.replace("/run/mosquitto/", f"{d}/log/")
                .replace("/var/lib/mosquitto/", f"{d}/data/")
                .replace("/var/log/mosquitto/", f"{d}/log/")
                .replace("/etc/mosquitto/conf.d", f"{d}/conf.d"))
        (d / "mosquitto.conf").write_text(main, encoding="utf-8")
        return d / "mosquitto.conf"

    def start(self) -> ClubBroker:
        conf = self.write()
        binary = mosquitto_binary()
        assert binary, "mosquitto is not installed (make test installs it)"
        err = (self.directory / "stderr").open("wb")
        self.proc = subprocess.Popen([binary, "-c", str(conf)], stdout=err, stderr=err)
        err.close()
        proc = self.proc
        wait_for_port("127.0.0.1", self.port, alive=lambda: proc.poll() is None)
        return self

    def log(self) -> str:
        path = self.directory / "log" / "mosquitto.log"
        return path.read_text(errors="replace") if path.exists() else ""

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)


class Client:
    """An MQTT 5 client (so the broker's refusals are seen in PUBACK and CONNACK)."""

    def __init__(self, port: int, user: str | None, password: str | None,
                 client_id: str = "") -> None:
        self.messages: list[tuple[str, bytes]] = []
        self.acks: dict[int, Any] = {}
        self._cond = threading.Condition()
        self.client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=client_id,
                                  protocol=mqtt.MQTTv5)
        if user is not None:
            self.client.username_pw_set(user, password)
        self.reason: Any = None
        self.client.on_connect = self._on_connect
        self.client.on_message = self._on_message
        self.client.on_publish = self._on_publish
        self.client.on_subscribe = lambda c, u, mid, codes, props: self._note("sub", codes)
        self.client.connect("127.0.0.1", port, keepalive=30,
                            properties=Properties(PacketTypes.CONNECT))
        self.client.loop_start()
        assert self.wait(lambda: self.reason is not None), "no CONNACK"

    def _note(self, key: str, value: Any) -> None:
        with self._cond:
            setattr(self, key, value)
            self._cond.notify_all()

    def _on_connect(self, c: Any, u: Any, flags: Any, reason: Any, props: Any) -> None:
        self._note("reason", reason)

    def _on_message(self, c: Any, u: Any, msg: Any) -> None:
        with self._cond:
            self.messages.append((msg.topic, bytes(msg.payload)))
            self._cond.notify_all()

    def _on_publish(self, c: Any, u: Any, mid: int, reason: Any, props: Any) -> None:
        with self._cond:
            self.acks[mid] = reason
            self._cond.notify_all()

    def wait(self, condition: Any, timeout: float = 10) -> Any:
        deadline = time.monotonic() + timeout
        with self._cond:
            while not (value := condition()) and time.monotonic() < deadline:
                self._cond.wait(0.1)
            return value

    @property
    def refused(self) -> bool:
        return bool(getattr(self.reason, "is_failure", False))

    def subscribe(self, topic: str) -> list[Any]:
        self.sub = None
        self.client.subscribe(topic, qos=1)
        assert self.wait(lambda: self.sub is not None), "no SUBACK"
        return list(self.sub)  # type: ignore[arg-type]

    def publish(self, topic: str, payload: bytes, retain: bool = False) -> Any:
        """Publish with QoS 1 and wait for the broker's PUBACK; its reason code."""
        info = self.client.publish(topic, payload, qos=1, retain=retain)
        assert self.wait(lambda: info.mid in self.acks), f"no PUBACK for {topic}"
        return self.acks[info.mid]

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


@pytest.fixture
def club_broker() -> Iterator[ClubBroker]:
    # Not pytest's tmp_path: its directories are root's alone (0700), and the broker reads its
    # files as user mosquitto.
    d = Path(tempfile.mkdtemp(prefix="skat-club-mosquitto-"))
    d.chmod(0o755)
    users = {"server": "server-secret-1", "1": "table-one-pw", "2": "table-two-pw"}
    broker = ClubBroker(d, users)
    try:
        yield broker.start()
    finally:
        broker.stop()
        shutil.rmtree(d, ignore_errors=True)


def test_the_shipped_mosquitto_config_starts_and_keeps_each_table_to_its_topics(
        club_broker: ClubBroker) -> None:
    port, users = club_broker.port, club_broker.users
    log = club_broker.log()
    assert "Opening ipv4 listen socket" in log and "Warning" not in log, log
    if club_broker.owner is not None:  # the files are readable to the broker only
        for name in ("passwd", "acl"):
            st = (club_broker.directory / "skat-club" / name).stat()
            assert (st.st_uid, st.st_mode & 0o777) == (club_broker.owner.pw_uid, 0o600)
    # Anonymous, a wrong password, an unknown user: refused.
    for user, password in ((None, None), ("1", "wrong"), ("99", "table-one-pw")):
        c = Client(port, user, password)
        assert c.refused, (user, c.reason)
        c.close()
    server = Client(port, "server", users["server"], client_id="club-server")
    assert not server.refused
    granted = server.subscribe("skat/c1/table/+/game")
    assert granted[0].value == 1, granted
    server.subscribe("skat/c1/table/+/status")
    one = Client(port, "1", users["1"])
    two = Client(port, "2", users["2"])
    assert not one.refused and not two.refused
    # The table's own topics.
    assert not one.publish("skat/c1/table/1/game", b'{"game": 1}').is_failure
    assert not one.publish("skat/c1/table/1/status", b'{"state": "idle"}', True).is_failure
    assert server.wait(lambda: len(server.messages) == 2), server.messages
    # Another table's topic: refused in the PUBACK, and nothing reaches the server.
    ack = one.publish("skat/c1/table/2/game", b'{"game": 1, "forged": true}')
    assert ack.is_failure and ack.value == 0x87, ack  # not authorized
    assert one.publish("skat/c1/table/1/seating", b"{}").is_failure  # the server's topic
    assert one.publish("skat/c1/tournament/t/standings", b"{}").is_failure
    # The server writes each table's seating (retained); a table reads only its own.
    one.subscribe("skat/c1/table/+/seating")
    two.subscribe("skat/c1/table/2/seating")
    assert not server.publish("skat/c1/table/2/seating", b'{"series": 1}', True).is_failure
    assert two.wait(lambda: two.messages), "table 2 did not get its seating"
    # What the server sees: exactly the two messages of table 1 and nothing forged.
    assert not two.publish("skat/c1/table/2/game", b'{"game": 1, "table": "2"}').is_failure
    assert server.wait(lambda: len(server.messages) == 3)
    time.sleep(0.5)
    assert [t for t, _ in server.messages] == [
        "skat/c1/table/1/game", "skat/c1/table/1/status", "skat/c1/table/2/game"]
    assert one.messages == [], "table 1 read table 2's seating"
    # A table cannot subscribe to every game (the grant is refused or nothing arrives).
    spy = Client(port, "1", users["1"], client_id="spy")
    codes = spy.subscribe("skat/c1/table/+/game")
    two.publish("skat/c1/table/2/game", b'{"game": 2, "table": "2"}')
    assert server.wait(lambda: len(server.messages) == 4)
    time.sleep(0.3)
    assert spy.messages == [], (codes, spy.messages)
    for c in (server, one, two, spy):
        c.close()


def test_an_oversized_message_is_dropped_by_the_broker(club_broker: ClubBroker) -> None:
    """Over ``message_size_limit`` nothing reaches the server, whichever MQTT version the
    table speaks; at the limit it arrives. (An MQTT 3.1.1 client gets a plain PUBACK; to an
    MQTT 5 client Mosquitto 2.0.11 answers with reason code 149, which is no PUBACK reason
    paho can read: the client drops the connection. Either way the message is gone.)"""
    port, users = club_broker.port, club_broker.users
    server = Client(port, "server", users["server"], client_id="club-server")
    server.subscribe("skat/c1/table/+/game")
    old = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, protocol=mqtt.MQTTv311)
    old.username_pw_set("1", users["1"])
    acked: list[Any] = []
    old.on_publish = lambda c, u, mid, reason, props: acked.append(reason)
    old.connect("127.0.0.1", port)
    old.loop_start()
    old.publish("skat/c1/table/1/game", b"x" * (LIMIT + 1), qos=1).wait_for_publish(10)
    assert acked, "no PUBACK"
    old.disconnect()
    old.loop_stop()
    five = Client(port, "1", users["1"])
    five.client.publish("skat/c1/table/1/game", b"z" * (LIMIT + 1), qos=1)
    time.sleep(1)
    five.close()
    one = Client(port, "1", users["1"])
    at_limit = one.publish("skat/c1/table/1/game", b"y" * LIMIT)
    assert not at_limit.is_failure, at_limit
    assert server.wait(lambda: server.messages)
    time.sleep(0.5)
    assert [(len(p), p[:1]) for _, p in server.messages] == [(LIMIT, b"y")], \
        "an oversized message got through"
    for c in (server, one):
        c.close()


def test_the_broker_saves_its_state_within_seconds(club_broker: ClubBroker) -> None:
    """persistence with autosave_interval 1: the retained seating is on disk at once, and a
    broker restarted from the same files still has it."""
    users = club_broker.users
    server = Client(club_broker.port, "server", users["server"])
    t0 = time.time()
    assert not server.publish("skat/c1/table/1/seating", b'{"series": 1}', True).is_failure
    server.close()
    db = club_broker.directory / "data" / "mosquitto.db"
    deadline = time.monotonic() + 10
    while not (db.exists() and db.stat().st_mtime >= int(t0)) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert db.exists() and db.stat().st_mtime >= int(t0), "nothing saved"
    assert time.time() - t0 < 5
    assert club_broker.proc is not None
    club_broker.proc.kill()  # no save on the way out
    club_broker.proc.wait(10)
    club_broker.start()
    one = Client(club_broker.port, "1", users["1"])
    one.subscribe("skat/c1/table/1/seating")
    assert one.wait(lambda: one.messages), "the retained seating was lost"
    one.close()


# ---- the unit ---------------------------------------------------------------------------------


def _unit_keys() -> dict[str, list[str]]:
    keys: dict[str, list[str]] = {}
    for line in UNIT.read_text(encoding="utf-8").splitlines():
        if "=" in line and not line.lstrip().startswith("#"):
            k, _, v = line.partition("=")
            keys.setdefault(k.strip(), []).append(v.strip())
    return keys


def test_the_club_unit_restarts_a_failed_server_but_not_a_wrong_config() -> None:
    s = _unit_keys()
    assert s["ExecStart"] == [
        "/opt/skat-club/venv/bin/skat-table club serve --config /etc/skat-club/club.toml"]
    assert s["Restart"] == ["on-failure"] and s["RestartPreventExitStatus"] == ["2"]
    assert s["User"] == ["skat-club"] and s["StateDirectory"] == ["skat-club"]
    assert s["ReadWritePaths"] == ["/var/lib/skat-club"]
    assert s["ProtectSystem"] == ["strict"] and s["NoNewPrivileges"] == ["yes"]
    assert "PrivateNetwork" not in s and "AF_INET" in s["RestrictAddressFamilies"][0]
    assert "mosquitto.service" in s["After"][0]
    table = (ROOT / "systemd" / "skat-table.service").read_text(encoding="utf-8")
    for key in ("ProtectKernelTunables", "RestrictNamespaces", "SystemCallFilter",
                "MemoryDenyWriteExecute", "LockPersonality"):
        assert key in s and key in table, key


def _verify(text: str, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    # verify checks that ExecStart exists and the user resolves: stand in for the club box's
    text = text.replace("/opt/skat-club/venv/bin/skat-table", shutil.which("true") or "/bin/true")
    text = text.replace("User=skat-club", "User=root").replace("Group=skat-club", "Group=root")
    path = tmp_path / "skat-table-club.service"
    path.write_text(text, encoding="utf-8")
    return subprocess.run(["systemd-analyze", "verify", str(path)], capture_output=True,
                          text=True, timeout=60)


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="no systemd-analyze here")
def test_systemd_analyze_verifies_the_club_unit(tmp_path: Path) -> None:
    text = UNIT.read_text(encoding="utf-8")
    done = _verify(text, tmp_path)
    assert done.returncode == 0 and "skat-table-club.service" not in done.stderr, done.stderr
    broken = _verify(text.replace("Restart=on-failure", "Restart=on-failures"), tmp_path)
    assert "on-failures" in broken.stderr  # the check sees a broken unit


# ---- the installer ----------------------------------------------------------------------------


def _sandbox() -> Any:
    spec = importlib.util.spec_from_file_location(
        "installsandbox", ROOT / "tests" / "controller" / "installsandbox.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("installsandbox", module)
    spec.loader.exec_module(module)
    return module


SANDBOX = _sandbox()
sandbox = pytest.mark.skipif(SANDBOX.sandbox_works() is not None,
                             reason=f"{SANDBOX.sandbox_works()}")


def test_the_installer_is_valid_shell() -> None:
    done = subprocess.run(["sh", "-n", str(INSTALL_CLUB)], capture_output=True, text=True,
                          timeout=30)
    assert done.returncode == 0, done.stderr


@sandbox
def test_a_fresh_club_install_and_a_second_run_that_changes_nothing(tmp_path: Path) -> None:
    done = SANDBOX.run_install(tmp_path, "3.11", script=INSTALL_CLUB, runs=2)
    assert done.returncode == 0, done.stderr
    first = done.calls[:done.index("--- run 2")]
    second = done.calls[done.index("--- run 2"):]
    # Packages, the user, the package with its club extras, the broker, the unit.
    assert first[0].startswith("apt-get update")
    assert "mosquitto" in first[1].split() and "python3-venv" in first[1].split()
    assert any(c.startswith("useradd --system") and c.endswith("skat-club") for c in first)
    pips = [c for c in first if c.startswith("pip ")]
    assert len(pips) == 1 and pips[0].split()[-2].endswith("/opt/skat-club/src[club]"), pips
    for call in ("systemctl enable mosquitto.service", "systemctl restart mosquitto.service",
                 "systemctl daemon-reload", "systemctl enable skat-table-club.service",
                 "systemctl restart skat-table-club.service"):
        assert call in first, (call, first)
    assert first.index("systemctl restart mosquitto.service") < first.index(
        "systemctl restart skat-table-club.service")
    verify = [c for c in first if c.startswith("systemd-analyze verify")]
    assert verify == ["systemd-analyze verify /etc/systemd/system/skat-table-club.service"]
    # The files and their modes.
    unit = done.wrote("/etc/systemd/system/skat-table-club.service")
    assert unit.read_bytes() == UNIT.read_bytes()
    conf = done.wrote("/etc/mosquitto/conf.d/skat-club.conf")
    assert conf.read_bytes() == (MOSQUITTO / "skat-club.conf").read_bytes()
    acl = done.wrote("/etc/mosquitto/skat-club/acl")
    assert acl.read_bytes() == (MOSQUITTO / "skat-club.acl").read_bytes()
    passwd = done.wrote("/etc/mosquitto/skat-club/passwd")
    config = done.wrote("/etc/skat-club/club.toml")
    server_pw = done.wrote("/etc/skat-club/server.password")
    modes = {p: p.stat().st_mode & 0o777 for p in (acl, passwd, config, server_pw)}
    assert modes == {acl: 0o600, passwd: 0o600, config: 0o640, server_pw: 0o640}, modes
    assert done.wrote("/etc/skat-club").stat().st_mode & 0o777 == 0o750
    assert done.wrote("/etc/skat-club/tables").stat().st_mode & 0o777 == 0o700
    assert done.wrote("/var/lib/skat-club").stat().st_mode & 0o777 == 0o750
    # One account per table (12) and the server's, each password hashed in the broker's file
    # and in clear in the file the table gets.
    lines = passwd.read_text().splitlines()
    assert [line.split(":")[0] for line in lines] == ["server", *map(str, range(1, 13))]
    assert all(line.split(":", 1)[1].startswith("$7$") for line in lines), lines
    table_pw = done.wrote("/etc/skat-club/tables/7.password")
    assert table_pw.stat().st_mode & 0o777 == 0o600
    assert len(table_pw.read_text().strip()) == 24
    assert _password_matches(passwd, "7", table_pw.read_text().strip(), tmp_path)
    # The config it wrote loads, with the server's broker password.
    from club.config import load_config

    cfg = load_config(config)
    assert cfg.broker.username == "server" and cfg.broker.url == "mqtt://127.0.0.1:1883"
    assert cfg.broker.password == server_pw.read_text().strip()
    assert str(cfg.database) == "/var/lib/skat-club/club.db"
    assert "no director password yet" in done.stdout
    link = done.wrote("/usr/local/bin/skat-table")
    assert str(link.readlink()) == "/opt/skat-club/venv/bin/skat-table"
    # The second run: nothing built, nothing restarted, no account or password changed.
    assert not [c for c in second if c.startswith("pip ")], second
    assert not [c for c in second if "restart" in c or "reload " in c], second
    assert "systemctl start skat-table-club.service" in second
    assert "systemctl start mosquitto.service" in second
    assert "nothing changed: the club server runs on as it is" in done.stdout
    assert done.stdout.count("new broker accounts") == 1
    assert passwd.read_text().splitlines() == lines


def _password_matches(passwd: Path, user: str, password: str, tmp: Path) -> bool:
    """Whether Mosquitto lets ``user`` in with ``password`` from this password file."""
    d = Path(tempfile.mkdtemp(prefix="skat-club-pw-"))
    d.chmod(0o755)
    try:
        broker = ClubBroker(d, {})
        conf = broker.write()
        target = d / "skat-club" / "passwd"
        shutil.copyfile(passwd, target)
        broker._own(target, 0o600)
        broker.write = lambda: conf  # type: ignore[method-assign]
        broker.start()
        try:
            c = Client(broker.port, user, password)
            ok = not c.refused
            c.close()
            return ok
        finally:
            broker.stop()
    finally:
        shutil.rmtree(d, ignore_errors=True)
