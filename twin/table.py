"""Playing a deal on the twin: the config, the cards laid, the journal watched.

The table in the VM has three computer seats (``[computer] seats = [0, 1, 2]``): they bid,
pick up and declare by themselves and ask, on the screen and in the journal (a ``prompt``
record), for the card a person must lay. The twin is that person: it deals a shuffled deck
card by card over the deal reader, then lays each prompted card on the skat reader (the
discards) or the centre reader (the tricks), through the board simulator and the VM's USB
serial adapter. It follows the table through the journal's second copy
(``journal.sqlite.copy``, one record per line, appended as each input is saved) and the
unit's ``StatusText``: nothing is laid before the table has saved the last card.

>>> line = (b'0badc0de 00ff [7,"input",1,'
...         b'{"input":{"zone":"deal","tag":"04"},"status":"accepted"},1.0]')
>>> parse_copy_line(line)
(7, 'input', {'input': {'zone': 'deal', 'tag': '04'}, 'status': 'accepted'})
"""

from __future__ import annotations

import json
import random
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

COPY = "/var/lib/skat-table/journal.sqlite.copy"
CONFIG_PATH = "/etc/skat-table/config.toml"
# the deck of tests/data/configs/three.toml: card -> UID
DECK_CONFIG = Path(__file__).resolve().parent.parent / "tests" / "data" / "configs" / "three.toml"


class TableError(RuntimeError):
    pass


def deck() -> dict[str, str]:
    import tomllib

    return dict(tomllib.loads(DECK_CONFIG.read_text())["deck"])


def config_toml(port: str, seed: int = 7, display: bool = True, gpio: str = "") -> str:
    """The twin table's config: three computer seats, one serial board with three readers,
    and ``gpio`` (a ``[gpio]`` table: twin.gpio.gpio_toml()) if given."""
    cards = "\n".join(f'{card} = "{uid}"' for card, uid in deck().items())
    return gpio + f"""# skat-table config written by the twin (twin/table.py)
[table]
players = ["Anna", "Ben", "Carla"]
first_dealer = 2
rules = "isko"
language = "de"
deal_mode = "dealer"

[computer]
seats = [0, 1, 2]
player = "rule"
seed = {seed}

[[readers]]
type = "serial"
port = "{port}"
readers = {{0 = "deal", 1 = "centre", 2 = "skat"}}

[display]
fullscreen = true

[journal]
data_dir = "/var/lib/skat-table"

[deck]
{cards}
"""


def replay_config() -> str:
    """The same table for ``skat-table replay``: [table] and [deck] only (the computer seats'
    presses are lines of the exported script)."""
    cards = "\n".join(f'{card} = "{uid}"' for card, uid in deck().items())
    return ('[table]\nplayers = ["Anna", "Ben", "Carla"]\nfirst_dealer = 2\nrules = "isko"\n'
            f'language = "de"\n\n[deck]\n{cards}\n')


def parse_copy_line(line: bytes) -> tuple[int, str, dict[str, Any]] | None:
    """(seq, kind, body) of one line of the journal's copy, or None if it is not one."""
    parts = line.strip().split(b" ", 2)
    if len(parts) != 3:
        return None
    try:
        seq, kind, _series, body, _at = json.loads(parts[2])
    except (ValueError, TypeError):
        return None
    return seq, kind, body


def durable(record: tuple[int, str, dict[str, Any]]) -> bool:
    """Is ``record`` one the table makes durable before it goes on (the session's inputs that
    change the game, and everything but a checkpoint), rather than one written without its
    own fsync (a refused or ignored input, a checkpoint: the next durable record makes it
    durable too)? A power cut may lose the latter; the game does not depend on them.

    >>> durable((5, "input", {"status": "accepted"})), durable((6, "input", {"status": "refused"}))
    (True, False)
    """
    _seq, kind, body = record
    if kind == "input":
        return body.get("status") in ("accepted", "prompt", "declined")
    return kind != "checkpoint"


