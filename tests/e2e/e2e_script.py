"""Writing table scripts for end-to-end tests: deals, presses and cards as script lines.

Tests build a script with :class:`Script`, write it next to a config and run ``skat-table
replay`` on it, in-process (:func:`replay`) or as a real process (:func:`replay_process`).
"""

from __future__ import annotations

import contextlib
import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from engine.cards import Card, parse_cards
from engine.deal import Deal
from firmware_host.cli import main
from firmware_host.config import simulated_config

ROOT = Path(__file__).resolve().parents[2]
CONFIGS = ROOT / "tests" / "data" / "configs"
SCRIPTS = ROOT / "tests" / "data" / "scripts"
DECK = simulated_config().card_tags()  # the deck of tests/data/configs/*.toml
OTHER_DECK_TAG = "04ffeeddccbbaa"  # a tag of no enrolled card


def tag(card: str | Card) -> str:
    return DECK[Card.parse(card) if isinstance(card, str) else card]


def deal_of(fore: str, middle: str, rear: str, skat: str) -> Deal:
    return Deal.from_positions(parse_cards(fore), parse_cards(middle), parse_cards(rear),
                               parse_cards(skat))


class Script:
    """A table script being written, one line per call."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.noop: set[int] = set()  # lines that only mean something next to a refused one

    def raw(self, text: str) -> Script:
        self.lines.append(text)
        return self

    def add(self, obj: dict[str, Any]) -> Script:
        return self.raw(json.dumps(obj))

    @property
    def next_line(self) -> int:
        return len(self.lines) + 1

    def deal(self, deal: Deal, zone: str = "deal") -> Script:
        for card in deal.dealt_order():
            self.lay(zone, card)
        return self

    def deal_to_seats(self, deal: Deal, seats: tuple[int, int, int], skat: bool = True) -> Script:
        from engine.cards import mask_cards

        for pos in range(3):
            for card in mask_cards(deal.hands[pos]):
                self.lay(f"seat{seats[pos]}", card)
        if skat:
            for card in mask_cards(deal.skat):
                self.lay("skat", card)
        return self

    def lay(self, zone: str, card: str | Card) -> Script:
        return self.add({"zone": zone, "tag": tag(card)})

    def gone(self, zone: str, card: str | Card) -> Script:
        return self.add({"zone": zone, "tag": tag(card), "gone": True})

    def press(self, seat: int, press: str, value: int | None = None) -> Script:
        obj: dict[str, Any] = {"seat": seat, "press": press}
        if value is not None:
            obj["value"] = value
        return self.add(obj)

    def declare(self, seat: int, contract: str) -> Script:
        return self.add({"seat": seat, "declare": contract})

    def play(self, cards: str, zone: str = "centre") -> Script:
        for card in cards.split():
            self.lay(zone, card)
        return self

    def text(self) -> str:
        return "".join(line + "\n" for line in self.lines)

    def write(self, path: Path) -> Path:
        path.write_text(self.text(), encoding="utf-8")
        return path


def replay(config: Path | str, script: Path | str, *extra: str) -> dict[str, Any]:
    """``skat-table replay CONFIG SCRIPT --json`` in this process; the parsed JSON."""
    out = io.StringIO()
    err = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(["replay", str(config), str(script), "--json", *extra])
    assert status == 0, err.getvalue()
    return json.loads(out.getvalue())


def replay_process(config: Path | str, script: Path | str, *extra: str,
                   check: bool = True) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "firmware_host", "replay", str(config), str(script), *extra],
        capture_output=True, text=True, cwd=ROOT, check=check, timeout=120)


def config(name: str) -> Path:
    return CONFIGS / name


def write_config(path: Path, players: list[str], first_dealer: int = 0, **table: Any) -> Path:
    """A config with the test deck; ``table`` adds keys to [table], ``house`` a [house]."""
    house = table.pop("house", None)
    computer = table.pop("computer", None)
    lines = ["[table]", f"players = {json.dumps(players, ensure_ascii=False)}",
             f"first_dealer = {first_dealer}"]
    for key, value in table.items():
        lines.append(f"{key} = {json.dumps(value)}")
    if house:
        lines.append("[house]")
        lines += [f"{k} = {json.dumps(v)}" for k, v in house.items()]
    if computer:
        lines.append("[computer]")
        lines += [f"{k} = {json.dumps(v)}" for k, v in computer.items()]
    lines.append("[deck]")
    lines += [f'{card} = "{uid}"' for card, uid in DECK.items()]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path
