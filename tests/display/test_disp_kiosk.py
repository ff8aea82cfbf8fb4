"""The kiosk window under the dummy video driver: taps, clicks and keys become commands, the
screen is redrawn only when something changed, the idle screen comes and goes, a missing
display is retried with back-off."""

from __future__ import annotations

from dataclasses import replace

import pygame
import pytest

from display import commands as cmd
from display.kiosk import DisplayUnavailable, Kiosk
from display.samples import extra_views, sample_view
from engine.cards import Card


class FakeClock:
    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def kiosk(clock: FakeClock):
    k = Kiosk(idle_after=300, clock=clock, wall_clock=lambda: "12:34").open((800, 480))
    pygame.event.clear()
    yield k
    k.close()


def post(event_type: int, **fields: object) -> None:
    pygame.event.post(pygame.event.Event(event_type, **fields))


def click(x: int, y: int, touch: bool = False) -> None:
    post(pygame.MOUSEBUTTONDOWN, pos=(x, y), button=1, touch=touch)


def finger(k: Kiosk, x: int, y: int) -> None:
    w, h = k.size
    post(pygame.FINGERDOWN, x=x / w, y=y / h, dx=0.0, dy=0.0, touch_id=1, finger_id=0,
         pressure=1.0)


def key(k: int, mod: int = 0) -> None:
    post(pygame.KEYDOWN, key=k, mod=mod, unicode="", scancode=0)


def element(k: Kiosk, role: str):
    return next(e for e in k.elements if e.role.split(" ")[0] == role)


def test_click_on_a_hand_card_lays_it(kiosk: Kiosk) -> None:
    kiosk.show(sample_view("play", simulator=True))
    card = next(e for e in kiosk.elements if e.role == "hand2")
    click(*card.rect.center)
    assert kiosk.wait_events(0.05) == [card.command]
    assert isinstance(card.command, cmd.LayCard) and card.command.seat == 2


def test_touch_counts_once(kiosk: Kiosk) -> None:
    """A finger makes a FINGERDOWN and a synthetic mouse click: one command, not two."""
    kiosk.show(sample_view("bidding"))
    button = element(kiosk, "press-yes")
    finger(kiosk, *button.rect.center)
    click(*button.rect.center, touch=True)
    assert kiosk.wait_events(0.05) == [cmd.Press(0, "yes")]


def test_bidding_buttons_and_keys(kiosk: Kiosk) -> None:
    view = sample_view("bidding")
    kiosk.show(view)
    key(pygame.K_p)
    assert kiosk.wait_events(0.05) == [cmd.Press(0, "pass")]
    bidder = replace(view, bidding=replace(view.bidding, to_act=1))  # type: ignore[arg-type]
    kiosk.show(bidder)
    key(pygame.K_b)
    assert kiosk.wait_events(0.05) == [cmd.Press(1, "bid")]
    jump = next(e for e in kiosk.elements if e.role == "press-jump")
    click(*jump.rect.center)
    assert kiosk.wait_events(0.05) == [cmd.Press(1, "bid", 27)]


def test_declaration_in_few_taps(kiosk: Kiosk) -> None:
    kiosk.show(sample_view("declaration"))
    click(*element(kiosk, "mod-S").rect.center)
    assert kiosk.wait_events(0.05) == []       # a toggle stays on the screen
    assert "S" in kiosk.ui.draft
    click(*element(kiosk, "declare-S").rect.center)
    assert kiosk.wait_events(0.05) == [cmd.Declare(0, "SHS")]
    key(pygame.K_k)
    assert kiosk.wait_events(0.05) == [cmd.Press(0, "skat")]
    key(pygame.K_o)
    key(pygame.K_5)
    assert kiosk.wait_events(0.05) == [cmd.Declare(0, "GO")]


def test_every_action_reachable_by_keyboard(kiosk: Kiosk) -> None:
    """Tab walks through every tap target; Enter does what a tap does."""
    for scene in ("bidding", "declaration", "play", "deal", "result"):
        view = sample_view(scene, simulator=True)
        kiosk.show(view)
        targets = [e.command for e in kiosk.elements if e.command is not None]
        reached = []
        for _ in targets:
            key(pygame.K_TAB)
            kiosk.wait_events(0.01)
            focused = [e for e in kiosk.elements if e.command is not None][kiosk.ui.focus]
            reached.append(focused.command)
        assert reached == targets, scene
        kiosk.ui = replace(kiosk.ui, focus=None, picker=False, show_sheet=False)


