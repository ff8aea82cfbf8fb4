"""ISS records: the engine agrees with every one of the 37 shared server records, field by
field; broken records give a disagreement with the reason and never a crash; the iss-check
command prints and exits as DESIGN.md says."""

from __future__ import annotations

import argparse
import doctest
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engine.iss
from engine.iss import (
    PASSED,
    IssError,
    IssResult,
    check_line,
    compare,
    diff_results,
    engine_result,
    parse_record,
    replay,
    result_of,
    server_artefact_no_discard,
)
from firmware_host.tools import isscheck

DATA = Path(__file__).resolve().parent.parent / "data"
FILES = [DATA / "games-a.sgf", DATA / "games-b.sgf"]
LINES = [
    pytest.param(line, id=f"{f.name}:{n}")
    for f in FILES
    for n, line in enumerate(f.read_text(encoding="utf-8").splitlines(), 1)
    if line.strip()
]


def record_line(game_id: str) -> str:
    for f in FILES:
        for line in f.read_text(encoding="utf-8").splitlines():
            if f"ID[{game_id}]" in line:
                return line
    raise LookupError(game_id)


def test_doctests() -> None:
    assert doctest.testmod(engine.iss).failed == 0


def test_the_shared_files_hold_37_records() -> None:
    assert len(LINES) == 37


@pytest.mark.parametrize("line", LINES)
def test_engine_agrees_with_the_server(line: str) -> None:
    record, problems = check_line(line)
    assert record is not None and record.result is not None
    assert problems == []
    # and the agreement is on every field, written the way the server writes it
    mine = str(engine_result(record, replay(record)))
    theirs = str(record.result)
    if record.result.resigned is None:  # the four old records without r:
        mine = mine.rsplit(" r:", 1)[0]
    assert mine == theirs


@pytest.mark.parametrize("line", LINES)
def test_result_text_round_trips(line: str) -> None:
    text = line.split("]R[", 1)[1].split("]", 1)[0]
    assert str(IssResult.parse(text)) == text


def test_known_results_spot_checks() -> None:
    """A few records worked out by hand (FORMAT.md §6)."""
    overbid = result_of(replay(parse_record(record_line("8650652"))))
    assert (overbid.outcome, overbid.value, overbid.overbid, overbid.points) == (
        "loss", -72, True, 75)
    ouvert_lost = result_of(replay(parse_record(record_line("13577"))))
    assert (ouvert_lost.value, ouvert_lost.schneider, ouvert_lost.schwarz) == (-192, False, False)
    left = result_of(replay(parse_record(record_line("18358"))))
    assert (left.value, left.points, left.tricks, left.left) == (96, 120, 10, 1)
    assert result_of(replay(parse_record(record_line("756788")))) == PASSED
    penalty = result_of(replay(parse_record(record_line("8"))))
    assert (penalty.declarer, penalty.outcome, penalty.penalties, penalty.timeout) == (
        -1, "penalty", (0, 0, 1), 2)


def test_single_defender_resignation_closes_an_iss2_record() -> None:
    record = parse_record(record_line("272095"))
    assert record.moves[-1][1] == "RE"
    game = replay(record)
    assert game.result is not None and game.result.ending == "resign"
    assert compare(record, game) == []


def test_server_artefact_is_reproduced_for_its_record_class_only() -> None:
    record = parse_record(record_line("10330141"))
    game = replay(record)
    # the engine's own result counts the matadors over the declarer's twelve cards ...
    own = result_of(game)
    assert (own.matadors, own.value) == (3, -96)
    # ... the server counted the two skat cards only: without 11, 12 x 12 x 2 = 288
    artefact = server_artefact_no_discard(game)
    assert artefact is not None and (artefact.matadors, artefact.value) == (-11, -288)
    assert compare(record, game) == []
    # a record claiming the engine's (correct) values for this class disagrees: the comparison
    # is not loosened, the server's rule is reproduced
    fixed = replace(record, result=replace(record.result, matadors=3, value=-96))
    assert compare(fixed, game) == ["v: record -96, engine -288", "m: record 3, engine -11"]
    # no other record of the 37 belongs to the class
    others = [
        line.values[0] for line in LINES
        if server_artefact_no_discard(replay(parse_record(line.values[0]))) is not None
    ]
    assert len(others) == 1 and "ID[10330141]" in others[0]