def shuffled_order(seed: int) -> list[str]:
    """The 32 cards in the order a dealer deals a shuffled deck (the ISkO way)."""
    from engine.deal import Deal

    return [str(c) for c in Deal.random(random.Random(seed)).dealt_order()]


@dataclass
class Watch:
    """What the twin has seen of the table's journal: records in order, and where it stands."""

    records: list[tuple[int, str, dict[str, Any]]] = field(default_factory=list)
    lines: int = 0
    status: str = ""

    def inputs(self, status: str = "accepted") -> list[dict[str, Any]]:
        return [b["input"] for _, k, b in self.records if k == "input" and
                b.get("status") == status]


class TableDriver:
    """Lays cards on the twin's board and follows the table's journal through ssh."""

    def __init__(self, vm: Any, board: Any, log: Any = print) -> None:
        self.vm = vm
        self.board = board
        self.log = log
        self.watch = Watch()
        self.tags = deck()
        self.cards_by_tag = {uid: card for card, uid in self.tags.items()}
        self.played: set[str] = set()  # prompts laid
        self.seed = 0           # the shuffled decks: shuffled_order(seed + n) for deal n
        self.orders = 0
        self.order: list[str] | None = None
        self.order_started = False

    # -- what the table says ------------------------------------------------------------------
    def poll(self) -> list[tuple[int, str, dict[str, Any]]]:
        """New journal records since the last poll, and the unit's status line."""
        r = self.vm.ssh(f"sudo tail -n +{self.watch.lines + 1} {COPY} 2>/dev/null; echo '@@'; "
                        "systemctl show -p StatusText --value skat-table", timeout=60)
        text, _, status = r.stdout.partition(b"@@\n")
        self.watch.status = status.decode("utf-8", "replace").strip()
        new = []
        raw_lines = text.split(b"\n")
        if raw_lines and raw_lines[-1] == b"":
            raw_lines.pop()
        for raw in raw_lines:
            if not raw.endswith(b"]"):  # a line being written: read it again next time
                break
            self.watch.lines += 1
            rec = parse_copy_line(raw)
            if rec is not None:
                new.append(rec)
        self.watch.records.extend(new)
        return new

    def wait_for(self, pred: Any, what: str, timeout: float = 120) -> Any:
        """Poll until ``pred(new_records)`` gives something; raise with what was seen."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            found = pred(self.poll())
            if found:
                return found
            time.sleep(0.3)
        raise TableError(f"waited {timeout} s for {what}; status: {self.watch.status!r}; "
                         f"last records: {self.watch.records[-3:]}")

    def _answered(self, zone: str, uid: str) -> Any:
        def pred(new: list[tuple[int, str, dict[str, Any]]]) -> Any:
            for _, kind, body in reversed(new):
                inp = body.get("input", {})
                if kind == "input" and inp.get("tag") == uid and inp.get("zone") == zone \
                        and not inp.get("gone"):
                    return body.get("status") or "?"
            return None
        return pred

    # -- what the twin does -------------------------------------------------------------------
    def lay(self, zone: str, card: str, timeout: float = 120) -> str:
        """Lay ``card`` on ``zone``'s reader until the table has journalled it; then lift it
        (a dealt card goes into a hand, a played one onto the trick pile)."""
        uid = self.tags[card]
        self.board.lay(zone, uid)
        status = self.wait_for(self._answered(zone, uid), f"{card} on {zone}", timeout)
        self.board.lift(zone, uid)
        if status != "accepted":
            raise TableError(f"the table did not accept {card} on {zone}: {status}; "
                             f"{self.watch.records[-1]}")
        return status

    def pending_prompt(self) -> tuple[int, str] | None:
        """The computer's card the table asks for and has not yet been laid: (seat, card)."""
        prompt = None
        for _, kind, body in self.watch.records:
            inp = body.get("input", {})
            if kind != "input":
                continue
            if body.get("status") == "prompt":
                prompt = (inp["seat"], inp["prompt"])
            elif body.get("status") == "accepted" and prompt is not None and \
                    self.cards_by_tag.get(inp.get("tag", "")) == prompt[1]:
                prompt = None
        return prompt

    def zone_for_prompt(self) -> str:
        """Where the prompted card goes: the skat while the declarer, having taken the skat,
        has laid fewer than two discards (a computer declares before it discards), else the
        centre. Told by the journal, which is written before the status line is."""
        skat_taken, discards = False, 0
        for _, kind, body in reversed(self.watch.records):
            inp = body.get("input", {})
            if kind != "input" or body.get("status") != "accepted":
                continue
            if inp.get("zone") == "deal":
                break  # the deal's last card: everything after it is this deal's
            if inp.get("press") == "skat":
                skat_taken = True
            elif inp.get("zone") == "skat" and "tag" in inp and not inp.get("gone"):
                discards += 1
        return "skat" if skat_taken and discards < 2 else "centre"

    def phase(self) -> str:
        """The phase the status line names: ``deal 1, Carla deals: play, Anna to act``."""
        head = self.watch.status.split(";")[0]
        after = head.split(": ", 1)[1] if ": " in head else ""
        return after.split(" (")[0].split(",")[0].strip()

    def dealt_so_far(self) -> int:
        """The cards of the deal being dealt that the table has taken: the accepted deal-reader
        inputs since the last input of another kind (the deal before ended with trick cards)."""
        n = 0
        for _, kind, body in reversed(self.watch.records):
            inp = body.get("input", {})
            if kind != "input" or body.get("status") != "accepted" or inp.get("gone"):
                continue
            if inp.get("zone") != "deal" or "tag" not in inp:
                break
            n += 1
        return n

    def next_card(self) -> tuple[str, str] | None:
        """What the person at the table lays next, (zone, card), or None while the table
        thinks: the next card of the deal being dealt (a new shuffled deck once a deal is
        scored), else the card a computer asks for. How far the dealing is comes from the
        journal; the status line, sent after the computers moved, may still show the moment
        before (dealing after the last card, scored after the next deal's first)."""
        phase = self.phase()
        dealt = self.dealt_so_far()
        if self.order is not None and 0 < dealt < len(self.order):
            return "deal", self.order[dealt]
        if dealt == 0 and (phase == "scored" or (phase == "dealing" and self.order is None)):
            if self.order is None or self.order_started:
                self.orders += 1
                self.order = shuffled_order(self.seed + self.orders)
                self.order_started = False
            return "deal", self.order[0]
        if phase in ("dealing", "scored"):
            return None  # the status line has not caught up with the journal yet
        prompt = self.pending_prompt()
        if prompt is None:
            return None
        return self.zone_for_prompt(), prompt[1]

    def lay_next(self, nxt: tuple[str, str]) -> None:
        if nxt[0] == "deal":
            self.order_started = True
        self.lay(*nxt)

    def play(self, cards: int | None = None, until_scored: bool = False,
             timeout: float = 900) -> int:
        """Lay what the table asks for: ``cards`` cards, or until the deal is scored (at least
        one card laid first: the deal before may be the one scored). Returns the cards laid."""
        end = time.monotonic() + timeout
        laid = 0
        moved_on = False  # the status line has left the scored deal before (it may lag)
        while time.monotonic() < end:
            if cards is not None and laid >= cards:
                return laid
            self.poll()
            scored = self.phase() in ("scored", "over")
            if until_scored and laid > 0 and scored and moved_on:
                return laid
            moved_on = moved_on or (laid > 0 and not scored)
            nxt = self.next_card()
            if nxt is None:
                time.sleep(0.3)
                continue
            self.lay_next(nxt)
            laid += 1
        raise TableError(f"{laid} cards laid in {timeout} s, then the table asked for none: "
                         f"{self.watch.status!r}")
