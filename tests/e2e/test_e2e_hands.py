"""Whole hands at the table as table scripts through ``skat-table replay --json``.

The deals are chosen so the results can be checked by hand (the comments do the sums), and
every refusal of DESIGN.md's list is made at the moment it can happen: each must be listed
with its line and a reason in the players' words, and must change nothing (the same script
without the refused lines ends identically).
"""

from __future__ import annotations

import contextlib
import io
from pathlib import Path

import pytest
from e2e_script import OTHER_DECK_TAG, Script, config, deal_of, replay, write_config

from firmware_host.cli import main

THREE = config("three.toml")  # Anna, Ben, Carla; Carla deals first: Anna is forehand


def test_clubs_hand_schwarz_with_eleven(tmp_path: Path) -> None:
    # Anna holds all four jacks and six clubs, C7 lies in the skat: with 11 (the skat counts
    # for matadors also in a hand game). Hand 13, schneider 14, schwarz 15: 15 x 12 = 180.
    deal = deal_of("CJ SJ HJ DJ CA CT CK CQ C9 C8", "SA ST SK SQ S9 S8 S7 HA HT HK",
                   "HQ H9 H8 H7 DA DT DK DQ D9 D8", "C7 D7")
    s = Script().deal(deal)
    s.press(1, "pass").press(2, "pass").press(0, "bid")  # forehand alone plays for 18
    s.declare(0, "CH")
    anna = ["CJ", "SJ", "HJ", "DJ", "CA", "CT", "CK", "CQ", "C9", "C8"]
    ben = ["SA", "ST", "SK", "SQ", "S9", "S8", "S7", "HA", "HT", "HK"]
    carla = ["HQ", "H9", "H8", "H7", "DA", "DT", "DK", "DQ", "D9", "D8"]
    for a, b, c in zip(anna, ben, carla, strict=True):
        s.play(f"{a} {b} {c}")
    out = replay(THREE, s.write(tmp_path / "s.jsonl"))
    assert out["rejected"] == []
    assert out["phase"] == "scored"
    (game,) = out["games"]
    assert game["number"] == 1 and game["dealer"] == 2 and game["declarer"] == 0
    assert game["contract"] == "CH" and game["bid"] == 18
    assert game["won"] is True and game["value"] == 180
    assert game["points"] == 120 and game["tricks"] == 10 and game["matadors"] == 11
    assert game["schneider"] is True and game["schwarz"] is True and game["overbid"] is False
    assert game["scores"] == [180, 0, 0] and out["totals"] == [180, 0, 0]
    assert "seeger_fabian" not in out


REFUSAL_DEAL = deal_of("CJ SJ HJ DJ CA CT CK CQ C9 HA", "SA ST SK SQ S9 S8 S7 HT HK C8",
                       "HQ H9 H8 H7 DA DT DK DQ D9 D8", "C7 D7")