def test_a_wrong_field_is_named_with_both_values() -> None:
    line = record_line("6326040").replace("v:33", "v:34").replace("p:61", "p:62")
    assert check_line(line)[1] == ["v: record 34, engine 33", "p: record 62, engine 61"]


def test_diff_results_covers_every_field() -> None:
    base = IssResult.parse(
        "d:2 loss v:-72 m:-1 overbid p:75 t:7 s:0 z:0 p0:0 p1:0 p2:0 l:-1 to:-1 r:0")
    changes = {
        "d": {"declarer": 1}, "win/loss": {"outcome": "win"}, "v": {"value": 72},
        "m": {"matadors": 1}, "bidok/overbid": {"overbid": False}, "p": {"points": 70},
        "t": {"tricks": 6}, "s": {"schneider": True}, "z": {"schwarz": True},
        "p0": {"penalties": (1, 0, 0)}, "l": {"left": 1}, "to": {"timeout": 0},
        "r": {"resigned": True},
    }
    for key, change in changes.items():
        diff = diff_results(base, replace(base, **change))
        assert len(diff) == 1 and diff[0].startswith(f"{key}: record "), (key, diff)
    # r is compared only when the record has it
    old = replace(base, resigned=None)
    assert diff_results(old, replace(base, resigned=True)) == []



@pytest.fixture(scope="module")
def good() -> str:
    return record_line("6326040")


BROKEN = {
    "bad card in the deal": (
        lambda g: g.replace("MV[w C9.SQ", "MV[w X9.SQ"), "'X9' is not a card"),
    "card dealt twice": (lambda g: g.replace("MV[w C9.SQ", "MV[w SQ.SQ"), "names SQ twice"),
    "short deal": (lambda g: g.replace("MV[w C9.SQ.", "MV[w "), "30 cards, not 32"),
    "truncated line": (lambda g: g[:200], "cut short"),
    "revoke in the move list": (
        lambda g: g.replace("0 SJ 1 S7 2 ST", "0 SJ 1 H8 2 ST"),
        "move 8 (1 H8): middlehand must follow trumps"),
    "card not held": (
        lambda g: g.replace("0 SJ 1 S7 2 ST", "0 HA 1 S7 2 ST"),
        "move 7 (0 HA): forehand does not hold HA"),
    "skat shown is not the skat dealt": (
        lambda g: g.replace("w C7.SA", "w C7.SK"), "the server shows the skat C7.SK"),
    "move after the end": (
        lambda g: g.replace(" ]R[", " 0 CA ]R["), "move 37 (0 CA): the game was already over"),
    "move list ends early": (
        lambda g: g.replace(" 0 DT 1 H8 ]", " ]"), "ends before the game is over (trick 10)"),
    "bid out of turn": (
        lambda g: g.replace("1 p 2 p 0 18", "2 p 1 p 0 18"), "not rearhand's"),
    "not a bid value": (lambda g: g.replace("0 18 0 s", "0 19 0 s"), "19 is not a value"),
    "hand declared after pick-up": (
        lambda g: g.replace("0 S.C9.C7", "0 SH.C9.C7"), "hand game is no longer possible"),
    "unknown declaration": (lambda g: g.replace("0 S.C9.C7", "0 X.C9.C7"), "'X' is not a game"),
    "bad result number": (lambda g: g.replace("v:33", "v:3x"), "'3x' is not a number"),
    "result field missing": (lambda g: g.replace(" t:5", ""), "the result lacks t"),
    "no result": (lambda g: g.split("R[d:")[0] + " ;)", "no result"),
    "unknown actor": (lambda g: g.replace("1 p 2 p", "3 p 2 p"), "'3' is neither w nor a seat"),
    "no move list": (lambda g: g.replace("MV[", "XV["), "no move list"),
    "not a record": (lambda g: "hello", "does not start with '(;'"),
    "garbage between properties": (lambda g: g.replace("CO[]", "CO[] junk "), "unreadable text"),
}


