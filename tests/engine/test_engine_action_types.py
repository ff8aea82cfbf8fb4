"""Every action checks its values when it is made: a wrong type or value is an
``IllegalAction`` with a reason, and nothing enters a game that does not come back from its
JSON."""

from __future__ import annotations

import json
import random

import pytest
from engine_helpers import random_game
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.actions import (
    Abort,
    Action,
    ActionError,
    Bid,
    Concede,
    Declare,
    Discard,
    Hold,
    IllegalAction,
    Kontra,
    Pass,
    Play,
    Push,
    Re,
    TakeSkat,
    action_from_json,
)
from engine.cards import Card
from engine.contract import Contract, ContractError, GameType
from engine.game import Game, Rules


@pytest.mark.parametrize("make", [
    lambda: Bid(1, 18.0), lambda: Bid(1, "18"), lambda: Bid(1, True), lambda: Bid(1, None),
    lambda: Pass(True), lambda: Pass(3), lambda: Pass(-1), lambda: Pass(1.0), lambda: Hold("0"),
    lambda: Play(0, 4), lambda: Play(1, "SK"), lambda: Play(1, None), lambda: Discard(0, 31),
    lambda: Declare(0, "GH"), lambda: Declare(0, None), lambda: Abort(0, "nap"),
    lambda: Abort(0, 1), lambda: Concede(False), lambda: Kontra(2.5), lambda: Re("1"),
    lambda: Push(None), lambda: TakeSkat([0]),
])
def test_a_wrong_type_or_value_is_refused_when_the_action_is_made(make) -> None:
    with pytest.raises(IllegalAction) as exc:
        make()
    assert str(exc.value)  # a reason, in words


def test_the_reasons_name_what_was_wrong() -> None:
    with pytest.raises(IllegalAction, match=r"a bid is a whole number such as 18, not '18'"):
        Bid(1, "18")
    with pytest.raises(IllegalAction, match=r"a card is a Card such as Card.SK, not 'SK'"):
        Play(1, "SK")
    with pytest.raises(IllegalAction, match=r"a contract is a Contract such as"):
        Declare(0, "GH")
    with pytest.raises(IllegalAction, match=r"a position is 0 \(forehand\), 1 \(middlehand\) "
                                            r"or 2 \(rearhand\), not True"):
        Pass(True)


def test_contracts_are_checked_too() -> None:
    for make in (lambda: Contract("G"), lambda: Contract(GameType.GRAND, hand=1),
                 lambda: Contract(9), lambda: Contract(GameType.NULL, schneider=True),
                 lambda: Contract(True)):
        with pytest.raises(ContractError):
            make()
    assert Contract(4, hand=True) == Contract.parse("GH")  # a plain int game is fine


def test_json_with_wrong_types_is_refused_with_a_reason() -> None:
    for d in ({"type": "play", "pos": 0, "card": 4}, {"type": "declare", "pos": 0,
                                                      "contract": ["G"]},
              {"type": "bid", "pos": 1, "value": 18.0}, {"type": "pass", "pos": True}):
        with pytest.raises(ActionError):
            action_from_json(d)
    assert issubclass(ActionError, IllegalAction) and issubclass(IllegalAction, ValueError)


_CONTRACTS = [Contract.parse(t) for t in ("G", "GH", "CHS", "SHZ", "GO", "N", "NOH", "D")]
anything = st.one_of(
    st.none(), st.booleans(), st.integers(min_value=-3, max_value=300),
    st.floats(allow_nan=True), st.text(max_size=4), st.sampled_from(list(Card)),
    st.sampled_from(_CONTRACTS), st.sampled_from(["timeout", "leave", "resign", "SK", "GH"]),
    st.lists(st.integers(min_value=0, max_value=2), max_size=2),
    st.sampled_from(list(GameType)),
)
_CLASSES = [Bid, Hold, Pass, TakeSkat, Discard, Declare, Play, Concede, Kontra, Re, Push, Abort]
_ARITY = {Bid: 2, Discard: 2, Declare: 2, Play: 2, Abort: 2}


@settings(max_examples=500, deadline=None)
@given(st.integers(min_value=0, max_value=2**32 - 1), st.integers(min_value=0, max_value=40),
       st.sampled_from(_CLASSES), anything, anything, st.booleans())
def test_arbitrary_values_never_break_a_game(seed: int, keep: int, cls: type[Action],
                                             a: object, b: object, house: bool) -> None:
    args = (a, b)[:_ARITY.get(cls, 1)]
    try:
        action = cls(*args)  # type: ignore[arg-type]
    except IllegalAction:
        return
    rules = Rules(kontra_re=True, ramsch=True, schieberamsch=True) if house else Rules()
    g = random_game(random.Random(seed), rules)
    while len(g.actions) > keep:
        g.pop()
    before = g.state_key()
    try:
        g.push(action)
    except IllegalAction:
        assert g.state_key() == before  # refused: nothing changed
        return
    assert g.actions[-1] is action
    h = Game.from_json(json.loads(json.dumps(g.to_json())))
    assert h.actions == g.actions and h.state_key() == g.state_key()