def refusal_script() -> tuple[Script, dict[int, str]]:
    """The hand with every kind of wrong input; returns the script and line -> reason words."""
    s = Script()
    bad: dict[int, str] = {}
    noop = s.noop

    def refused(words: str) -> None:
        bad[len(s.lines)] = words

    s.press(1, "bid")
    refused("dealt")
    s.add({"zone": "deal", "tag": OTHER_DECK_TAG})
    refused("not a card of this table's deck")
    order = REFUSAL_DEAL.dealt_order()
    s.lay("deal", order[0])
    s.lay("deal", order[0])  # read twice while lying there: changes nothing, not refused
    s.gone("deal", order[0]).lay("deal", order[0])
    refused("already been dealt")
    s.lay("seat1", order[1])
    refused("deal reader")
    for card in order[1:]:
        s.lay("deal", card)
    # Bidding: Ben (middlehand) says to Anna (forehand).
    s.press(2, "pass")
    refused("Ben's turn")
    s.press(1, "bid", 19)
    refused("not a Skat bid")
    s.press(1, "bid", 18).press(0, "yes")
    s.press(1, "bid", 18)
    refused("not higher than the current bid 18")
    s.press(0, "kontra")
    refused("Kontra")
    s.press(1, "pass")
    s.press(2, "bid", 20).press(0, "yes").press(2, "pass")
    # Anna declares at 20 after taking up the skat.
    s.press(2, "skat")
    refused("Anna is the declarer")
    s.declare(0, "C")
    refused("take it up first")
    s.press(0, "skat")
    s.declare(0, "CS")
    refused("schneider can only be announced in a hand game")
    s.declare(0, "CH")
    refused("hand game is no longer possible")
    s.lay("centre", "D7")
    refused("skat reader")
    s.lay("skat", "SA")
    refused("does not hold SA")
    s.lay("skat", "D7").lay("skat", "C9")
    s.declare(1, "G")
    refused("Anna is the declarer, not Ben")
    s.declare(0, "C")
    # Play. Trick 1: Anna leads CJ, Ben must follow trump with C8.
    s.lay("centre", "SA")
    refused("SA is Ben's card")
    s.lay("seat1", "SA")
    refused("Anna's turn")
    s.play("CJ")
    s.lay("seat2", "HQ")
    refused("Ben's turn")
    s.lay("centre", "SA")  # SA is still lying on the centre from the refusal: no new read
    noop.add(len(s.lines))
    s.gone("centre", "SA").gone("seat1", "SA").lay("seat1", "SA")
    refused("must follow trump")
    s.lay("seat1", "C8").play("HQ")
    # The trick lies until its winner takes it away: a card of it read again is no new card.
    s.gone("centre", "CJ").lay("centre", "CJ")
    noop.add(len(s.lines))
    s.lay("centre", "C9")
    refused("lies in the skat")
    # Trick 2: hearts led; Ben must follow with HK or HT.
    s.play("HA")
    s.gone("centre", "CJ").lay("centre", "CJ")  # trick 1 has been taken away: a refusal
    refused("already been played in trick 1")
    s.gone("seat1", "SA").lay("seat1", "SA")
    refused("must follow hearts")
    s.play("HK H9")
    for trick in ("SJ SA H8", "HJ ST H7", "DJ SK DA", "CA SQ DT", "CT S9 DK", "CK S8 DQ",
                  "CQ S7 D9", "C7 HT D8"):
        s.play(trick)
    s.press(1, "bid")
    refused("game is over")
    return s, bad


def test_every_refusal_names_its_line_and_changes_nothing(tmp_path: Path) -> None:
    s, bad = refusal_script()
    out = replay(THREE, s.write(tmp_path / "bad.jsonl"))
    got = {r["line"]: r["reason"] for r in out["rejected"]}
    assert sorted(got) == sorted(bad), (got, bad)
    for line, words in bad.items():
        assert words in got[line], (line, got[line], words)
    # Anna: CJ..C9 with the discarded C9 (the skat is hers), C8 is Ben's: with 9.
    # Game 10, schneider 11, schwarz 12: 12 x 12 = 144.
    (game,) = out["games"]
    assert (game["declarer"], game["contract"], game["bid"]) == (0, "C", 20)
    assert game["won"] and game["value"] == 144 and game["matadors"] == 9
    assert game["schwarz"] and game["points"] == 120
    # Without the refused lines (and the lines that only re-read a lying card) it is the same.
    clean = Script()
    for number, line in enumerate(s.lines, start=1):
        if number not in bad and number not in s.noop:
            clean.raw(line)
    again = replay(THREE, clean.write(tmp_path / "clean.jsonl"))
    assert again["games"] == out["games"] and again["rejected"] == []