def test_enter_activates_focus(kiosk: Kiosk) -> None:
    kiosk.show(sample_view("deal", simulator=True))
    actionable = [e for e in kiosk.elements if e.command is not None]
    index = next(i for i, e in enumerate(actionable) if e.role == "deal-next")
    for _ in range(index + 1):
        key(pygame.K_TAB)
    key(pygame.K_RETURN)
    assert kiosk.wait_events(0.05) == [cmd.DealNext()]
    key(pygame.K_SPACE)  # space activates the focused element too
    assert kiosk.wait_events(0.05) == [cmd.DealNext()]


def test_language_picker(kiosk: Kiosk) -> None:
    kiosk.show(sample_view("play"))
    click(*element(kiosk, "language").rect.center)
    assert kiosk.wait_events(0.05) == []
    assert kiosk.ui.picker
    click(*element(kiosk, "pick-cs").rect.center)
    assert kiosk.wait_events(0.05) == [cmd.SetLanguage("cs")]
    assert not kiosk.ui.picker
    key(pygame.K_l)
    assert kiosk.wait_events(0.05) == [cmd.SetLanguage("en")]
    key(pygame.K_c)
    assert kiosk.wait_events(0.05) == [cmd.SetCardStyle("four-colour")]


def test_sheet_and_last_trick_toggle_locally(kiosk: Kiosk) -> None:
    kiosk.show(sample_view("play"))
    key(pygame.K_t)
    assert kiosk.wait_events(0.05) == [cmd.ShowLastTrick()]
    assert any(e.role.startswith("last-card") for e in kiosk.elements)
    key(pygame.K_s)
    assert kiosk.wait_events(0.05) == [cmd.ShowSheet()]
    assert any(e.role == "sheet-total" for e in kiosk.elements)
    key(pygame.K_ESCAPE)  # closes the overlay, does not quit
    assert kiosk.wait_events(0.05) == []
    assert not any(e.role == "sheet-total" for e in kiosk.elements)
    key(pygame.K_ESCAPE)  # asks first (mid-game)
    assert kiosk.wait_events(0.05) == []
    assert any(e.role == "quit-confirm" for e in kiosk.elements)
    key(pygame.K_y)
    assert kiosk.wait_events(0.05) == [cmd.Quit()]


def test_redraw_only_what_changed(kiosk: Kiosk, monkeypatch: pytest.MonkeyPatch) -> None:
    updates: list[object] = []
    monkeypatch.setattr(pygame.display, "update", lambda rects=None: updates.append(rects))
    monkeypatch.setattr(pygame.display, "flip", lambda: updates.append("flip"))
    view = sample_view("play")
    kiosk.show(view)
    assert updates == ["flip"]
    kiosk.show(view)
    assert updates == ["flip"]          # the same view: nothing drawn
    laid = replace(view, play=replace(view.play, to_act=0, trick=replace(  # type: ignore
        view.play.trick, cards=(*view.play.trick.cards, (2, Card.C7)))))  # type: ignore
    kiosk.show(laid)
    assert len(updates) == 2 and updates[1] != "flip"
    rects = updates[1]
    area = sum(r.w * r.h for r in rects)  # type: ignore[union-attr]
    assert 0 < area < 0.5 * 800 * 480   # the trick and the turn marks, not the whole screen
    card = next(e for e in kiosk.elements if e.card == Card.C7)
    assert any(r.contains(card.rect) for r in rects)  # type: ignore[union-attr]


def test_idle_screen_and_wake(kiosk: Kiosk, clock: FakeClock) -> None:
    view = sample_view("play")
    kiosk.show(view)
    clock.t += 301
    assert kiosk.wait_events(0.01) == []
    assert any(e.role == "clock" and e.text == "12:34" for e in kiosk.elements)
    # The waking tap does nothing else, even where a button was.
    click(400, 240)
    assert kiosk.wait_events(0.01) == []
    assert not any(e.role == "clock" for e in kiosk.elements)
    clock.t += 301
    kiosk.wait_events(0.01)
    assert any(e.role == "clock" for e in kiosk.elements)
    # A new view (a card laid) wakes it too.
    kiosk.show(replace(view, play=replace(view.play, to_act=0)))  # type: ignore[arg-type]
    assert not any(e.role == "clock" for e in kiosk.elements)


