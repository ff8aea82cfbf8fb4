"""Every scene in every language at both sizes: texts fit at a readable size, nothing overlaps,
everything is on the screen, tap targets are big, and the screen actually gets drawn."""

from __future__ import annotations

import functools
import itertools
from dataclasses import replace

import pygame
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from display.commands import Press
from display.layout import MIN_TEXT_UNITS, Element
from display.render import Renderer
from display.samples import extra_views, sample_view, settings_views
from display.scenes import UiState
from display.view import LANGUAGES, SCENES, View
from engine.cards import Card

SIZES = ((800, 480), (1920, 1080))
MIN_TARGET_UNITS = 48  # 9 mm on a 7-inch 800x480 screen (1 px is about 0.19 mm)


def all_views(language: str) -> dict[str, View]:
    views = {s: sample_view(s, language) for s in SCENES}
    views.update(extra_views(language))
    views["bidding-simulator"] = sample_view("bidding", language, simulator=True)
    views["declaration-simulator"] = sample_view("declaration", language, simulator=True)
    views["deal-simulator"] = sample_view("deal", language, simulator=True)
    return views


def all_screens(language: str) -> dict[str, tuple[View, UiState]]:
    """Every sample view as the kiosk first shows it, and the views with a loss report with
    its notice dialog open."""
    views = all_views(language)
    screens = {name: (view, UiState()) for name, view in views.items()}
    for name in ("play-journal-restored", "bidding-journal-restored"):
        screens[f"{name}-dialog"] = (views[name], UiState(confirm="notice"))
    # The statistics, both pages (three and four players, long names), while being made and
    # with none yet; the sheet over the play with its Statistics button; the summary's.
    for name in ("stats", "stats-four", "stats-long-names"):
        screens[f"{name}-players"] = (views[name], UiState(show_stats=True))
        screens[f"{name}-series"] = (views[name], UiState(show_stats=True,
                                                          stats_page="series"))
    for name in ("stats-pending", "stats-empty"):
        screens[name + "-open"] = (views[name], UiState(show_stats=True))
    screens["play-stats-sheet"] = (views["play-stats"], UiState(show_sheet=True))
    screens["series-end-stats"] = (views["result-series-end"], UiState(series_end=True))
    screens["series-end-four-stats"] = (views["result-series-end-four"],
                                        UiState(series_end=True))
    # The settings screen over a scene, and the language picker opened from it.
    for name, view in settings_views(language).items():
        screens[name] = (view, UiState(settings=True))
    screens["settings-picker"] = (views["play-simulator"], UiState(settings=True, picker=True))
    return screens


def overlaps(elements: list[Element]) -> list[str]:
    """Pairs of boxes of the same layer that overlap (panels with panels, content with
    content, floating banners with each other)."""
    bad = []
    for a, b in itertools.combinations(elements, 2):
        if a.layer == b.layer and a.rect.colliderect(b.rect):
            bad.append(f"{a.kind}:{a.role}:{a.text!r} {a.rect} overlaps "
                       f"{b.kind}:{b.role}:{b.text!r} {b.rect}")
    return bad


def check_layout(elements: list[Element], size: tuple[int, int]) -> list[str]:
    scale = min(size[1] / 480, size[0] / 800)
    screen = pygame.Rect((0, 0), size)
    problems = []
    for e in elements:
        if not screen.contains(e.rect):
            problems.append(f"{e.kind}:{e.role} {e.rect} is off the screen")
        if e.kind in ("text", "button") and e.text:
            if not e.fits:
                problems.append(f"{e.role}: {e.text!r} does not fit {e.rect} even at {e.px}px")
            if e.px < round(MIN_TEXT_UNITS * scale) - 1:
                problems.append(f"{e.role}: {e.text!r} at {e.px}px is too small to read")
        if e.kind == "button" and e.command is not None:
            short = min(e.rect.w, e.rect.h) / scale
            if short < MIN_TARGET_UNITS - 0.5:
                problems.append(f"{e.role}: tap target {e.rect} is too small")
        if e.kind in ("card", "back") and e.command is not None:
            # A card of a fanned hand: its visible strip is the target, as high as a button
            # and wide enough to show the card's whole corner index.
            if e.rect.h / scale < MIN_TARGET_UNITS - 0.5:
                problems.append(f"{e.role}: card target {e.rect} is too low")
            full = e.draw_rect or e.rect
            if e.rect.w < index_width(full.w) - 1:
                problems.append(f"{e.role}: {e.card} shows {e.rect.w} px of {full.w}, "
                                f"its index needs {index_width(full.w)}")
    problems += overlaps(elements)
    return problems