def test_undo_takes_back_the_last_actions_repeatedly(tmp_path: Path) -> None:
    s = Script().deal(REFUSAL_DEAL)
    s.press(1, "bid", 18).press(0, "pass")  # Anna passes by mistake
    s.press(2, "undo")  # anyone may undo: Anna has not passed
    s.press(0, "yes").press(1, "pass").press(2, "pass")
    s.press(0, "skat").lay("skat", "D7").lay("skat", "C9").declare(0, "G")
    s.press(0, "undo").press(0, "undo")  # grand and C9 taken back
    s.lay("skat", "C9")  # the same card may be laid again after its undo
    s.declare(0, "C")
    s.play("HA")
    s.lay("centre", "HK")  # Ben's card on the centre: Ben is to play
    s.press(1, "undo")
    s.play("HT H9")
    out = replay(THREE, s.write(tmp_path / "undo.jsonl"))
    assert out["rejected"] == []
    assert out["phase"] == "play"
    # Ben's HK is back in his hand and HT lies in the trick instead: finish to check.
    rest = Script()
    for trick in ("CJ C8 HQ", "SJ SA H8", "HJ ST H7", "DJ SK DA", "CA SQ DT", "CT S9 DK",
                  "CK S8 DQ", "CQ S7 D9", "C7 HK D8"):
        rest.play(trick)
    s.lines += rest.lines
    out = replay(THREE, s.write(tmp_path / "undo2.jsonl"))
    (game,) = out["games"]
    assert (game["declarer"], game["contract"], game["value"], game["bid"]) == (0, "C", 144, 18)


def test_undo_with_nothing_to_undo_is_refused(tmp_path: Path) -> None:
    s = Script().press(0, "undo")
    out = replay(THREE, s.write(tmp_path / "u.jsonl"))
    assert out["rejected"] == [{"line": 1, "reason": "there is nothing to undo"}]
    assert out["phase"] == "dealing"


def _to_play(s: Script, declare: str = "C") -> Script:
    s.deal(REFUSAL_DEAL)
    s.press(1, "pass").press(2, "pass").press(0, "bid")
    s.press(0, "skat").lay("skat", "D7").lay("skat", "C9").declare(0, declare)
    return s


def test_declarer_concedes_loses_at_the_simple_level(tmp_path: Path) -> None:
    s = _to_play(Script())
    s.play("CJ C8 HQ")  # Anna has 2 + 3 = 5 points in tricks and 0 in the skat (D7, C9)
    s.press(0, "concede")
    out = replay(THREE, s.write(tmp_path / "c.jsonl"))
    (game,) = out["games"]
    # with 9, game 10: 10 x 12 = 120, lost: -240.
    assert game["won"] is False and game["value"] == -240
    assert game["points"] == 5
    assert out["totals"] == [-240, 0, 0] and out["phase"] == "scored"


def test_defender_concedes_for_both(tmp_path: Path) -> None:
    s = _to_play(Script())
    s.press(2, "concede")
    out = replay(THREE, s.write(tmp_path / "d.jsonl"))
    (game,) = out["games"]
    assert game["won"] is True and game["value"] == 120  # with 9, game 10
    assert out["rejected"] == []


def test_concede_outside_play_is_refused(tmp_path: Path) -> None:
    s = Script().deal(REFUSAL_DEAL).press(1, "concede")
    out = replay(THREE, s.write(tmp_path / "e.jsonl"))
    assert [r["line"] for r in out["rejected"]] == [33]
    assert "only during play" in out["rejected"][0]["reason"]


def test_cards_on_seat_pads_and_seat_mode_deal(tmp_path: Path) -> None:
    cfg = write_config(tmp_path / "seats.toml", ["Anna", "Ben", "Carla"], 2, deal_mode="seats")
    s = Script()
    s.lay("deal", "CJ")
    s.deal_to_seats(REFUSAL_DEAL, (0, 1, 2), skat=False)  # the skat is what no one laid
    s.gone("seat2", "DA")  # Carla picks up her last card (she laid DA last)
    s.press(1, "pass").press(2, "pass").press(0, "bid").declare(0, "CH")
    for trick in ("CJ C8 HQ", "HA HK H9", "SJ SA H8", "HJ ST H7", "DJ SK DA", "CA SQ DT",
                  "CT S9 DK", "CK S8 DQ", "CQ S7 D9", "C9 HT D8"):
        a, b, c = trick.split()
        s.lay("seat0", a).lay("seat1", b).lay("seat2", c)
    out = replay(cfg, s.write(tmp_path / "s.jsonl"))
    assert [r["line"] for r in out["rejected"]] == [1]
    assert "own cards on their pad" in out["rejected"][0]["reason"]
    (game,) = out["games"]
    # Hand: with 9 (C7 in the skat is not a matador, C8 is Ben's), hand 11, schneider 12,
    # schwarz 13: 13 x 12 = 156.
    assert (game["contract"], game["won"], game["value"], game["matadors"]) == ("CH", True,
                                                                              156, 9)