@pytest.mark.parametrize("case", sorted(BROKEN))
def test_broken_record_gives_a_reason_and_no_crash(case: str, good: str) -> None:
    make, reason = BROKEN[case]
    _record, problems = check_line(make(good))
    assert len(problems) == 1
    assert reason in problems[0]


def test_replay_raises_iss_error_naming_the_move(good: str) -> None:
    record = parse_record(good.replace("0 SJ 1 S7 2 ST", "0 SJ 1 H8 2 ST"))
    with pytest.raises(IssError, match=r"^move 8 \(1 H8\)"):
        replay(record)
    with pytest.raises(ValueError):  # IssError is a ValueError, as the guide asks
        parse_record("(;GM[Chess]MV[w] ;)")


def run_check(capsys: pytest.CaptureFixture[str], *files: Path, verbose: bool = False):
    parser = argparse.ArgumentParser()
    isscheck.add_arguments(parser)
    args = parser.parse_args([*(str(f) for f in files), *(["-v"] if verbose else [])])
    rc = isscheck.cmd_iss_check(args)
    out = capsys.readouterr()
    return rc, out.out.splitlines(), out.err


def test_iss_check_agrees_with_all_shared_records(capsys: pytest.CaptureFixture[str]) -> None:
    rc, lines, _ = run_check(capsys, *FILES)
    assert lines == ["37 records: 37 agree, 0 disagree"]
    assert rc == 0
    rc, lines, _ = run_check(capsys, FILES[1], verbose=True)
    assert rc == 0 and len(lines) == 11 and lines[0].endswith("ID[6997010]: agrees")


def test_iss_check_reports_each_disagreement_and_fails(
    tmp_path: Path, good: str, capsys: pytest.CaptureFixture[str]
) -> None:
    mixed = tmp_path / "mixed.sgf"
    mixed.write_text(
        "\n".join([
            good,
            good.replace("MV[w C9.SQ", "MV[w X9.SQ"),  # bad card
            "",
            good[:120],  # truncated
            good.replace("0 SJ 1 S7 2 ST", "0 SJ 1 H8 2 ST"),  # illegal card
            good.replace("v:33", "v:99"),  # the server says otherwise
        ]) + "\n",
        encoding="utf-8",
    )
    rc, lines, _ = run_check(capsys, mixed, FILES[1])
    assert rc == 1
    assert lines[-1] == "15 records: 11 agree, 4 disagree"
    assert lines[:-1] == [
        f"{mixed}:2: record: unreadable record: the deal: 'X9' is not a card: write suit "
        "C S H D and rank 7 8 9 T J Q K A, e.g. CJ",
        f"{mixed}:4: record: unreadable record: the record is cut short: it does not end "
        "with ';)'",
        f"{mixed}:5: ID[6326040]: move 8 (1 H8): middlehand must follow trumps: holds HJ, DJ, "
        "S9, S7",
        f"{mixed}:6: ID[6326040]: v: record 99, engine 33",
    ]


def test_iss_check_unreadable_file_and_empty_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rc, lines, err = run_check(capsys, tmp_path / "missing.sgf")
    assert rc == 2 and "cannot read it" in err and lines == ["0 records: 0 agree, 0 disagree"]
    empty = tmp_path / "empty.sgf"
    empty.write_text("\n", encoding="utf-8")
    rc, lines, err = run_check(capsys, empty)
    assert rc == 1 and "no records" in err