def test_notify_wakes_the_wait(kiosk: Kiosk) -> None:
    kiosk.show(sample_view("play"))
    kiosk.notify()
    assert kiosk.wait_events(30.0) == []  # returns at once instead of after 30 s


def test_on_command_callback(clock: FakeClock) -> None:
    got: list[cmd.Command] = []
    k = Kiosk(on_command=got.append, clock=clock).open((800, 480))
    try:
        k.show(sample_view("bidding"))
        key(pygame.K_y)
        k.wait_events(0.05)
        assert got == [cmd.Press(0, "yes")]
    finally:
        k.close()


def test_open_retries_with_back_off(monkeypatch: pytest.MonkeyPatch) -> None:
    real = pygame.display.set_mode
    failures = [pygame.error("kmsdrm not available"), pygame.error("no HDMI")]

    def flaky(*args: object, **kw: object):
        if failures:
            raise failures.pop(0)
        return real(*args, **kw)

    monkeypatch.setattr(pygame.display, "set_mode", flaky)
    slept: list[float] = []
    k = Kiosk().open((800, 480), sleep=slept.append)
    assert slept == [0.5, 1.0]
    assert k.size == (800, 480)
    k.close()


def test_open_gives_up_with_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*args: object, **kw: object):
        raise pygame.error("no available video device")

    monkeypatch.setattr(pygame.display, "set_mode", broken)
    slept: list[float] = []
    with pytest.raises(DisplayUnavailable, match="no display after 5 attempts"):
        Kiosk().open((800, 480), attempts=5, sleep=slept.append)
    assert slept == [0.5, 1.0, 2.0, 4.0]


def test_screenshot(kiosk: Kiosk, tmp_path) -> None:
    kiosk.show(extra_views()["play-refused"])
    path = kiosk.screenshot(tmp_path / "shot.png")
    img = pygame.image.load(str(path))
    assert img.get_size() == (800, 480)
    # The red banner is on it.
    banner = element(kiosk, "refusal").rect
    assert img.get_at((banner.centerx, banner.bottom - 4))[:3] == (196, 36, 40)


def test_window_close_quits(kiosk: Kiosk) -> None:
    kiosk.show(sample_view("idle"))
    post(pygame.QUIT)
    assert kiosk.wait_events(0.05) == [cmd.Quit()]


@pytest.mark.parametrize("change", ["card-laid", "bid", "refusal", "turn"])
def test_partial_redraw_equals_full_render(kiosk: Kiosk, change: str) -> None:
    """What the screen shows after a partial redraw is exactly the full picture of the view."""
    from display.render import render

    if change == "bid":
        before = sample_view("bidding", simulator=True)
        after = replace(before, bidding=replace(before.bidding, value=24,  # type: ignore
                                                next_value=27, holder=1, to_act=1))
    else:
        before = sample_view("play", simulator=True)
        play = before.play
        assert play is not None
        if change == "card-laid":
            after = replace(before, play=replace(play, to_act=0, trick=replace(
                play.trick, cards=(*play.trick.cards, (2, Card.C7)))))
        elif change == "refusal":
            after = extra_views()["play-refused"]
            after = replace(after, simulator=True, hands=before.hands)
        else:
            after = replace(before, play=replace(play, to_act=1))
    kiosk.show(before)
    kiosk.show(after)
    full = render(after, kiosk.size, renderer=kiosk.renderer)
    screen = kiosk.screen
    assert screen is not None
    w, h = kiosk.size
    differ = [(x, y) for x in range(0, w, 3) for y in range(0, h, 3)
              if screen.get_at((x, y)) != full.get_at((x, y))]
    assert not differ, f"{len(differ)} sampled pixels differ, e.g. {differ[:5]}"


def test_kiosk_opens_itself_as_the_controller_builds_it() -> None:
    """``Kiosk(size=..., fullscreen=..., driver=...)`` then ``show``: no explicit open()."""
    k = Kiosk(size=(640, 400), fullscreen=False, driver="dummy")
    try:
        assert k.screen is None
        k.show(sample_view("deal", simulator=True))
        assert k.size == (640, 400) and not k.closed
        assert k.wait_events(0) == []   # a non-blocking poll, as the controller's loop does
        post(pygame.QUIT)
        assert k.poll(timeout=0) == [cmd.Quit()]
        assert k.closed
    finally:
        k.close()