def test_passed_in_deal_and_the_next_dealer(tmp_path: Path) -> None:
    s = Script().deal(REFUSAL_DEAL)
    s.press(1, "pass").press(2, "pass").press(0, "pass")
    s.deal(REFUSAL_DEAL)  # the next dealer (Anna) deals: Ben is forehand now
    s.press(2, "pass").press(0, "pass").press(1, "bid")
    out = replay(THREE, s.write(tmp_path / "p.jsonl"))
    first = out["games"][0]
    assert first["passed_in"] is True and first["value"] == 0
    for key in ("declarer", "contract", "won", "points", "tricks", "matadors"):
        assert first[key] is None, key
    assert out["phase"] == "skat" and len(out["games"]) == 1


def test_a_line_the_table_cannot_read_is_refused_not_fatal(tmp_path: Path) -> None:
    s = Script().raw("this is not json").raw('{"seat": 7, "press": "bid"}').raw("")
    s.raw('{"zone": "kitchen", "tag": "04"}').raw('{"seat": 0, "press": "dance"}')
    s.raw("[1, 2]").press(0, "undo")
    out = replay(THREE, s.write(tmp_path / "junk.jsonl"))
    assert [r["line"] for r in out["rejected"]] == [1, 2, 4, 5, 6, 7]
    assert all(r["reason"] for r in out["rejected"])


@pytest.mark.parametrize("players", [["Ånna", "Björn", "Çarla"], ["李", "Ødegård", "Zoë"]])
def test_unicode_player_names(tmp_path: Path, players: list[str]) -> None:
    cfg = write_config(tmp_path / "u.toml", players, 2)
    s = Script().deal(REFUSAL_DEAL).press(1, "pass").press(2, "pass").press(0, "pass")
    out = replay(cfg, s.write(tmp_path / "u.jsonl"))
    assert out["games"][0]["passed_in"] and out["phase"] == "scored"


NULL_DEAL = deal_of("C7 C8 C9 S7 S8 S9 H7 H8 H9 D7", "CT CJ CQ CK CA ST SJ SQ SK SA",
                    "HT HJ HQ HK HA DT DJ DQ DK DA", "D8 D9")


def test_null_hand_won(tmp_path: Path) -> None:
    s = Script().deal(NULL_DEAL)
    s.press(1, "pass").press(2, "pass").press(0, "bid").declare(0, "NH")
    s.play("C7 CT HA")  # Anna leads; Ben takes it, then leads every trick
    for trick in ("CJ HK C8", "CQ HQ C9", "CK HJ S7", "CA HT S8", "ST DT S9", "SJ DJ H7",
                  "SQ DQ H8", "SK DK H9", "SA DA D7"):
        s.play(trick)
    out = replay(THREE, s.write(tmp_path / "n.jsonl"))
    (game,) = out["games"]
    assert (game["contract"], game["won"], game["value"], game["matadors"]) == ("NH", True,
                                                                              35, 0)
    assert game["tricks"] == 0 and out["rejected"] == []


