"""What the table says was lost after a repair: "nothing was lost" only when the verified
records prove it (both files read to their ends). A database that cannot be read with its copy
missing, or a copy that cannot be read with the database missing, says that later inputs may
be lost: on the kiosk (in its language) and in ``replay --journal``'s output.
"""

from __future__ import annotations

import io
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest
from seriesplay import play, reopen

from firmware_host.cli import main
from firmware_host.series.journal import Journal

ROOT = Path(__file__).resolve().parents[2]
CONFIG = ROOT / "tests" / "data" / "configs" / "three-series.toml"
SCRIPT = ROOT / "tests" / "data" / "scripts" / "crash-three.jsonl"








# ---- what the table says was lost --------------------------------------------------------------


def damage(path: Path, case: str) -> None:
    if case == "database unreadable, copy missing":
        data = path.read_bytes()
        path.write_bytes(b"\x5a" * 100 + data[100:])  # the header: not a SQLite file any more
        Path(f"{path}.copy").unlink()
    else:  # "copy unreadable, database missing"
        for suffix in ("", "-wal", "-shm"):
            Path(f"{path}{suffix}").unlink(missing_ok=True)
        copy = Path(f"{path}.copy")
        copy.unlink()
        copy.mkdir()  # something that cannot be read as a file in its place


CASES = ["database unreadable, copy missing", "copy unreadable, database missing"]


@pytest.mark.parametrize("case", CASES)
def test_nothing_was_lost_is_not_said_without_proof(tmp_path: Path, case: str) -> None:
    from display.i18n import Translator
    from display.wording import fault_sentence
    from firmware_host.screen.viewmodel import build_view

    path = tmp_path / "journal.sqlite"
    where = play(Journal.open(path), 4)
    assert where[0] == 4
    damage(path, case)
    session = reopen(path)
    note = session.recovery_note
    assert note is not None and "nothing was lost" not in note
    assert note.endswith("; the other copy is missing, later inputs may be lost"), note
    # The same words are journalled as the repair's notice, shown until confirmed.
    assert [(b["note"], b["unproven"]) for _, b in session.journal.open_notices()] == [
        (note, "missing")]
    fault = next(f for f in build_view(session).faults if f.kind == "journal-restored")
    players = session.config.table.players
    en = fault_sentence(fault, Translator("en"), players)
    assert en == (f"Journal damaged: restored to game {session.table.deal.number}; "
                  "the other copy is missing, later inputs may be lost")
    de = fault_sentence(fault, Translator("de"), players)
    assert "nichts ging verloren" not in de and "fehlt" in de, de
    session.close()


@pytest.mark.parametrize("case", CASES)
def test_replay_says_what_is_known_not_that_nothing_was_lost(tmp_path: Path, case: str) -> None:
    path = tmp_path / "journal.sqlite"
    err = io.StringIO()
    with redirect_stdout(io.StringIO()), redirect_stderr(err):
        assert main(["replay", str(CONFIG), str(SCRIPT), "--json", "--journal",
                     str(path)]) == 0
    damage(path, case)
    err = io.StringIO()
    with redirect_stdout(io.StringIO()), redirect_stderr(err):
        status = main(["replay", str(CONFIG), str(SCRIPT), "--json", "--journal", str(path)])
    assert status == 0, err.getvalue()
    said = err.getvalue()
    assert "nothing was lost" not in said, said
    assert "the other copy is missing, later inputs may be lost" in said, said


def test_both_files_unreadable_say_the_other_copy_cannot_be_read(tmp_path: Path) -> None:
    from display.i18n import Translator
    from display.wording import fault_sentence
    from firmware_host.screen.viewmodel import build_view

    path = tmp_path / "journal.sqlite"
    play(Journal.open(path), 3)
    data = path.read_bytes()
    path.write_bytes(b"\x5a" * 100 + data[100:])
    copy = Path(f"{path}.copy")
    copy.unlink()
    copy.mkdir()
    session = reopen(path)
    assert session.recovery_note is not None
    assert session.recovery_note.endswith(
        "; the other copy cannot be read, later inputs may be lost"), session.recovery_note
    fault = next(f for f in build_view(session).faults if f.kind == "journal-restored")
    fr = fault_sentence(fault, Translator("fr"), session.config.table.players)
    assert fr.endswith("l'autre copie est illisible, des saisies ultérieures sont peut-être "
                       "perdues"), fr
    session.close()


def test_both_copies_verified_to_the_same_record_say_nothing_was_lost(tmp_path: Path) -> None:
    """The proof: the copy was damaged only in its last (torn) line and the database holds
    every record, verified to the end."""
    path = tmp_path / "journal.sqlite"
    play(Journal.open(path), 3)
    copy = Path(f"{path}.copy")
    data = copy.read_bytes()
    copy.write_bytes(data[:-40])  # a torn last line
    session = reopen(path)
    assert session.recovery_note is not None
    assert session.recovery_note.endswith("; nothing was lost"), session.recovery_note
    session.close()