def test_kiosk_sleeps_on_input_devices_and_a_key_wakes_it(tmp_path) -> None:
    """Where SDL cannot block (KMSDRM, headless) the kiosk sleeps in select() on the evdev
    devices: kernel input ends the sleep at once and SDL's queue is read, long before the
    timeout. (The dummy driver reads no device, so the test posts the SDL event that SDL would
    make of it, then writes the raw input.)"""
    import os
    import threading
    import time

    os.mkfifo(tmp_path / "event0")
    writer = os.open(tmp_path / "event0", os.O_RDWR | os.O_NONBLOCK)
    k = Kiosk(input_dir=str(tmp_path)).open((800, 480))

    def key_pressed() -> None:
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_y, mod=0,
                                             unicode="y", scancode=0))
        os.write(writer, b"k" * 24)

    try:
        k.show(sample_view("bidding"))
        while pygame.event.peek():  # the window's own start-up events
            k.wait_events(0)
        press = threading.Timer(0.2, key_pressed)
        press.start()
        started = time.monotonic()
        got = k.wait_events(20.0)
        took = time.monotonic() - started
        press.join()
        assert got == [cmd.Press(0, "yes")]
        assert 0.15 < took < 10, took  # slept until the input came, not until the timeout
    finally:
        k.close()
        os.close(writer)


def test_an_idle_kiosk_does_not_poll(tmp_path, monkeypatch) -> None:
    """Between inputs the kiosk looks at SDL's queue once per wait, not every few ms."""
    k = Kiosk(input_dir=str(tmp_path)).open((800, 480))
    try:
        k.show(sample_view("play"))
        while pygame.event.peek():
            k.wait_events(0)
        looks = []
        real_get = pygame.event.get
        monkeypatch.setattr(pygame.event, "get", lambda *a, **kw: looks.append(1) or real_get(
            *a, **kw))
        assert k.wait_events(0.5) == []
        assert len(looks) <= 2, len(looks)  # a 20 ms poll would have looked 25 times
    finally:
        k.close()


def test_concede_asks_first_by_keys_and_taps(kiosk: Kiosk) -> None:
    """A (or the Concede button) opens the question; N and Esc close it; only the question's
    buttons answer while it is open; an answer is sent as the seat's concede press."""
    view = sample_view("play")
    view = replace(view, play=replace(view.play, concede_values=(-46, 23)))  # type: ignore[arg-type]
    kiosk.show(view)
    key(pygame.K_a)
    assert kiosk.wait_events(0.05) == [] and kiosk.ui.confirm == "concede"
    assert "-46" in element(kiosk, "confirm-declarer").text
    assert "+23" in element(kiosk, "confirm-defenders").text
    key(pygame.K_n)
    assert kiosk.wait_events(0.05) == [] and not kiosk.ui.confirm
    click(*element(kiosk, "concede").rect.center)
    assert kiosk.wait_events(0.05) == [] and kiosk.ui.confirm == "concede"
    key(pygame.K_TAB)
    kiosk.wait_events(0.01)
    focused = [e for e in kiosk.elements if e.command is not None and e.layer >= 3]
    assert kiosk._actionable() == focused          # Tab walks the question's buttons only
    key(pygame.K_ESCAPE)
    assert kiosk.wait_events(0.05) == [] and not kiosk.ui.confirm and not kiosk.closed
    click(*element(kiosk, "concede").rect.center)
    kiosk.wait_events(0.05)
    click(*element(kiosk, "confirm-defenders").rect.center)
    assert kiosk.wait_events(0.05) == [cmd.Press(1, "concede")]
    assert not kiosk.ui.confirm