@settings(max_examples=250, deadline=None)
@given(
    st.sampled_from([p.values[0] for p in LINES]),
    st.lists(st.tuples(st.integers(0, 10_000), st.integers(0, 4), st.sampled_from(
        ["", " ", ".", "]", "[", "p", "y", "RE", "SC", "??", "w", "1", "18", "CJ", "X", "G",
         "TI.1", "LE.9", ";)", "0 S7", "2 HA", ":", "v:-1"])), min_size=1, max_size=4),
)
def test_mangled_records_never_crash_the_checker(line: str, edits: list) -> None:
    """Cut, insert and overwrite anywhere: the checker answers with reasons, never raises."""
    for pos, cut, text in edits:
        pos %= len(line) + 1
        line = line[:pos] + text + line[pos + cut:]
    _record, problems = check_line(line)
    assert isinstance(problems, list) and all(isinstance(p, str) and p for p in problems)
    assert not any("the engine failed" in p for p in problems), problems


def test_iss_check_reads_compressed_files(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import bz2
    import gzip

    text = FILES[0].read_bytes()
    (tmp_path / "a.sgf.bz2").write_bytes(bz2.compress(text))
    (tmp_path / "a.sgf.gz").write_bytes(gzip.compress(text))
    (tmp_path / "broken.sgf.bz2").write_bytes(b"BZh9 not really")
    rc, lines, _ = run_check(capsys, tmp_path / "a.sgf.bz2", tmp_path / "a.sgf.gz")
    assert rc == 0 and lines == ["54 records: 54 agree, 0 disagree"]
    rc, lines, err = run_check(capsys, tmp_path / "broken.sgf.bz2")
    assert rc == 2 and "broken.sgf.bz2: cannot read it" in err
    # a file saved on Windows: byte-order mark and CRLF line ends
    windows = tmp_path / "windows.sgf"
    windows.write_bytes(b"\xef\xbb\xbf" + FILES[1].read_bytes().replace(b"\n", b"\r\n"))
    rc, lines, _ = run_check(capsys, windows)
    assert rc == 0 and lines == ["10 records: 10 agree, 0 disagree"]


def test_ouvert_declarations_with_the_open_hand_appended() -> None:
    """A player's view may list the declarer's cards after an ouvert declaration (FORMAT.md
    §4.3): they are accepted and ignored."""
    null_ouvert = record_line("1390253")
    # middlehand's ten cards after the pick-up (C7 CJ DK D7 C8 DA DT D9 DJ D8)
    shown = null_ouvert.replace("1 NO.HA.HQ", "1 NO.HA.HQ.C7.CJ.DK.D7.C8.DA.DT.D9.DJ.D8")
    assert check_line(shown)[1] == []
    grand_ouvert = record_line("727")
    shown = grand_ouvert.replace("0 GO ", "0 GO.HJ.HA.DJ.HQ.SA.H7.CA.CJ.HT.H8 ")
    assert check_line(shown)[1] == []


def test_declarer_resigns_server_rules_and_table_rules() -> None:
    """No shared record has a declarer resigning a suit game; FORMAT.md §5.3 says how the
    server scores it: by the points so far plus the skat (lost, and schneidered below 31 after
    a trick). The table's rules (records of this program) lose at the simple level."""
    line = record_line("6326040")
    # after three tricks (declarer: SJ ST S7 = 12, CJ S9 H7 = 2; discards C9 C7 = 0) he resigns
    cut = line.split(" 1 HQ 2 HA")[0] + " 0 RE ]R[passed] ;)"
    server = result_of(replay(parse_record(cut)))
    assert (server.outcome, server.points, server.tricks, server.schneider) == (
        "loss", 14, 2, True)
    assert server.value == -2 * 11 * (2 + 1 + 1) and server.resigned  # with 2, game, schneider
    table = result_of(replay(parse_record(cut.replace("PC[International Skat Server]",
                                                      "PC[skat-table]"))))
    assert (table.outcome, table.value, table.schneider, table.resigned) == (
        "loss", -2 * 11 * 3, False, True)