def test_null_ends_at_the_declarers_first_trick(tmp_path: Path) -> None:
    deal = deal_of("C7 C8 C9 S7 S8 S9 H7 H8 HA D7", "CT CJ CQ CK CA ST SJ SQ SK SA",
                   "HT HJ HQ HK H9 DT DJ DQ DK DA", "D8 D9")
    s = Script().deal(deal)
    s.press(1, "pass").press(2, "pass").press(0, "bid")
    s.press(0, "skat").lay("skat", "D8").lay("skat", "D9").declare(0, "N")
    s.play("HA CT H9")  # Anna takes the first trick: the null game is lost at once
    s.play("C7")  # the game is over: this card is the first of nothing
    out = replay(THREE, s.write(tmp_path / "n.jsonl"))
    (game,) = out["games"]
    assert (game["contract"], game["won"], game["value"], game["tricks"]) == ("N", False,
                                                                            -46, 1)
    assert [r["line"] for r in out["rejected"]] == [len(s.lines)]
    assert "deal the next one" in out["rejected"][0]["reason"]


def test_kontra_and_re_under_pub_rules(tmp_path: Path) -> None:
    cfg = write_config(tmp_path / "pub.toml", ["Anna", "Ben", "Carla"], 2, rules="pub",
                       house={"kontra_re": True})
    s = _to_play(Script())
    first_bad = s.next_line
    s.press(0, "re")  # Re answers a Kontra: none was said yet
    s.press(0, "kontra")  # the declarer cannot say Kontra
    s.press(1, "kontra").press(0, "re")
    for trick in ("CJ C8 HQ", "HA HK H9", "SJ SA H8", "HJ ST H7", "DJ SK DA", "CA SQ DT",
                  "CT S9 DK", "CK S8 DQ", "CQ S7 D9", "C7 HT D8"):
        s.play(trick)
    out = replay(cfg, s.write(tmp_path / "k.jsonl"))
    assert [r["line"] for r in out["rejected"]] == [first_bad, first_bad + 1]
    (game,) = out["games"]
    # with 9, game 10, schneider 11, schwarz 12: 144, Kontra x2, Re x2: 576.
    assert (game["won"], game["value"]) == (True, 576)


def test_ramsch_when_all_pass_under_pub_rules(tmp_path: Path) -> None:
    cfg = write_config(tmp_path / "ramsch.toml", ["Anna", "Ben", "Carla"], 2, rules="pub",
                       house={"ramsch": True})
    s = Script().deal(REFUSAL_DEAL)
    s.press(1, "pass").press(2, "pass").press(0, "pass")
    # Anna leads her jacks and clubs; everyone follows where they can.
    for trick in ("CJ C8 HQ", "HA HK H9", "SJ SA H8", "HJ ST H7", "DJ SK DA", "CA SQ DT",
                  "CT S9 DK", "CK S8 DQ", "CQ S7 D9", "C9 HT D8"):
        s.play(trick)
    out = replay(cfg, s.write(tmp_path / "r.jsonl"))
    assert out["rejected"] == [] and out["phase"] == "scored"
    (game,) = out["games"]
    assert game["passed_in"] is False and game["declarer"] is None
    # Anna took every trick: a Durchmarsch, which she wins with 120.
    assert game["scores"] == [120, 0, 0] and out["totals"] == [120, 0, 0]
    log = io.StringIO()
    with contextlib.redirect_stdout(log):
        assert main(["replay", str(cfg), str(tmp_path / "r.jsonl")]) == 0
    assert "Anna took every trick: Durchmarsch" in log.getvalue()


def test_four_players_the_dealer_sits_out(tmp_path: Path) -> None:
    # four-sf.toml: Anna, Ben, Carla, Dieter; Anna deals: Ben forehand, Carla, Dieter.
    s = Script().deal(REFUSAL_DEAL)
    s.press(0, "bid")
    refused = [len(s.lines)]
    s.press(2, "bid", 18).press(1, "yes").press(2, "pass").press(3, "pass")
    s.press(1, "skat").lay("skat", "D7").lay("skat", "C9").declare(1, "C")
    s.lay("seat0", "CJ")
    refused.append(len(s.lines))
    for trick in ("CJ C8 HQ", "HA HK H9", "SJ SA H8", "HJ ST H7", "DJ SK DA", "CA SQ DT",
                  "CT S9 DK", "CK S8 DQ", "CQ S7 D9", "C7 HT D8"):
        s.play(trick)
    out = replay(config("four-sf.toml"), s.write(tmp_path / "four.jsonl"))
    assert [r["line"] for r in out["rejected"]] == refused
    assert "Anna deals and sits out this game" in out["rejected"][0]["reason"]
    assert "no one plays from seat0" in out["rejected"][1]["reason"]
    (game,) = out["games"]
    assert (game["dealer"], game["declarer"], game["value"]) == (0, 1, 144)
    assert game["scores"] == [0, 144, 0, 0]
    assert out["seeger_fabian"] == [0, 194, 0, 0]  # 144 + 50 for a won game