@functools.cache
def index_width(card_w: int) -> int:
    """Pixels from a card's left edge to the right of its widest corner index ("10"), as
    ``display.cards`` draws it."""
    from display.cards import index_width as width
    from display.fonts import Fonts

    return width(Fonts(), card_w, round(card_w * 1.5))


def measured_fit(renderer: Renderer, e: Element) -> bool:
    """Measure again with the font, independent of the layout's own bookkeeping."""
    font = renderer.fonts.get(e.face, e.px)
    box = e.rect
    if e.kind == "button" and e.suit:
        box = box.inflate(-box.h, 0)
    if e.lines:
        return (len(e.lines) * font.get_linesize() <= box.h
                and all(font.size(line)[0] <= box.w for line in e.lines))
    w, h = font.size(e.text)
    return w <= box.w and h <= box.h


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_scene_lays_out_and_draws(renderer: Renderer, language: str) -> None:
    problems = []
    for size in SIZES:
        surface = pygame.Surface(size)
        for name, (view, ui) in all_screens(language).items():
            elements = renderer.layout(view, size, ui)
            problems += [f"{language} {size} {name}: {p}" for p in check_layout(elements, size)]
            for e in elements:
                if e.kind in ("text", "button") and e.text and not measured_fit(renderer, e):
                    problems.append(f"{language} {size} {name}: {e.text!r} overflows {e.rect}")
            renderer.draw(surface, view, elements)
            # Something was drawn beyond the felt: at least 5 % of the pixels differ from it.
            felt = pygame.mask.from_threshold(surface, (18, 78, 52), (1, 1, 1, 255)).count()
            drawn = 1 - felt / (size[0] * size[1])
            if drawn < 0.05:
                problems.append(f"{language} {size} {name}: almost nothing drawn ({drawn:.1%})")
    assert not problems, "\n".join(problems[:40])


@pytest.mark.parametrize("style", ["french", "four-colour", "german"])
def test_card_styles_lay_out_the_same(renderer: Renderer, style: str) -> None:
    view = sample_view("play", "de", style, simulator=True)
    elements = renderer.layout(view, (800, 480))
    assert not check_layout(elements, (800, 480))
    surface = pygame.Surface((800, 480))
    renderer.draw(surface, view, elements)


def test_overlay_states_lay_out(renderer: Renderer) -> None:
    """The kiosk's own overlays: the language picker, the sheet over a scene, toggled
    modifiers, the last trick shown."""
    states = [UiState(picker=True), UiState(show_sheet=True), UiState(draft=frozenset("SZ")),
              UiState(show_last_trick=True), UiState(clock="23:59")]
    for size in SIZES:
        for ui in states:
            for scene in ("play", "declaration", "idle"):
                view = sample_view(scene, "pl")
                elements = renderer.layout(view, size, ui)
                assert not check_layout(elements, size), (size, ui, scene)


def test_whose_turn_is_marked_once(renderer: Renderer) -> None:
    for scene in ("bidding", "declaration", "pushing", "play"):
        view = sample_view(scene)
        turn_panels = [e for e in renderer.layout(view, (800, 480))
                       if e.kind == "panel" and e.role.endswith(" turn")]
        assert [p.role.split()[0] for p in turn_panels] == [f"seat{view.turn}"], scene


def test_trump_is_shown_in_play(renderer: Renderer) -> None:
    elements = renderer.layout(sample_view("play"), (800, 480))
    trump = [e for e in elements if e.role == "trump"]
    assert trump and trump[0].suit == "C"
    assert any(e.role == "trump-text" and "Kreuz" in e.text for e in elements)


def test_card_points_hidden_during_play_and_shown_with_result(renderer: Renderer) -> None:
    play = " ".join(e.text for e in renderer.layout(sample_view("play", "en"), (800, 480)))
    result = " ".join(e.text for e in renderer.layout(sample_view("result", "en"), (800, 480)))
    assert "card points" not in play
    assert "92 card points" in result


