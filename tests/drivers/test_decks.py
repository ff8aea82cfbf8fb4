"""Deck registry and enrolment."""

from __future__ import annotations

from pathlib import Path

import pytest

from drivers.decks import (
    Deck,
    DeckError,
    DeckRegistry,
    EnrolmentError,
    EnrolmentSession,
    UnknownTagError,
    WrongDeckError,
    load_deck,
    save_deck,
)
from engine.cards import Card


def uids(prefix: str) -> dict[Card, str]:
    return {card: f"{prefix}{card.value:02x}" for card in Card}


def test_the_design_deck_table_form_loads(tmp_path: Path) -> None:
    text = "[deck]\n" + "".join(f'{c} = "{u.upper()}"\n' for c, u in uids("04a224b2c94f").items())
    (tmp_path / "table.toml").write_text(text)
    deck = load_deck(tmp_path / "table.toml")
    assert deck.name == "table" and len(deck) == 32
    assert deck.card_for("04a224b2c94f04") is Card.CJ


def test_save_and_load_round_trip(tmp_path: Path) -> None:
    deck = Deck("Kreuz-Blatt ä", uids("04a224b2c94f"))
    save_deck(deck, tmp_path / "d.toml")
    again = load_deck(tmp_path / "d.toml")
    assert again.name == "Kreuz-Blatt ä" and again.cards == deck.cards


@pytest.mark.parametrize(
    ("table", "message"),
    [
        ({str(c): u for c, u in list(uids("04a224b2c94f").items())[:31]},
         "31 cards, not 32: missing DA"),
        ({**{str(c): u for c, u in uids("04a224b2c94f").items()}, "DA": "04a224b2c94f00"},
         "C7 and DA have the same tag"),
        ({"XX": "04a224b2"}, "'XX' is not a card"),
        ({"CJ": "zz"}, "CJ: 'zz' is not a tag UID"),
        ({"CJ": 5}, "must be a hex string"),
    ],
)
def test_bad_decks_are_refused_with_a_reason(table: dict, message: str) -> None:
    with pytest.raises(DeckError, match=message):
        Deck.from_table(table, "t")


def test_bad_files(tmp_path: Path) -> None:
    with pytest.raises(DeckError, match="does not exist"):
        load_deck(tmp_path / "none.toml")
    (tmp_path / "bad.toml").write_text("[deck\n")
    with pytest.raises(DeckError, match="not valid TOML"):
        load_deck(tmp_path / "bad.toml")


def test_registry_names_a_card_of_the_wrong_deck(tmp_path: Path) -> None:
    blue, red = Deck("blue", uids("04aaaaaaaaaa")), Deck("red", uids("04bbbbbbbbbb"))
    save_deck(blue, tmp_path / "blue.toml")
    save_deck(red, tmp_path / "red.toml")
    registry = DeckRegistry.load_dir(tmp_path)
    assert [d.name for d in registry.decks] == ["blue", "red"]
    assert registry.card_in("04aaaaaaaaaa04", "blue") is Card.CJ
    with pytest.raises(WrongDeckError, match="the CJ of deck 'red', not a card of deck 'blue'"):
        registry.card_in("04bbbbbbbbbb04", "blue")
    with pytest.raises(UnknownTagError, match="no enrolled deck"):
        registry.card_for("deadbeef")
    with pytest.raises(DeckError, match="tag 04aaaaaaaaaa00 is C7 of deck 'green'"):
        registry.add(Deck("green", uids("04aaaaaaaaaa")))
    with pytest.raises(DeckError, match="no deck named 'green'"):
        registry.get("green")


def test_enrolment_refuses_duplicates_and_foreign_tags_and_undoes(tmp_path: Path) -> None:
    registry = DeckRegistry([Deck("red", uids("04bbbbbbbbbb"))])
    session = EnrolmentSession("blue", tmp_path / "blue.toml", registry)
    assert session.next_card is Card.C7
    assert session.offer("04aaaaaaaaaa00") is Card.C7
    with pytest.raises(EnrolmentError, match="already enrolled as C7: lay the C8"):
        session.offer("04AAAAAAAAAA00")
    with pytest.raises(EnrolmentError, match="the C7 of deck 'red'"):
        session.offer("04bbbbbbbbbb00")
    with pytest.raises(EnrolmentError, match="not a tag UID"):
        session.offer("hello")
    assert session.offer("04aaaaaaaaaa01") is Card.C8
    assert session.undo() is Card.C8
    assert session.next_card is Card.C8 and session.count == 1


def test_enrolment_resumes_and_completes(tmp_path: Path) -> None:
    path = tmp_path / "blue.toml"
    session = EnrolmentSession("blue", path)
    wanted = uids("04aaaaaaaaaa")
    for card in list(Card)[:10]:
        session.offer(wanted[card])
    resumed = EnrolmentSession("ignored", path)  # the file's name wins
    assert resumed.name == "blue" and resumed.next_card is list(Card)[10]
    assert resumed.undo() is list(Card)[9]
    with pytest.raises(DeckError, match="9 cards, not 32"):
        resumed.deck()
    for card in list(Card)[9:]:
        resumed.offer(wanted[card])
    assert resumed.done and resumed.next_card is None
    assert load_deck(path).cards == wanted
    with pytest.raises(EnrolmentError, match="complete"):
        resumed.offer("04cccccccccc00")
    assert EnrolmentSession("x", tmp_path / "new.toml").undo() is None


def test_a_config_naming_its_deck_file_is_followed(tmp_path: Path) -> None:
    save_deck(Deck("blue", uids("04aaaaaaaaaa")), tmp_path / "blue.toml")
    (tmp_path / "table.toml").write_text('[table]\nplayers = ["A", "B", "C"]\n'
                                         '[deck]\ndeck = "blue.toml"\n')
    assert load_deck(tmp_path / "table.toml").name == "blue"
    (tmp_path / "loop.toml").write_text('[deck]\ndeck = "loop.toml"\n')
    with pytest.raises(DeckError, match="names yet another deck file"):
        load_deck(tmp_path / "loop.toml")