def test_a_loss_report_opens_by_itself_once_and_waits_over_a_new_scene(kiosk: Kiosk) -> None:
    """A repaired journal's notice opens by itself the first time it is shown, stays open
    over a new scene, takes Tab and the taps (nothing under it does), and once put off
    (Later) only the top bar's pill opens it again."""
    views = extra_views("en")
    kiosk.show(views["play-journal-restored"])
    assert kiosk.ui.confirm == "notice"
    assert element(kiosk, "notice-confirm").command == cmd.ConfirmNotice(41)
    kiosk.show(replace(sample_view("result", "en"), faults=views["play-journal-restored"].faults))
    assert kiosk.ui.confirm == "notice"
    key(pygame.K_TAB)
    kiosk.wait_events(0.01)
    assert {e.role for e in kiosk._actionable()} == {"notice-confirm", "confirm-cancel"}
    click(*element(kiosk, "confirm-cancel").rect.center)
    assert kiosk.wait_events(0.05) == [] and kiosk.ui.confirm == ""
    kiosk.show(views["play-journal-restored"])
    assert kiosk.ui.confirm == ""  # seen: it waits in the pill
    click(*element(kiosk, "standing-fault").rect.center)
    assert kiosk.wait_events(0.05) == [] and kiosk.ui.confirm == "notice"
    click(*element(kiosk, "notice-confirm").rect.center)
    assert kiosk.wait_events(0.05) == [cmd.ConfirmNotice(41)]
    kiosk.show(replace(views["play-journal-restored"], faults=()))  # confirmed: gone
    assert kiosk.ui.confirm == "" and not any(e.role == "standing-fault" for e in kiosk.elements)


def test_only_people_are_offered_a_computer_seats_decisions(kiosk: Kiosk) -> None:
    """The declarer (seat 0) is the computer's: no Claim, no Re, and the concede question
    asks only the defenders; a computer defender (seat 1) is not the one who says Kontra."""
    from display.view import TrickView

    view = sample_view("play", "en")
    view = replace(view, computer=frozenset({0, 1}), kontra_re=True, play=replace(
        view.play, concede_values=(-46, 23), trick=TrickView(leader=0, cards=()),  # type: ignore[arg-type]
        tricks=(0, 0), last_trick=None))  # before the first card: Kontra may be said
    kiosk.show(view)
    roles = {e.role.split(" ")[0] for e in kiosk.elements}
    assert "claim" not in roles and "concede" in roles
    assert element(kiosk, "kontra").command == cmd.Press(2, "kontra")
    click(*element(kiosk, "concede").rect.center)
    kiosk.wait_events(0.05)
    roles = {e.role.split(" ")[0] for e in kiosk.elements}
    assert "confirm-declarer" not in roles
    assert element(kiosk, "confirm-defenders").command == cmd.Press(2, "concede")
    key(pygame.K_ESCAPE)
    kiosk.wait_events(0.05)
    doubled = replace(view, play=replace(view.play, kontra=2))  # type: ignore[arg-type]
    kiosk.show(doubled)
    assert not any(e.role.split(" ")[0] == "re" for e in kiosk.elements)  # the computer's Re
    people = replace(doubled, computer=frozenset({1, 2}))
    kiosk.show(people)
    assert element(kiosk, "re").command == cmd.Press(0, "re")
    assert element(kiosk, "claim").command == cmd.Press(0, "claim")
    kiosk.show(replace(view, computer=frozenset({0, 1, 2})))  # the computer plays every seat
    assert not {"concede", "claim", "kontra"} & {e.role.split(" ")[0] for e in kiosk.elements}


def test_kontra_and_re_are_offered_only_before_the_first_card(kiosk: Kiosk) -> None:
    from display.view import TrickView

    view = replace(sample_view("play", "en"), kontra_re=True)
    assert view.play is not None and view.play.trick.cards  # a card lies: too late
    kiosk.show(view)
    assert not any(e.role.split(" ")[0] == "kontra" for e in kiosk.elements)
    before = replace(view, play=replace(view.play, trick=TrickView(leader=0, cards=()),
                                       tricks=(0, 0), last_trick=None))
    kiosk.show(before)
    assert element(kiosk, "kontra").command.press == "kontra"
    kiosk.show(replace(before, play=replace(before.play, kontra=2)))
    assert element(kiosk, "re").command == cmd.Press(before.play.declarer, "re")


def test_after_the_pick_up_digits_lay_the_discards_before_they_declare(kiosk: Kiosk) -> None:
    """"4" lays the fourth card while discards are due, and declares diamonds only after."""
    view = extra_views("en")["declaration-skat-simulator"]
    assert view.declaration is not None and view.declaration.skat_taken
    kiosk.show(view)
    fourth = [e for e in kiosk.elements if e.role == f"hand{view.turn}"][3]
    key(pygame.K_4)
    assert kiosk.wait_events(0.05) == [fourth.command]
    done = replace(view, declaration=replace(  # type: ignore[arg-type]
        view.declaration, discards=(Card.D7, Card.D8)))
    kiosk.show(done)
    key(pygame.K_4)
    assert kiosk.wait_events(0.05) == [cmd.Declare(view.declaration.declarer, "D")]