def test_duel_mode_the_computer_is_never_credited(tmp_path: Path) -> None:
    # Carla's seat is the computer's: it defends with Ben, and the sheet never credits it.
    cfg = write_config(tmp_path / "duel.toml", ["Anna", "Ben", "Carla"], 2,
                       scoring="seeger-fabian", computer={"seats": [2], "mode": "duel"})
    s = _to_play(Script())
    s.play("CJ C8 HQ")
    s.press(0, "concede")
    out = replay(cfg, s.write(tmp_path / "duel.jsonl"))
    (game,) = out["games"]
    assert game["value"] == -240 and game["scores"] == [-240, 0, 0]
    # Seeger-Fabian: the declarer -240 - 50; the defender Ben +40; Carla, uncredited, 0.
    assert out["seeger_fabian"] == [-290, 40, 0]


def test_duel_mode_needs_one_computer_seat_at_three(tmp_path: Path) -> None:
    cfg = write_config(tmp_path / "duel.toml", ["Anna", "Ben", "Carla"], 2,
                       computer={"seats": [1, 2], "mode": "duel"})
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        status = main(["replay", str(cfg), str(cfg)])
    assert status == 2 and "[computer] mode" in err.getvalue()


def test_schieberamsch_takes_and_pushes_the_skat(tmp_path: Path) -> None:
    cfg = write_config(tmp_path / "schiebe.toml", ["Anna", "Ben", "Carla"], 2, rules="pub",
                       house={"ramsch": True, "schieberamsch": True})
    s = Script().deal(REFUSAL_DEAL)
    s.press(1, "pass").press(2, "pass").press(0, "pass")
    # Forehand first: Anna takes the skat and pushes it on; a jack may not be pushed.
    s.press(1, "skat")
    refused = [len(s.lines)]
    s.press(0, "skat").lay("skat", "CJ")
    refused.append(len(s.lines))
    s.lay("skat", "C7").lay("skat", "D7")
    # Ben passes it on untouched; Carla picks it up and pushes the same two cards.
    s.press(1, "pass").press(2, "skat").gone("skat", "C7").gone("skat", "D7")
    s.lay("skat", "C7").lay("skat", "D7")
    for trick in ("CJ C8 HQ", "HA HK H9", "SJ SA H8", "HJ ST H7", "DJ SK DA", "CA SQ DT",
                  "CT S9 DK", "CK S8 DQ", "CQ S7 D9", "C9 HT D8"):
        s.play(trick)
    out = replay(cfg, s.write(tmp_path / "s.jsonl"))
    assert [r["line"] for r in out["rejected"]] == refused
    assert "Anna's turn" in out["rejected"][0]["reason"]
    assert "jacks may not be pushed" in out["rejected"][1]["reason"]
    (game,) = out["games"]
    assert game["declarer"] is None and game["scores"] == [120, 0, 0]  # Anna's Durchmarsch
    assert out["phase"] == "scored"


def test_schieberamsch_needs_ramsch(tmp_path: Path) -> None:
    cfg = write_config(tmp_path / "bad.toml", ["Anna", "Ben", "Carla"], 2, rules="pub",
                       house={"schieberamsch": True})
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        assert main(["replay", str(cfg), str(cfg)]) == 2
    assert "[house]" in err.getvalue() and "ramsch" in err.getvalue()
