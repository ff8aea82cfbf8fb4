"""A person at the simulator's window: the real kiosk (dummy video driver) in the real event
loop of ``skat-table simulate``, driven only by synthetic mouse and touch events posted into
pygame's event queue, the way SDL posts a person's taps."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pygame

from display.kiosk import Kiosk
from display.layout import Element
from firmware_host.config import simulated_config
from firmware_host.service.runner import kiosk_loop, open_session


class Tabletop:
    """Anna (seat 0) plays against two computer seats in the simulator's window."""

    def __init__(self, seed: int = 1, games: int | None = 2, journal: Path | None = None,
                 size: tuple[int, int] = (800, 480), language: str = "de",
                 paced: bool = False, config: Any = None, bids: bool = False,
                 offer_resume: bool = False, rotate: int | None = None,
                 tap_twice: bool = False) -> None:
        self.bids = bids  # Anna bids and holds (up to 30) rather than passing
        cfg = config or simulated_config(computer_seats=(1, 2), series_length=games, seed=seed,
                                         language=language)
        self.kiosk = Kiosk(size=size, rotate=rotate, tap_twice=tap_twice).open()
        pygame.event.clear()
        self.session = open_session(cfg, journal)
        self.loop = kiosk_loop(cfg, self.session, self.kiosk, simulated=True, seed=seed,
                               offer_resume=offer_resume)
        if not paced:
            self.loop.pace = self.loop.trick_pause = 0.0
        from firmware_host.series.archive import attach

        attach(self.session, self.loop.post)  # the statistics, as run_kiosk keeps them
        self.loop.computers()
        self.loop.refresh()

    # ---- what the person sees -----------------------------------------------------------
    @property
    def view(self) -> Any:
        return self.kiosk.view

    @property
    def table(self) -> Any:
        return self.session.table

    def find(self, role: str) -> list[Element]:
        return [e for e in self.kiosk.elements if e.role.split(" ")[0] == role]

    def one(self, role: str) -> Element:
        found = self.find(role)
        assert found, f"no {role!r} on the {self.view.scene} screen: " + ", ".join(
            sorted({e.role for e in self.kiosk.elements}))
        return found[0]

    # ---- what the person does ------------------------------------------------------------
    def tap_at(self, x: int, y: int, touch: bool = False) -> None:
        """A tap at a point of the screen (of the panel, as it is turned)."""
        if touch:
            w, h = self.kiosk.screen.get_size()
            pygame.event.post(pygame.event.Event(
                pygame.FINGERDOWN, x=x / w, y=y / h, dx=0.0, dy=0.0, touch_id=1, finger_id=0,
                pressure=1.0))
        else:
            pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(x, y), button=1,
                                                 touch=False))
        self.settle()

    def tap(self, target: str | Element, touch: bool = False) -> None:
        el = self.one(target) if isinstance(target, str) else target
        self.tap_at(*self.kiosk.screen_point(*el.rect.center), touch=touch)

    def key(self, key: int) -> None:
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=key, mod=0, unicode="",
                                             scancode=0))
        self.settle()

    def settle(self, timeout: float = 0.05) -> None:
        """Let the loop take the queued events (and any paced computer card now due)."""
        self.loop.serve_once(timeout, self.kiosk.wait_events)
        # A round that found the loop's own queue full (the archive's worker said it is
        # ready) leaves the window's input to the next round, as the running loop takes it
        # a moment later: take it now, so that a tap is never left lying for the next one.
        for _ in range(5):
            if not pygame.event.peek():
                break
            self.loop.serve_once(0.0, self.kiosk.wait_events)

    def hand_card(self, card: Any) -> Element:
        return next(e for e in self.find("hand0") if e.card == card)

    def close(self) -> None:
        if self.loop.chimes is not None:
            self.loop.chimes.close()
        self.kiosk.close()
        self.session.close()

    # ---- playing along -------------------------------------------------------------------
    def deal_all(self) -> None:
        self.tap("deal-rest")

    def act(self) -> None:
        """One sensible action for Anna on the screen as it is (taps only)."""
        v = self.view
        if v.scene == "deal":
            self.deal_all()
        elif v.scene in ("result", "sheet") and self.find("deal-next"):
            self.tap("deal-next")
        elif v.scene == "result" and self.find("series-end"):
            self.tap("series-end")              # the last result: on to the summary
        elif v.scene == "result" and self.find("new-series"):
            self.tap("new-series")              # asks first
            self.tap("confirm-new-series")
        elif v.scene == "bidding" and v.turn != 0:
            raise AssertionError(f"the computer seat {v.turn} does not bid")
        elif v.scene == "bidding":
            b = v.bidding
            if self.bids and (b.next_value or 999) <= 30 and self.find("press-bid"):
                self.tap("press-bid")
            elif self.bids and b.value <= 30 and self.find("press-yes"):
                self.tap("press-yes")
            else:
                self.tap("press-pass")
        elif v.scene == "declaration":
            d = v.declaration
            if not d.skat_taken:
                self.tap("press-skat")
            elif len(d.discards) < 2:
                self.tap(self.find("hand0")[0])
            else:
                self.tap(next(e for e in self.kiosk.elements
                              if e.role.startswith("declare-") and e.command is not None))
        elif v.scene == "play":
            legal = self.legal_cards()
            self.tap(self.hand_card(legal[0]))
        else:
            raise AssertionError(f"nothing to do on {v.scene}")

    def legal_cards(self) -> list[Any]:
        return list(self.table.game.legal_cards())

    def anna_to_play(self) -> bool:
        return self.view.scene == "play" and self.view.play.to_act == 0 and self.view.turn == 0

