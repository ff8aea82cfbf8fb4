"""Contracts in ISS notation, the checks on what may be declared, and the bid values."""

from __future__ import annotations

import pytest

from engine.contract import BID_VALUES, Contract, ContractError, GameType, next_bid


@pytest.mark.parametrize(
    "text, canonical",
    [("G", "G"), ("CH", "CH"), ("SHS", "SHS"), ("SSH", "SHS"), ("GHZ", "GHZ"),
     ("GHSZ", "GHZ"), ("GZH", "GHZ"), ("GO", "GO"), ("CO", "CO"), ("COH", "CO"),
     ("N", "N"), ("NH", "NH"), ("NO", "NO"), ("NOH", "NOH"), ("NHO", "NOH"), ("dh", "DH")],
)
def test_parse_and_write(text: str, canonical: str) -> None:
    assert str(Contract.parse(text)) == canonical
    assert Contract.parse(canonical) == Contract.parse(text)


def test_ouvert_implies_hand_schneider_schwarz_in_suit_and_grand_only() -> None:
    c = Contract.parse("HO")
    assert (c.hand, c.schneider, c.schwarz, c.ouvert) == (True, True, True, True)
    n = Contract.parse("NO")
    assert (n.hand, n.schneider, n.schwarz, n.ouvert) == (False, False, False, True)
    assert Contract(GameType.GRAND, ouvert=True) == Contract.parse("GO")


def test_schwarz_implies_schneider() -> None:
    assert Contract.parse("CHZ").schneider


@pytest.mark.parametrize(
    "text, message",
    [("", "no contract"), ("X", "not a game"), ("CQ", "not a modifier"),
     ("CHH", "written twice"), ("NS", "null"), ("NHZ", "null")],
)
def test_bad_notation(text: str, message: str) -> None:
    with pytest.raises(ContractError, match=message):
        Contract.parse(text)


@pytest.mark.parametrize(
    "text, skat_taken, message",
    [("CS", True, "schneider can only be announced in a hand game"),
     ("CH", True, "hand game is no longer possible"),
     ("NH", True, "hand game is no longer possible"),
     ("GO", True, "always hand"),
     ("C", False, "take it up first"),
     ("N", False, "take it up first")],
)
def test_contracts_refused_with_reason(text: str, skat_taken: bool, message: str) -> None:
    with pytest.raises(ContractError, match=message):
        Contract.parse(text).check(skat_taken)


@pytest.mark.parametrize("text, skat_taken", [("C", True), ("NO", True), ("N", True),
                                               ("CH", False), ("GHS", False), ("GO", False),
                                               ("NOH", False), ("DHZ", False)])
def test_contracts_allowed(text: str, skat_taken: bool) -> None:
    Contract.parse(text).check(skat_taken)


def test_null_values() -> None:
    assert [Contract.parse(t).null_value for t in ("N", "NH", "NO", "NOH")] == [23, 35, 46, 59]
    assert Contract.parse("G").null_value is None


def test_base_values() -> None:
    assert [GameType(g).base_value for g in range(5)] == [12, 11, 10, 9, 24]
    assert GameType.NULL.base_value is None


def test_the_63_bid_values() -> None:
    assert len(BID_VALUES) == 63
    assert BID_VALUES[:16] == (18, 20, 22, 23, 24, 27, 30, 33, 35, 36, 40, 44, 45, 46, 48, 50)
    assert BID_VALUES[-1] == 264
    assert 21 not in BID_VALUES and 59 in BID_VALUES and 25 not in BID_VALUES
    assert next_bid(None) == 18 and next_bid(0) == 18
    assert next_bid(18) == 20 and next_bid(23) == 24 and next_bid(264) is None