def test_refusal_names_rule_and_cards(renderer: Renderer) -> None:
    view = extra_views("en")["play-refused"]
    elements = renderer.layout(view, (800, 480))
    assert any(e.role == "refusal-text" and e.text == "Carla must follow trump" for e in elements)
    shown = [e.card for e in elements if e.role == "follow-with"]
    assert [str(c) for c in shown] == ["CQ", "C8", "C7"]
    assert [e.card for e in elements if e.role == "refused-card"] == [Card.H9]


@pytest.mark.parametrize("size", SIZES)
def test_pushing_says_who_decides_the_doubling_and_the_cards_laid(
        renderer: Renderer, size: tuple[int, int]) -> None:
    """Schieberamsch: the seat to decide gets take-and-push and pass-it-on buttons; the
    pushes so far and what the Ramsch counts; who pushed or passed; the cards being laid."""
    view = sample_view("pushing", "en")
    assert view.pushing is not None
    mh = view.pushing.to_act
    elements = renderer.layout(view, size)
    by_role = {e.role: e for e in elements}
    assert by_role["press-skat"].command == Press(mh, "skat")
    assert by_role["press-pass"].command == Press(mh, "pass")
    assert by_role["push-factor"].text == "×2"
    assert "1" in by_role["push-count"].text
    roles = " ".join(e.text for e in elements if e.role == "seat-role")
    assert "pushed" in roles
    laying = extra_views("en")["pushing-laying"]
    elements = renderer.layout(laying, size)
    texts = [e.text for e in elements]
    assert "press-skat" not in {e.role for e in elements}
    assert "×4" in texts and ("Lay one more card on the skat reader" in texts
                              or "Tap one more card to lay away" in texts)
    assert [e.card for e in elements if e.role == "pushed-card"] == [Card.D8]
    assert len([e for e in elements if e.role == "push-slot"]) == 1
    assert "passed it on" in " ".join(e.text for e in elements if e.role == "seat-role")
    # In the simulator the hand of the seat laying its cards is clickable, the others not.
    rh = laying.pushing.to_act  # type: ignore[union-attr]
    clickable = {e.role for e in elements if e.kind == "card" and e.command is not None}
    assert clickable == {f"hand{rh}"}
    de = renderer.layout(sample_view("pushing", "de"), size)
    assert "Aufnehmen und schieben" in [e.text for e in de]


def test_declaration_offers_only_legal_contracts(renderer: Renderer) -> None:
    after = extra_views("en")["declaration-after-skat"]
    elements = renderer.layout(after, (800, 480))
    roles = {e.role for e in elements}
    assert "mod-O" in roles            # null ouvert after a pick-up
    assert "mod-S" not in roles and "mod-Z" not in roles
    with_schneider = renderer.layout(sample_view("declaration", "en"), (800, 480),
                                     UiState(draft=frozenset({"S"})))
    null = next(e for e in with_schneider if e.role.startswith("declare-N"))
    assert null.command is None and "disabled" in null.role
    clubs = next(e for e in with_schneider if e.role == "declare-C")
    assert clubs.command is not None and clubs.command.contract == "CHS"


NAMES = st.text(alphabet=st.sampled_from(list("AaBbEeIiJjMmOoWwÄäÖöÜüßÉéÇçŁłŠšŽžØøÅåÑñ -")),
                min_size=1, max_size=30)


@settings(max_examples=40, deadline=None)
@given(names=st.lists(NAMES, min_size=3, max_size=4),
       scene=st.sampled_from(["bidding", "declaration", "pushing", "play", "result", "sheet",
                              "deal", "idle", "fault"]),
       language=st.sampled_from(LANGUAGES), simulator=st.booleans(),
       big=st.booleans(), computer=st.frozensets(st.integers(0, 2)))
def test_any_names_fit(renderer: Renderer, names: list[str], scene: str, language: str,
                       simulator: bool, big: bool, computer: frozenset[int]) -> None:
    """Player names may be any text of any length: the screens still fit."""
    view = sample_view(scene, language, players=tuple(names), simulator=simulator,
                       computer=computer)
    size = (1920, 1080) if big else (800, 480)
    assert not check_layout(renderer.layout(view, size), size)


