"""`skat-table link` as an operator meets it: its config errors, its unit file, its stop."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
UNITS = ROOT / "systemd"


def _unit(name: str) -> dict[str, list[str]]:
    keys: dict[str, list[str]] = {}
    for line in (UNITS / name).read_text().splitlines():
        if "=" in line and not line.lstrip().startswith("#"):
            k, _, v = line.partition("=")
            keys.setdefault(k.strip(), []).append(v.strip())
    return keys


def test_the_link_has_its_own_unit_and_the_controller_keeps_no_network() -> None:
    link = _unit("skat-table-link.service")
    table = _unit("skat-table.service")
    assert link["ExecStart"][0].split()[1:3] == ["link", "--config"]
    assert "PrivateNetwork" not in link
    assert "AF_INET" in link["RestrictAddressFamilies"][0]
    assert table["PrivateNetwork"] == ["yes"]
    assert "AF_INET" not in table["RestrictAddressFamilies"][0]
    assert link["User"] == table["User"], "the link reads the table's journal as its user"
    assert "skat-table-link.service" in (UNITS / "install.sh").read_text()


def _link(config: Path, data: Path, **kw) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "firmware_host", "link", "--config",
                             str(config), "--data-dir", str(data)], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kw)


def _config(tmp: Path, club: str) -> Path:
    cfg = tmp / "config.toml"
    cfg.write_text('[table]\nplayers = ["Anna", "Ben", "Carla"]\n\n' + club)
    return cfg


def test_a_wrong_club_section_is_one_line_and_status_2(tmp_path) -> None:
    cases = {
        "": "[club]: this section is missing",
        '[club]\nbroker = "http://x"\nclub = "c"\ntable = "1"\npassword_file = "p"\n':
            "[club] broker: 'http://x' is not mqtt://HOST:PORT",
        '[club]\nbroker = "mqtt://x:1883"\nclub = "c"\ntable = "a/b"\npassword_file = "p"\n':
            "[club] table: 'a/b'",
        '[club]\nbroker = "mqtt://x:1883"\nclub = "c"\ntable = "1"\n':
            "[club] password_file: missing",
        '[club]\nbroker = "mqtt://x:1883"\nclub = "c"\ntable = "1"\npassword = "secret"\n':
            "[club] password: unknown key",
    }
    for text, expected in cases.items():
        proc = _link(_config(tmp_path, text), tmp_path / "data")
        _, err = proc.communicate(timeout=60)
        assert proc.returncode == 2, (text, err)
        assert expected in err and len(err.strip().splitlines()) == 1, err


def test_unreachable_broker_is_a_status_not_an_exit_and_sigterm_stops(tmp_path) -> None:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # nothing listens here once closed
    (tmp_path / "pw").write_text("secret\n")
    cfg = _config(tmp_path, f'[club]\nbroker = "mqtt://127.0.0.1:{port}"\nclub = "c1"\n'
                            'table = "7"\npassword_file = "pw"\n')
    data = tmp_path / "data"
    proc = _link(cfg, data)
    status = data / "club" / "status.json"
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if status.exists() and json.loads(status.read_text())["state"] == "offline":
            break
        assert proc.poll() is None, proc.communicate()
        time.sleep(0.05)
    st = json.loads(status.read_text())
    assert st["state"] == "offline" and "cannot reach" in st["detail"], st
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 0, err
    assert json.loads(status.read_text())["detail"] == "the link was stopped"
    assert "Traceback" not in err
