"""Screenshots of what the players saw: one PNG per phase change, drawn off-screen.

``skat-table replay CONFIG SCRIPT --screenshot DIR`` feeds every view it makes to a
:class:`PhaseShots`; the files are numbered in order and named after the scene::

    shots = PhaseShots(Path("out"), size=(800, 480))
    for view in views:
        shots.add(view)          # writes out/001-deal.png, 002-bidding.png, ...
    shots.flush()                # and the last screen, if it is not on file yet

A phase change (:func:`phase_of`) is a new scene (deal, bidding, declaration, pushing, play,
result, sheet), a new deal, the skat taken up, each Schieberamsch decision and each completed
trick. A refused card or
press is always worth its own file (``NNN-scene-refused.png``): it is what a bug report is
usually about.
"""

from __future__ import annotations

from collections.abc import Hashable
from pathlib import Path

import pygame

from .render import Renderer, render
from .samples import demo_view
from .scenes import UiState
from .view import View


def phase_of(view: View) -> Hashable:
    """What must differ between two views for the second to be a new phase.

    >>> from display.samples import sample_view
    >>> phase_of(sample_view("bidding"))[0]
    'bidding'
    """
    detail: Hashable = None
    if view.scene == "play" and view.play is not None:
        detail = sum(view.play.tricks)  # a completed trick is a moment worth keeping
    elif view.scene == "declaration" and view.declaration is not None:
        detail = view.declaration.skat_taken
    elif view.scene == "pushing" and view.pushing is not None:
        detail = (view.pushing.to_act, view.pushing.taken)  # each player's decision
    return (view.scene, view.game_number, detail)


class PhaseShots:
    """Writes a PNG whenever the phase changes (:func:`phase_of`) and for every refusal;
    ``flush`` writes the last view too, so the final state is always on file."""

    def __init__(self, directory: Path | str, size: tuple[int, int] = (800, 480),
                 every_view: bool = False) -> None:
        self.directory = Path(directory)
        self.directory.mkdir(parents=True, exist_ok=True)
        self.size = size
        self.every_view = every_view
        self.renderer = Renderer()
        self.written: list[Path] = []
        self._last: View | None = None
        self._last_written: View | None = None
        self._phase: Hashable = object()

    def add(self, view: View) -> Path | None:
        last = self._last
        self._last = view
        if view.refusal is not None:
            # The phase stays where it was: the table goes on as if the input never came.
            return self._write(view, "-refused")
        phase = phase_of(view)
        changed = phase != self._phase
        self._phase = phase
        if changed or (self.every_view and view != last):
            return self._write(view)
        return None

    def flush(self) -> Path | None:
        if self._last is not None and self._last is not self._last_written:
            return self._write(self._last, "-refused" if self._last.refusal else "")
        return None

    def _write(self, view: View, suffix: str = "") -> Path:
        n = len(self.written) + 1
        path = self.directory / f"{n:03d}-{view.scene}{suffix}.png"
        pygame.image.save(render(view, self.size, renderer=self.renderer), str(path))
        self.written.append(path)
        self._last_written = view
        return path


def doc_screens() -> dict[str, tuple[View, UiState, tuple[int, int]]]:
    """The kiosk's screenshots in docs/display.md by file name: a view, what the kiosk keeps
    itself, and the screen's size (a portrait panel's picture is turned as it shows it)."""
    from dataclasses import replace

    from engine.cards import Card

    from .samples import extra_views, sample_view, settings_views
    from .view import Fault

    play = sample_view("play", "de", simulator=True)
    assert play.play is not None

    def last(lang: str) -> View:  # the simulator after a series' last deal
        return replace(extra_views(lang)["result-series-end"], simulator=True)

    concede = replace(play, play=replace(play.play, concede_values=(-72, 36)))
    return {
        "play-simulator-de.png": (play, UiState(), (800, 480)),
        "play-simulator-en.png": (sample_view("play", "en", simulator=True), UiState(),
                                  (800, 480)),
        "refused-nl.png": (extra_views("nl")["play-refused"], UiState(), (800, 480)),
        "declaration-german-suits-fr.png": (sample_view("declaration", "fr", "german"),
                                            UiState(), (800, 480)),
        "declaration-simulator-en.png": (sample_view("declaration", "en", simulator=True),
                                         UiState(draft=frozenset("S")), (800, 480)),
        "result-de.png": (sample_view("result", "de", "four-colour"), UiState(), (800, 480)),
        "trick-complete-de.png": (extra_views("de")["play-trick-complete-simulator"],
                                  UiState(), (800, 480)),
        "bidding-history-de.png": (sample_view("bidding", "de", simulator=True), UiState(),
                                   (800, 480)),
        "concede-confirm-de.png": (concede, UiState(confirm="concede"), (800, 480)),
        "resume-de.png": (extra_views("de")["resume-offer"], UiState(), (800, 480)),
        "twelve-cards-four-de.png": (extra_views("de")["declaration-skat-four"], UiState(),
                                     (800, 480)),
        "refused-detail-pl.png": (replace(sample_view("play", "pl"), refusal=Fault(
            "not-in-hand", seat=2, card=Card.SA, detail="SA has already been played in trick 3")),
            UiState(), (800, 480)),
        "portrait-720x1280-de.png": (play, UiState(), (720, 1280)),
        **{name: screen for lang in ("de", "en") for name, screen in (
            (f"series-last-result-{lang}.png", (last(lang), UiState(), (800, 480))),
            (f"series-end-{lang}.png", (last(lang), UiState(series_end=True), (800, 480))),
            # the statistics over the finished series: the players, the series
            (f"stats-players-{lang}.png", (extra_views(lang)["stats"],
                                           UiState(show_stats=True), (800, 480))),
            (f"stats-series-{lang}.png", (extra_views(lang)["stats"],
                                          UiState(show_stats=True, stats_page="series"),
                                          (800, 480))))},
        # the simulator's guard against misplays: the card a first tap chose
        "chosen-card-de.png": (play, UiState(chosen=(2, play.hands[2][3])), (800, 480)),
        # the settings screen as the simulator starts (the gear in the top bar opens it)
        **{f"settings-{lang}.png": (settings_views(lang)["settings-simulator"],
                                    UiState(settings=True), (800, 480))
           for lang in ("de", "en")},
    }


