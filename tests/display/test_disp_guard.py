"""The simulator's guard against misplays, as a person meets it at the window: a first tap
on a card of the hand chooses it (drawn lifted, in a blue frame), a second tap on it lays
it, a tap on another card chooses that one instead; keys lay at once; the table's readers
know nothing of it. On by default in the simulator, a setting of the config."""

from __future__ import annotations

import pygame
import pytest
from tabletop import Tabletop

from display.layout import CHOSEN
from firmware_host.config import ConfigError, parse_config, simulated_config


def anna_to_play(t: Tabletop) -> None:
    for _ in range(300):
        if t.anna_to_play():
            return
        t.act() if t.view.scene != "play" else t.settle()
    raise AssertionError(f"Anna is not to play: {t.view.scene}")


def lifted(t: Tabletop) -> list:
    return [e.card for e in t.find("hand0") if e.raised]


@pytest.mark.parametrize("touch", [False, True])
def test_a_first_tap_chooses_the_card_and_a_second_lays_it(touch: bool) -> None:
    t = Tabletop(seed=4, games=None, tap_twice=True, bids=True)
    try:
        anna_to_play(t)
        legal = t.legal_cards()
        other = next(c for c in t.view.hands[0] if c != legal[0])
        trick = t.view.play.trick
        t.tap(t.hand_card(legal[0]), touch=touch)
        # nothing laid: the table is where it was, the card lifted in its frame
        assert t.view.play.trick == trick and legal[0] in t.view.hands[0]
        assert lifted(t) == [legal[0]]
        el = t.hand_card(legal[0])
        assert el.draw_rect.top == el.rect.top - el.raised and el.raised >= 5
        frame = (el.rect.left + 1, el.rect.top - el.raised + 1)
        assert tuple(t.kiosk.screen.get_at(frame))[:3] == CHOSEN
        # another card: the choice moves, still nothing laid
        t.tap(t.hand_card(other), touch=touch)
        assert lifted(t) == [other] and t.view.play.trick == trick
        # the first again, twice: laid
        t.tap(t.hand_card(legal[0]), touch=touch)
        assert lifted(t) == [legal[0]] and t.view.play.trick == trick
        t.tap(t.hand_card(legal[0]), touch=touch)
        assert legal[0] not in t.view.hands[0]
        assert legal[0] in [c for _, c in t.view.play.trick.cards] or (
            t.view.play.last_trick is not None
            and legal[0] in [c for _, c in t.view.play.last_trick.cards])
        assert lifted(t) == []
    finally:
        t.close()


def test_keys_lay_at_once_and_a_chosen_card_laid_by_key_is_no_longer_chosen() -> None:
    t = Tabletop(seed=4, games=None, tap_twice=True, bids=True)
    try:
        anna_to_play(t)
        legal = t.legal_cards()
        t.tap(t.hand_card(legal[0]))
        assert lifted(t) == [legal[0]]
        shown = [e.card for e in t.find("hand0")]
        t.key([pygame.K_1, pygame.K_2, pygame.K_3, pygame.K_4, pygame.K_5, pygame.K_6,
               pygame.K_7, pygame.K_8, pygame.K_9, pygame.K_0][shown.index(legal[0])])
        assert legal[0] not in t.view.hands[0]  # one key, one card
        assert t.kiosk.ui.chosen is None and lifted(t) == []
    finally:
        t.close()


def test_the_discards_after_a_pick_up_are_guarded_too() -> None:
    """Laying away is laying a card: the first tap chooses it, the second lays it on the
    skat."""
    t = Tabletop(seed=2, games=None, tap_twice=True, bids=True)
    try:
        for _ in range(300):
            if t.view.scene == "declaration" and t.view.turn == 0:
                break
            t.act()
        if t.view.scene != "declaration" or t.view.declaration.declarer != 0:
            pytest.skip("Anna does not declare in the first deal of this seed")
        t.tap("press-skat")
        card = t.find("hand0")[0].card
        t.tap(t.hand_card(card))
        assert t.view.declaration.discards == () and lifted(t) == [card]
        t.tap(t.hand_card(card))
        assert t.view.declaration.discards == (card,)
    finally:
        t.close()


def test_the_guard_is_a_setting_on_by_default_in_the_simulator() -> None:
    from firmware_host.service.runner import open_kiosk

    base = simulated_config()
    deck = {str(card): uid for uid, card in base.deck.items()}
    table = {"players": ["Anna", "Ben", "Carla"]}
    on = parse_config({"table": table, "deck": deck})
    off = parse_config({"table": table, "deck": deck, "display": {"tap_twice": False}})
    with pytest.raises(ConfigError, match=r"\[display\] tap_twice: must be true or false"):
        parse_config({"table": table, "deck": deck, "display": {"tap_twice": "yes"}})
    for config, simulated, want in ((on, True, True), (on, False, False),
                                    (off, True, False)):
        kiosk = open_kiosk(config, simulated)
        try:
            assert kiosk.tap_twice is want, (config.display, simulated)
        finally:
            kiosk.close()


def test_without_the_guard_one_tap_lays_the_card() -> None:
    t = Tabletop(seed=4, games=None, tap_twice=False, bids=True)
    try:
        anna_to_play(t)
        card = t.legal_cards()[0]
        t.tap(t.hand_card(card))
        assert card not in t.view.hands[0] and lifted(t) == []
    finally:
        t.close()
