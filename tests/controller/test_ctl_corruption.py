"""The journal against a damaged SD card: every damage is detected, the most is recovered, the
table never hangs, never dies and never restores a wrong game.

The journal of a 36-deal series is taken as a power cut leaves it (database, WAL, second copy;
no checkpoint). Each case damages that image and opens it in a forked child under a hard
timeout. The outcome is one of:

- ``exact``: the whole chain was restored (the damage, if any, was repaired from the other copy);
- ``prefix``: a verified prefix of the chain was restored *and the loss was reported*;

and never ``hang`` (the child outlived the timeout), ``traceback`` (it raised), ``silent``
(fewer records restored without a word) or ``wrong`` (a chain that is not a prefix of the
undamaged one). The table of outcomes is printed at the end of the test run
(``tests/conftest.py``; shown under xdist too).

``make test`` runs a small sample (:data:`SAMPLE` truncations per file, :data:`FLIPS`
single-bit flips per file: 8 and 10), ``make test-full`` a larger one (25 and 50, about a
minute on a shared 2-core machine). ``SKAT_CORRUPTION=full`` runs truncation at every 512-byte
boundary of each file and 1,000 flips per file.
"""

from __future__ import annotations

import json
import os
import random
import select
import shutil
import signal
import sqlite3
import sys
import tempfile
import time
import traceback
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest
from fullrun import size

from firmware_host.series.journal import Journal

FULL = os.environ.get("SKAT_CORRUPTION", "") == "full"
# The full run opens thousands of journals, each in a child under its own hard timeout, so
# pytest's per-test limit (pyproject) would cut it short; the sample run keeps that limit.
SAMPLE = size(8, 25)  # truncation points per file in the sample run (make test, test-full)
FLIPS = 1000 if FULL else size(10, 50)  # single-bit flips per file
TIMEOUT_S = 30.0  # a case that takes longer is a hang
FILES = ("db", "wal", "copy")

pytestmark = [pytest.mark.skipif(not hasattr(os, "fork"), reason="needs os.fork")]
if FULL:  # one list: a second assignment would drop the first marker, as it once did
    pytestmark.append(pytest.mark.timeout(7200))


def _suffix(kind: str) -> str:
    return {"db": "", "wal": "-wal", "copy": ".copy"}[kind]


@pytest.fixture(scope="module")
def image(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict]:
    """A 36-deal series journal as a power cut leaves it, and its chain's hashes."""
    import random as rnd

    from firmware_host.config import simulated_config
    from firmware_host.series.session import Session
    from firmware_host.series.simulated import SimulatedTable

    base = tmp_path_factory.mktemp("image")
    live = base / "live" / "journal.sqlite"
    cfg = simulated_config(series_length=36, seed=36)
    journal = Journal.open(live)
    session = Session(cfg, journal, computer_seats=cfg.computer.seats)
    session.resume()
    sim = SimulatedTable(session, rnd.Random(36))
    with journal.batch():  # the first 30 deals in one go, checkpointed into the database
        while len(session.table.finished_deals) < 30 and sim.step():
            pass
    journal._conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    while sim.step():  # the last 6 deals one commit each: they are in the WAL
        pass
    assert len(session.table.finished_deals) == 36
    files = {}
    for kind in FILES:
        files[kind] = Path(f"{live}{_suffix(kind)}").read_bytes()
    session.close()
    hashes = [line.split(b" ")[1].decode() for line in files["copy"].splitlines()]
    assert len(files["wal"]) > 100_000 and len(hashes) > 3000
    # The cases test what opening does with what it reads, not the disk: on a tmpfs (where
    # there is one) their fsyncs cost nothing and 400 cases of 4 MB do not wear the disk.
    shm = Path("/dev/shm")
    scratch = Path(tempfile.mkdtemp(prefix="skat-corruption-", dir=shm)) if (
        shm.is_dir() and os.access(shm, os.W_OK)) else base
    yield {"files": files, "hashes": hashes, "dir": base, "scratch": scratch}
    if scratch != base:
        shutil.rmtree(scratch, ignore_errors=True)