def write_doc_screenshots(directory: Path | str) -> list[Path]:
    """Every kiosk screenshot of docs/display.md, made again (``python -c "from
    display.screenshots import write_doc_screenshots, write_screenshots;
    write_doc_screenshots('docs/screenshots'); write_screenshots('docs/screenshots')"``)."""
    from .kiosk import rotation_for

    out = Path(directory)
    out.mkdir(parents=True, exist_ok=True)
    pygame.font.init()
    renderer = Renderer()
    written = []
    for name, (view, ui, size) in doc_screens().items():
        turn = rotation_for(size, True, None)  # as the kiosk shows it on a full screen
        upright = (size[1], size[0]) if turn in (90, 270) else size
        shot = render(view, upright, ui=ui, renderer=renderer)
        path = out / name
        pygame.image.save(pygame.transform.rotate(shot, -turn) if turn else shot, str(path))
        written.append(path)
    return written


def _save(directory: Path | str, shots: list[tuple[str, View, UiState]],
          size: tuple[int, int]) -> list[Path]:
    """Each (file name, view, UI state) drawn at ``size`` into ``directory``."""
    out = Path(directory)
    out.mkdir(parents=True, exist_ok=True)
    pygame.font.init()
    renderer = Renderer()
    written = []
    for name, view, ui in shots:
        path = out / name
        pygame.image.save(render(view, size, ui=ui, renderer=renderer), str(path))
        written.append(path)
    return written


def write_screenshots(directory: Path | str, languages: tuple[str, ...] = ("de", "en"),
                      size: tuple[int, int] = (800, 480)) -> list[Path]:
    """``analysis-result-<lang>.png`` and ``analysis-tricks-<lang>.png``: the result line and
    the trick-by-trick view (``python -c "from display.screenshots import write_screenshots;
    write_screenshots('docs/screenshots')"``)."""
    return _save(directory, [(f"analysis-{name}-{lang}.png", demo_view(lang), ui)
                             for lang in languages
                             for name, ui in (("result", UiState()),
                                              ("tricks", UiState(show_analysis=True)))], size)


def write_pub_screenshots(directory: Path | str, languages: tuple[str, ...] = ("de", "en"),
                          size: tuple[int, int] = (800, 480)) -> list[Path]:
    """Pub rules, every factor named (``display.samples.pub_views``): ``pub-play-<lang>.png``
    (a Bock deal after Re), ``pub-result-<lang>.png`` (lost with Kontra and Re in a Bock deal),
    ``pub-ramsch-<lang>.png`` (a pushed Ramsch in a Bock deal), ``pub-sheet-<lang>.png``
    (the marks, a Ramsch in its losers' columns)."""
    from .samples import pub_views

    shots = []
    for lang in languages:
        views = pub_views(lang)
        shots += [(f"pub-{name}-{lang}.png", views[key], UiState())
                  for name, key in (("play", "play-bock"), ("result", "result-bock-kontra-re"),
                                    ("ramsch", "result-ramsch-pushed-bock"),
                                    ("sheet", "sheet-pub"))]
    return _save(directory, shots, size)