@pytest.mark.parametrize("size", [(1024, 600), (1280, 720), (1366, 768), (800, 600)])
def test_other_screen_sizes(renderer: Renderer, size: tuple[int, int]) -> None:
    """Common 7- and 10-inch panels, HD TVs and a 4:3 monitor, in the languages with the
    longest words."""
    problems = []
    for language in ("de", "fr", "pl"):
        for name, (view, ui) in all_screens(language).items():
            problems += [f"{language} {name}: {p}"
                         for p in check_layout(renderer.layout(view, size, ui), size)]
    assert not problems, "\n".join(problems[:20])


@pytest.mark.parametrize("size", [(720, 1280), (480, 800)])
def test_portrait_panels(size: tuple[int, int]) -> None:
    """The Raspberry Pi Touch Display 2 (720x1280) and a 7-inch panel (480x800), portrait
    by default and mounted across the table: the kiosk lays every screen out upright, as on
    the landscape screen of the same pixels, with the same checks, and turns it onto the
    panel (in German, French and Polish)."""
    from display.kiosk import Kiosk

    kiosk = Kiosk(idle_after=0, rotate=90).open(size)
    problems = []
    try:
        assert kiosk.size == (size[1], size[0])
        for language in ("de", "fr", "pl"):
            for name, (view, ui) in all_screens(language).items():
                kiosk.show(view)
                kiosk.ui = ui
                kiosk._redraw(full=True)
                problems += [f"{language} {name}: {p}"
                             for p in check_layout(kiosk.elements, kiosk.size)]
                turned = pygame.transform.rotate(kiosk.canvas, -90)
                if pygame.image.tobytes(turned, "RGB") != pygame.image.tobytes(kiosk.screen,
                                                                               "RGB"):
                    problems.append(f"{language} {name}: the panel is not the screen turned")
    finally:
        kiosk.close()
    assert not problems, "\n".join(problems[:20])


BY_PATH = "/dev/serial/by-path/platform-fd500000.pcie-pci-0000:01:00.0-usb-0:1.3:1.0-port0"


@pytest.mark.parametrize("language", ["de", "en"])
def test_a_serial_board_down_is_named_in_words_not_by_its_port(renderer: Renderer,
                                                               language: str) -> None:
    """A serial reader board is known by its /dev/serial/by-path name: the top bar's pill
    said it, and the word, longer than the pill, was drawn over the screen's title."""
    from display.view import Fault

    view = replace(sample_view("result", language),
                   faults=(Fault(kind="reader-down", zone=BY_PATH, detail="no answer"),))
    elements = renderer.layout(view, (800, 480))
    pill = next(e for e in elements if e.role == "standing-fault")
    assert "by-path" not in (pill.text or "") and pill.fits, pill.text
    assert pill.text == {"de": "Die Leserplatine antwortet nicht",
                         "en": "The reader board is not answering"}[language]
    assert not check_layout(elements, (800, 480))


def test_a_text_too_long_for_its_box_is_cut_at_the_box(renderer: Renderer) -> None:
    surface = pygame.Surface((400, 100))
    surface.fill((0, 0, 0))
    box = pygame.Rect(150, 30, 100, 40)
    el = Element("text", box, role="standing-fault", text=BY_PATH, face="bold", px=18,
                 min_px=18, colour=(255, 255, 255), align="center", fits=False)
    renderer.blit_text(surface, el)
    lit = [(x, y) for x in range(400) for y in range(100)
           if surface.get_at((x, y))[:3] != (0, 0, 0)]
    assert lit and all(box.collidepoint(p) for p in lit)


def test_the_computers_reason_is_on_the_smallest_screen_before_the_first_trick(
        renderer: Renderer) -> None:
    """At 800x480 the play panel has no room below the game's lines: before the first trick
    is taken (the count says nothing yet) the declarer's reason takes the tricks line's
    place; after it the count is back."""
    from display.reasons import ReasonView

    base = sample_view("play", "en")
    assert base.play is not None
    reason = ReasonView(seat=base.play.declarer, kind="game", game="C", contract="C",
                        trumps=5, aces=3)
    first = replace(base, reasons=(reason,), play=replace(base.play, tricks=(0, 0)))
    roles = [e.role for e in renderer.layout(first, (800, 480))]
    assert "computer-reason" in roles and "tricks" not in roles
    later = replace(first, play=replace(base.play, tricks=(1, 0)))
    roles = [e.role for e in renderer.layout(later, (800, 480))]
    assert "tricks" in roles
    # without a reason the count stays, as before
    roles = [e.role for e in renderer.layout(replace(first, reasons=()), (800, 480))]
    assert "tricks" in roles