def open_case(case_dir: Path) -> dict:
    """Open the journal in ``case_dir`` in a forked child; what it found, or hang/traceback."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        code = 0
        try:
            os.close(read)
            j = Journal.open(case_dir / "journal.sqlite")
            kept, last = j.opened_with
            rec = j.recovery
            out = {"kept": kept, "last": last.hex(), "problems": j.problems,
                   "lost": rec.lost if rec else 0, "aside": rec.aside if rec else []}
            j.close()
            again = Journal.open(case_dir / "journal.sqlite")  # repaired: opens clean
            # Repaired: it opens clean, with the numbers of lost records kept unused.
            out["clean_after"] = again.problems == [] and again.opened_with[0] >= max(kept, 1)
            again.close()
        except BaseException:
            out = {"traceback": traceback.format_exc()}
            code = 1
        finally:
            os.write(write, json.dumps(out).encode())
            os._exit(code)
    os.close(write)
    data = b""
    deadline = time.monotonic() + TIMEOUT_S
    while True:
        left = deadline - time.monotonic()
        ready, _, _ = select.select([read], [], [], max(0.0, left))
        if not ready:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            os.close(read)
            return {"hang": True}
        chunk = os.read(read, 65536)
        if not chunk:
            break
        data += chunk
    os.close(read)
    os.waitpid(pid, 0)
    return json.loads(data)


def classify(got: dict, hashes: list[str], fresh_ok: bool = False) -> str:
    if got.get("hang"):
        return "hang"
    if "traceback" in got:
        return "traceback"
    kept, last = got["kept"], got["last"]
    if kept and hashes[kept - 1] != last:
        return "wrong"
    if not got["clean_after"]:
        return "not-repaired"
    if kept == len(hashes):
        return "exact"
    if fresh_ok and kept == 0 and not got["problems"]:
        return "fresh"  # no file at all: a first start, nothing to say
    if not got["problems"] or not any("record(s) verified and restored" in p
                                      for p in got["problems"]):
        return "silent"
    return "prefix"


class Suite:
    """Runs the cases, keeps the outcome table, and writes it where conftest finds it."""

    def __init__(self, image: dict, name: str, request: pytest.FixtureRequest) -> None:
        self.request = request
        self.image = image
        self.name = name
        self.dir = image["scratch"] / name
        self.table: dict[str, Counter] = {}
        self.failures: list[str] = []

    def run(self, group: str, label: str, damage: dict[str, bytes | None],
            setup: object = None, fresh_ok: bool = False) -> str:
        case = self.dir
        if case.exists():
            shutil.rmtree(case)
        case.mkdir(parents=True)
        for kind in FILES:
            data = damage.get(kind, self.image["files"][kind]) if kind in damage \
                else self.image["files"][kind]
            if data is not None:
                Path(f"{case}/journal.sqlite{_suffix(kind)}").write_bytes(data)
        if callable(setup):
            setup(case)
        got = open_case(case)
        outcome = classify(got, self.image["hashes"], fresh_ok)
        self.table.setdefault(group, Counter())[outcome] += 1
        if outcome not in ("exact", "prefix", "fresh"):
            self.failures.append(f"{group} {label}: {outcome} {json.dumps(got)[:600]}")
            if FULL:  # a long run shows each failure as it happens, not after an hour
                print(f"\n{self.failures[-1]}", file=sys.stderr, flush=True)
        return outcome

    def report(self) -> str:
        kinds = ("exact", "prefix", "fresh", "silent", "wrong", "not-repaired", "traceback",
                 "hang")
        width = max(len(g) for g in self.table) + 2
        lines = [f"journal corruption suite ({'full' if FULL else 'sample'}; "
                 f"{len(self.image['hashes'])} records, database "
                 f"{len(self.image['files']['db'])} B, WAL {len(self.image['files']['wal'])} B, "
                 f"copy {len(self.image['files']['copy'])} B)",
                 "case".ljust(width) + "".join(k.rjust(13) for k in kinds) + "total".rjust(8)]
        for group, counts in self.table.items():
            lines.append(group.ljust(width) + "".join(str(counts[k]).rjust(13) for k in kinds)
                         + str(sum(counts.values())).rjust(8))
        text = "\n".join(lines)
        self.request.node.user_properties.append(("report", text))  # see tests/conftest.py
        print("\n" + text, file=sys.stderr)
        return text


def boundaries(size: int, rng: random.Random) -> list[int]:
    every = list(range(0, size, 512))
    if FULL or len(every) <= SAMPLE:
        return every
    # Always the ends (nothing left, one block short) and a spread over the file.
    picked = {0, every[-1], *rng.sample(every, SAMPLE - 2)}
    return sorted(picked)


def test_truncation_at_512_byte_boundaries(image: dict, request: pytest.FixtureRequest) -> None:
    suite = Suite(image, "truncation", request)
    rng = random.Random(512)
    for kind in FILES:
        data = image["files"][kind]
        for cut in boundaries(len(data), rng):
            suite.run(f"truncate {kind}", str(cut), {kind: data[:cut]})
        suite.run(f"truncate {kind}", "-100", {kind: data[:-100]})
    # Both copies cut short: only the longest verified prefix can come back, with a report.
    db, copy = image["files"]["db"], image["files"]["copy"]
    for _ in range(SAMPLE if not FULL else 200):
        suite.run("truncate db+wal+copy", "", {
            "db": db[:rng.randrange(0, len(db), 512)], "wal": None,
            "copy": copy[:rng.randrange(len(copy))]})
    suite.report()
    assert not suite.failures, "\n".join(suite.failures[:10])
    assert suite.table["truncate db+wal+copy"]["prefix"] > 0  # the suite can see a loss


def flip(data: bytes, rng: random.Random) -> bytes:
    pos = rng.randrange(len(data))
    out = bytearray(data)
    out[pos] ^= 1 << rng.randrange(8)
    return bytes(out)


def test_random_single_bit_flips(image: dict, request: pytest.FixtureRequest) -> None:
    suite = Suite(image, "bitflips", request)
    rng = random.Random(1000)
    for kind in FILES:
        for n in range(FLIPS):
            suite.run(f"bit flip {kind}", str(n), {kind: flip(image["files"][kind], rng)})
    # A flip in the database and one in the copy at once: the longest verified prefix.
    for n in range(FLIPS // 4):
        suite.run("bit flip db+copy", str(n), {
            "db": flip(image["files"]["db"], rng), "wal": flip(image["files"]["wal"], rng),
            "copy": flip(image["files"]["copy"], rng)})
    suite.report()
    assert not suite.failures, "\n".join(suite.failures[:10])
    # One flip in one file is always repaired from the other: the exact state comes back.
    for kind in FILES:
        assert suite.table[f"bit flip {kind}"]["exact"] == FLIPS


def foreign_sqlite(with_series: bool) -> bytes:
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "f.sqlite"
        conn = sqlite3.connect(path)
        if with_series:  # the old journal's shape: series and inputs tables
            conn.executescript(
                "CREATE TABLE series (id INTEGER PRIMARY KEY, started REAL, config TEXT,"
                " finished INTEGER); INSERT INTO series VALUES (1, 0, 'x', 0);"
                "CREATE TABLE inputs (seq INTEGER PRIMARY KEY, series INT, input TEXT);"
                "INSERT INTO inputs VALUES (1, 1, '{}');")
        else:
            conn.executescript("CREATE TABLE t (x); INSERT INTO t VALUES ('hello');")
        conn.commit()
        conn.close()
        return path.read_bytes()


def test_foreign_empty_and_odd_files(image: dict, request: pytest.FixtureRequest) -> None:
    suite = Suite(image, "odd-files", request)
    files = image["files"]
    other = foreign_sqlite(True)
    rng = random.Random(7)
    noise = bytes(rng.randrange(256) for _ in range(70_000))
    cases: list[tuple[str, dict, object]] = [
        ("empty database", {"db": b"", "wal": None}, None),
        ("empty copy", {"copy": b""}, None),
        ("empty database and copy", {"db": b"", "wal": None, "copy": b""}, None),
        ("no database", {"db": None, "wal": None}, None),
        ("no copy", {"copy": None}, None),
        ("nothing at all", {"db": None, "wal": None, "copy": None}, None),
        ("noise as database", {"db": noise, "wal": None}, None),
        ("noise as copy", {"copy": noise}, None),
        ("noise as WAL", {"wal": noise}, None),
        ("foreign SQLite file", {"db": foreign_sqlite(False), "wal": None}, None),
        ("old journal with series table", {"db": other, "wal": None}, None),
        ("foreign database and copy", {"db": other, "wal": None, "copy": noise}, None),
        ("header zeroed", {"db": bytes(100) + files["db"][100:]}, None),
        ("copy lines swapped", {"copy": b"\n".join(
            _swap(files["copy"].split(b"\n"), 10, 11))}, None),
        ("copy line repeated", {"copy": b"\n".join(
            _repeat(files["copy"].split(b"\n"), 500))}, None),
        ("database is a directory", {"db": None, "wal": None},
         lambda d: (d / "journal.sqlite").mkdir()),
        ("copy is /dev/zero", {"copy": None},
         lambda d: (d / "journal.sqlite.copy").symlink_to("/dev/zero")),
        ("database is a dangling link", {"db": None, "wal": None},
         lambda d: (d / "journal.sqlite").symlink_to(d / "nowhere")),
    ]
    for label, damage, setup in cases:
        suite.run(label, label, damage, setup, fresh_ok=label == "nothing at all")
    # Another journal's files beside this one's: they never mix.
    journal2 = image["dir"] / "other" / "journal.sqlite"
    j = Journal.open(journal2)
    j.start_series({"players": ["X", "Y", "Z"]})
    j.close()
    suite.run("copy of another journal", "", {"copy": Path(f"{journal2}.copy").read_bytes()})
    suite.run("database of another journal", "",
              {"db": journal2.read_bytes(), "wal": None})
    suite.report()
    assert not suite.failures, "\n".join(suite.failures[:10])


def _swap(lines: list[bytes], a: int, b: int) -> list[bytes]:
    lines = list(lines)
    lines[a], lines[b] = lines[b], lines[a]
    return lines


def _repeat(lines: list[bytes], at: int) -> list[bytes]:
    return [*lines[:at], lines[at], *lines[at:]]


def test_the_kiosk_says_what_was_restored_and_what_was_lost(image: dict,
                                                           tmp_path: Path) -> None:
    """Both copies damaged: the table comes back at the verified prefix and says where."""
    from firmware_host.config import simulated_config
    from firmware_host.screen.viewmodel import build_view
    from firmware_host.series.session import Session

    files = image["files"]
    (tmp_path / "journal.sqlite").write_bytes(files["db"])
    (tmp_path / "journal.sqlite-wal").write_bytes(files["wal"][:len(files["wal"]) // 2])
    lines = files["copy"].splitlines(keepends=True)
    bad = lines[-200]  # a flipped bit in the copy, 200 records from its end
    bad = bad[:30] + (b"0" if bad[30:31] != b"0" else b"1") + bad[31:]
    (tmp_path / "journal.sqlite.copy").write_bytes(b"".join([*lines[:-200], bad, *lines[-199:]]))
    cfg = simulated_config(series_length=36, seed=36)
    session = Session(cfg, Journal.open(tmp_path / "journal.sqlite"),
                      computer_seats=cfg.computer.seats)
    session.resume()
    note = session.recovery_note
    assert note is not None and note.startswith("journal damaged: restored to deal ")
    # The WAL cut in half hides how much it held; the copy's lines after the flip say it.
    assert note.endswith("; the last 200 input(s) could not be recovered"), note
    assert 0 < len(session.table.finished_deals) < 36
    faults = build_view(session).faults
    assert any(f.kind == "journal-restored" and f.detail == note for f in faults)
    from display.i18n import Translator
    from display.wording import fault_sentence

    fault = next(f for f in faults if f.kind == "journal-restored")
    de = fault_sentence(fault, Translator("de"), cfg.table.players)
    assert de == (f"Journal beschädigt: wiederhergestellt bis Spiel "
                  f"{session.table.deal.number}; die letzten 200 Eingaben sind verloren")
    assert sorted(p.name for p in tmp_path.glob("*.damaged-*"))  # kept aside
    session.close()


def test_damage_whose_extent_cannot_be_known_is_said_so(image: dict, tmp_path: Path) -> None:
    """The copy ends in noise and the database's WAL was cut: how much was there is unknown,
    and the table says "later inputs may be lost" rather than "nothing was lost"."""
    from firmware_host.config import simulated_config
    from firmware_host.screen.viewmodel import build_view
    from firmware_host.series.session import Session

    files = image["files"]
    (tmp_path / "journal.sqlite").write_bytes(files["db"])
    (tmp_path / "journal.sqlite-wal").write_bytes(files["wal"][:len(files["wal"]) // 2])
    lines = files["copy"].splitlines(keepends=True)
    (tmp_path / "journal.sqlite.copy").write_bytes(b"".join(lines[:-200]) + b"\x00garbage\n")
    cfg = simulated_config(series_length=36, seed=36)
    session = Session(cfg, Journal.open(tmp_path / "journal.sqlite"),
                      computer_seats=cfg.computer.seats)
    session.resume()
    assert session.recovery_note is not None
    assert session.recovery_note.endswith("; later inputs may be lost")
    fault = next(f for f in build_view(session).faults if f.kind == "journal-restored")
    assert fault.other_value is None
    session.close()
