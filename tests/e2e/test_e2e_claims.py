"""Concessions out of reach, claims and violations at the table, as table scripts through
``skat-table replay --json``: the presses ``claim`` (with an optional ``level``), ``agree``,
``disagree``, ``enforce`` and ``play-on``, and the config key ``violations``."""

from __future__ import annotations

from pathlib import Path

from e2e_script import Script, config, deal_of, replay, write_config

from firmware_host.table.controller import Table
from firmware_host.table.inputs import Press, ScriptError, parse_line

THREE = config("three.toml")  # Anna, Ben, Carla; Carla deals first: Anna is forehand

# the deal of the engine's concession examples: Anna strong in grand
STRONG = deal_of("CT CJ CK CA S7 SJ H7 HJ D7 DJ", "C7 C8 C9 CQ S8 S9 SA H8 HA DA",
                 "ST SQ SK H9 HT HQ HK DT DQ DK", "D8 D9")
# Anna holds only sevens, eights and nines: she cannot win a trick
WEAK = deal_of("C7 C8 C9 S7 S8 S9 H7 H8 H9 D7", "CJ SJ HJ DJ CA CT CK CQ SA ST",
               "SK SQ HA HT HK HQ DA DT DK DQ", "D8 D9")


# Anna takes every trick in grand: the jacks, then six clubs nobody else holds
ALL = deal_of("CJ SJ HJ DJ CA CT CK CQ C9 C8", "SA ST SK SQ S9 S8 S7 HA HT HK",
              "HQ H9 H8 H7 DA DT DK DQ D9 D8", "C7 D7")


def grand_hand(deal: object, contract: str = "GH") -> Script:
    s = Script().deal(deal)  # type: ignore[arg-type]
    s.press(1, "pass").press(2, "pass").press(0, "bid").declare(0, contract)
    return s


def test_defenders_concede_already_out_of_the_announced_schneider(tmp_path: Path) -> None:
    s = grand_hand(STRONG, "GHS").play("H7 HA HT DA DT D7")  # Ben takes both: 42 points
    s.press(1, "concede")
    out = replay(THREE, s.write(tmp_path / "c.jsonl"))
    (game,) = out["games"]
    assert out["rejected"] == []
    assert (game["won"], game["value"], game["schneider"], game["schwarz"]) == (
        False, -384, False, False)


def test_declarer_claims_and_both_defenders_agree(tmp_path: Path) -> None:
    s = grand_hand(STRONG).press(0, "claim")
    refused = s.next_line
    s.play("CJ")  # play waits for the answers
    s.press(1, "agree").press(2, "agree")
    out = replay(THREE, s.write(tmp_path / "a.jsonl"))
    assert [r["line"] for r in out["rejected"]] == [refused]
    assert "claimed the rest: Ben and Carla agree or disagree first" in \
        out["rejected"][0]["reason"]
    (game,) = out["games"]
    assert (game["won"], game["value"], game["points"], game["tricks"]) == (True, 144, 120, 10)
    assert (game["schneider"], game["schwarz"]) == (False, False)  # no level said


def test_declarer_claims_schwarz(tmp_path: Path) -> None:
    s = grand_hand(STRONG).add({"seat": 0, "press": "claim", "level": "schwarz"})
    s.press(2, "agree").press(1, "agree")
    out = replay(THREE, s.write(tmp_path / "z.jsonl"))
    (game,) = out["games"]
    assert (game["value"], game["schneider"], game["schwarz"]) == (192, True, True)


def test_a_disagreed_claim_plays_on(tmp_path: Path) -> None:
    s = grand_hand(WEAK).press(0, "claim").press(1, "disagree")
    late = s.next_line
    s.press(2, "agree")  # too late: the claim is void
    s.play("C7 CQ SK")
    out = replay(THREE, s.write(tmp_path / "p.jsonl"))
    assert [r["line"] for r in out["rejected"]] == [late]
    assert "no claim to answer" in out["rejected"][0]["reason"]
    assert out["games"] == [] and out["phase"] == "play"


def test_a_defender_claims_the_rest(tmp_path: Path) -> None:
    s = grand_hand(WEAK).press(2, "claim")
    out = replay(THREE, s.write(tmp_path / "d.jsonl"))
    (game,) = out["games"]
    # Anna cannot win a trick: the rest to the defenders: grand hand without 4, schneider,
    # schwarz: 8 x 24, lost: -384
    assert (game["won"], game["value"], game["schneider"], game["schwarz"]) == (
        False, -384, True, True)


def test_a_revoke_is_refused_by_default(tmp_path: Path) -> None:
    s = grand_hand(WEAK).play("C7")
    revoke = s.next_line
    s.play("SA")
    s.press(0, "enforce")
    out = replay(THREE, s.write(tmp_path / "r.jsonl"))
    assert [r["line"] for r in out["rejected"]] == [revoke, revoke + 1]
    assert "must follow clubs" in out["rejected"][0]["reason"]
    assert "no violation to answer" in out["rejected"][1]["reason"]


def test_isko_violations_revoke_enforced(tmp_path: Path) -> None:
    cfg = write_config(tmp_path / "v.toml", ["Anna", "Ben", "Carla"], 2, violations="isko")
    s = grand_hand(WEAK).play("C7 SA")  # Ben holds clubs: a revoke, seen by the table
    s.press(1, "enforce")  # Ben offended: not his choice
    s.press(0, "enforce")
    out = replay(cfg, s.write(tmp_path / "v.jsonl"))
    assert [r["line"] for r in out["rejected"]] == [s.next_line - 2]
    assert "not the offending side" in out["rejected"][0]["reason"]
    (game,) = out["games"]
    # ISkO 4.1.5: Anna wins at the level her bid needs: without 4, game 5, hand 6: 144
    assert (game["won"], game["value"]) == (True, 144)


def test_isko_violations_play_on_takes_the_card_back(tmp_path: Path) -> None:
    cfg = write_config(tmp_path / "v.toml", ["Anna", "Ben", "Carla"], 2, violations="isko")
    s = grand_hand(WEAK).play("C7 SA").press(0, "play-on")
    s.gone("centre", "SA")  # Ben takes his card back
    s.play("CQ SK")
    out = replay(cfg, s.write(tmp_path / "o.jsonl"))
    assert out["rejected"] == [] and out["games"] == [] and out["phase"] == "play"


def test_isko_violations_out_of_turn_by_the_declarer(tmp_path: Path) -> None:
    cfg = write_config(tmp_path / "v.toml", ["Anna", "Ben", "Carla"], 2, violations="isko")
    s = grand_hand(WEAK, "GHS").play("C7")
    s.lay("seat0", "C8")  # Anna again, on her own pad: Ben is to play
    s.press(2, "enforce")
    out = replay(cfg, s.write(tmp_path / "t.jsonl"))
    assert out["rejected"] == []
    (game,) = out["games"]
    # lost at the simple level plus the announced: without 4, 5, hand 6, schneider 7, 8
    assert (game["won"], game["value"]) == (False, -384)


def test_claim_level_in_the_script_is_checked() -> None:
    assert parse_line('{"seat": 0, "press": "claim", "level": "schwarz"}') == \
        Press(0, "claim", None, "schwarz")
    for bad in ('{"seat": 0, "press": "claim", "level": "game"}',
                '{"seat": 0, "press": "bid", "level": "schneider"}'):
        try:
            parse_line(bad)
        except ScriptError as exc:
            assert "level" in str(exc)
        else:
            raise AssertionError(f"{bad} was accepted")


def test_computer_defenders_answer_a_claim_exactly(tmp_path: Path) -> None:
    from firmware_host.config import load_config

    table = Table(load_config(THREE))
    for line in grand_hand(ALL).press(0, "claim").lines:
        assert table.handle(parse_line(line)).accepted, line
    # Anna takes every trick with these cards: a computer in Ben's seat agrees
    assert table.waiting_seats() == [1, 2]
    assert table.computer_answer(1) == Press(1, "agree")
    assert table.computer_answer(0) is None  # the declarer does not answer his own claim
    table = Table(load_config(THREE))
    for line in grand_hand(STRONG).press(0, "claim").lines:
        assert table.handle(parse_line(line)).accepted, line
    # strong, but S7, H7 and D7 must go: the claim of every trick is wrong
    assert table.computer_answer(2) == Press(2, "disagree")


def test_a_waiting_claim_and_violation_survive_a_power_cut(tmp_path: Path) -> None:
    """The journal holds the presses (a claim's level included); a new process resumes with
    the game waiting exactly where it was, and the answer still works."""
    from firmware_host.config import load_config
    from firmware_host.series.journal import Journal
    from firmware_host.series.session import Session

    cfg = load_config(write_config(tmp_path / "v.toml", ["Anna", "Ben", "Carla"], 2,
                                   violations="isko"))
    for extra, answer, expect in (
        ([{"seat": 0, "press": "claim", "level": "schwarz"}, {"seat": 1, "press": "agree"}],
         '{"seat": 2, "press": "agree"}', 192),
        ([], '{"seat": 0, "press": "enforce"}', 144),
    ):
        journal = tmp_path / f"j{expect}.sqlite"
        session = Session(cfg, Journal.open(journal))
        session.resume()
        s = grand_hand(STRONG if extra else WEAK)
        for obj in extra:
            s.add(obj)
        if not extra:
            s.play("C7 SA")  # Ben's revoke
        for line in s.lines:
            session.submit_text(line)
        state = session.table.game.state_key()
        assert session.table.game.waiting is not None
        session.journal.close()  # the power goes
        again = Session(cfg, Journal.open(journal))
        again.resume()
        assert again.table.game.state_key() == state
        again.submit_text(answer)
        assert again.table.deal.result is not None and again.table.deal.result.value == expect
        again.journal.close()
