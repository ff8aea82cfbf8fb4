"""The table's configuration: one TOML file, checked key by key.

Every problem is a :class:`ConfigError` that names the key and says what is wrong, so the
command line can print one line and exit with status 2 instead of a traceback.

>>> cfg = parse_config({"table": {"players": ["Anna", "Ben", "Carla"]}}, deck_required=False)
>>> cfg.table.players
('Anna', 'Ben', 'Carla')
>>> parse_config({"table": {"players": ["Anna"]}}, deck_required=False)
Traceback (most recent call last):
...
firmware_host.configerror.ConfigError: [table] players: give 3 or 4 names, clockwise (got 1)
"""

from __future__ import annotations

import math
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Any

from drivers.quoting import cut, quoted
from engine.cards import Card
from firmware_host.clubside.clubconfig import ClubConfig, parse_club
from firmware_host.configerror import ConfigError

ZONES = ("deal", "centre", "skat", "seat0", "seat1", "seat2", "seat3")
RULE_SETS = ("isko", "pub")
SCORINGS = ("standard", "seeger-fabian")
DEAL_MODES = ("dealer", "seats")
# How a revoke or a card out of turn is met: refused and play goes on (the default), or as in
# a tournament (ISkO 4.1): the game ends unless the innocent party has the card taken back.
VIOLATION_MODES = ("refuse", "isko")
LANGUAGES = ("de", "en", "fr", "es", "nb", "cs", "nl", "pl")
# House rules the `pub` rule set may switch on; each maps to a field of engine.game.Rules.
HOUSE_RULES = ("kontra_re", "ramsch", "schieberamsch", "schieberamsch_jacks", "ramsch_jungfrau",
               "ramsch_durchmarsch", "bock")
MAX_FILE_BYTES = 1_000_000  # a config or deck file is a few kilobytes
MAX_STAKE = Decimal(1000)  # money per point
MAX_BUDGET_MS = 5000  # one computer decision; the watchdog allows 20 s for the whole loop
BAUD_RATES = (9600, 19200, 38400, 57600, 115200, 230400, 460800, 921600, 1000000, 2000000)
UID_RE = re.compile(r"^(?:[0-9a-f]{8}|[0-9a-f]{14}|[0-9a-f]{20})$")


@dataclass(frozen=True)
class TableConfig:
    players: tuple[str, ...]
    first_dealer: int = 0
    rules: str = "isko"
    scoring: str = "standard"
    language: str = "de"
    deal_mode: str = "dealer"
    series_length: int | None = None
    stake: Decimal | None = None      # money per point for the settlement; None: no money
    cap: int | None = None            # the most points one game counts in the settlement
    violations: str = "refuse"        # "isko": a revoke or a card out of turn ends the game
    hints: bool = False               # a "hint" button for learners (never at a club table)


COMPUTER_MODES = ("seats", "duel", "solo")


@dataclass(frozen=True)
class ComputerConfig:
    """Computer seats. ``mode``: ``seats`` (any seats, all credited), ``duel`` (two people and
    the computer, which always defends and is never credited on the sheet), ``solo`` (one
    person against two computers)."""

    seats: tuple[int, ...] = ()
    # a level (beginner, club, expert: engine.players.levels) or a player's name
    player: str = "club"
    budget_ms: int = 300
    seed: int = 0
    mode: str = "seats"
    uncredited: tuple[int, ...] = ()  # duel mode: the computer's seat, never on the sheet
    reasons: bool = True  # the kiosk says why it bid, declared, doubled (off at a club table)


@dataclass(frozen=True)
class Config:
    table: TableConfig
    deck: Mapping[str, Card]  # tag UID (lower-case hex) -> card
    house: Mapping[str, Any] = field(default_factory=dict)  # rule name -> on, bock -> triggers
    # [[readers]] and [gpio] as written: the drivers check them (drivers.readerset,
    # drivers.gpio) and build the hardware from them.
    readers: tuple[Mapping[str, Any], ...] = ()
    gpio: Mapping[str, Any] = field(default_factory=dict)
    computer: ComputerConfig = ComputerConfig()
    data_dir: Path | None = None
    display: Mapping[str, Any] = field(default_factory=dict)
    source: Path | None = None
    other_decks: Mapping[str, tuple[str, Card]] = field(default_factory=dict)
    club: ClubConfig | None = None  # [club]: read by `skat-table link`, never by the controller

    @property
    def n_players(self) -> int:
        return len(self.table.players)

    def card_tags(self) -> dict[Card, str]:
        return {card: uid for uid, card in self.deck.items()}


def load_config(path: str | Path, deck_required: bool = True, without_deck: bool = False
                ) -> Config:
    """Read and check a TOML config file; raise :class:`ConfigError` naming the key.

    ``without_deck`` (enrolment): the ``[deck]`` section is not read at all, since the deck
    file it names is the one about to be written.
    """
    path = Path(path)
    raw = read_toml(path, str(path), "config file")
    if without_deck:
        raw.pop("deck", None)
        deck_required = False
    return parse_config(raw, base_dir=path.parent, deck_required=deck_required, source=path)


def read_toml(path: Path, key: str, what: str) -> dict[str, Any]:
    """A TOML file of at most :data:`MAX_FILE_BYTES`, or :class:`ConfigError` under ``key``:
    never a hang (``/dev/zero``), a traceback (nesting 50,000 deep) or a NUL in a path."""
    if "\x00" in str(path):
        raise ConfigError(key, f"the {what} path contains a NUL character")
    shown = cut(str(path), 60, middle=True)  # the file's name is at the end of its path
    try:
        if not path.exists():
            raise ConfigError(key, f"no such {what}" + ("" if what == "config file"
                                                        else f" {shown}"))
        if not path.is_file():
            raise ConfigError(key, f"{shown} is not a regular file")
        with path.open("rb") as f:
            data = f.read(MAX_FILE_BYTES + 1)
    except OSError as exc:
        raise ConfigError(key, f"cannot read the {what} {shown}: {exc.strerror or exc}") from None
    if len(data) > MAX_FILE_BYTES:
        raise ConfigError(key, f"the {what} {shown} is larger than {MAX_FILE_BYTES} bytes")
    try:
        return tomllib.loads(data.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise ConfigError(key, f"the {what} {shown} is not UTF-8 text ({exc.reason} at byte "
                          f"{exc.start})") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(key, f"not valid TOML: {exc}") from None
    except RecursionError:
        raise ConfigError(key, "not valid TOML: nested too deeply") from None


def _number(sec: Mapping[str, Any], name: str, key: str, low: float, high: float,
            unit: str, whole: bool = False) -> Any:
    """A number in [low, high] (finite; a whole number if ``whole``) or ConfigError."""
    value = sec[key]
    kinds = (int,) if whole else (int, float)
    if isinstance(value, bool) or not isinstance(value, kinds) or not math.isfinite(value) \
            or not low <= value <= high:
        kind = "a whole number" if whole else "a number"
        raise ConfigError(f"[{name}] {key}",
                          f"must be {kind} of {unit} from {low:g} to {high:g}, not {quoted(value)}")
    return value


def parse_config(
    raw: Mapping[str, Any],
    base_dir: Path | None = None,
    deck_required: bool = True,
    source: Path | None = None,
) -> Config:
    known = {"table", "deck", "house", "readers", "gpio", "computer", "journal", "display",
             "club"}
    for key in raw:
        if key not in known:
            raise ConfigError(f"[{key}]", f"unknown section; known: {', '.join(sorted(known))}")
    table = _table(_section(raw, "table", required=True))
    house = _house(_section(raw, "house"), table.rules)
    deck_sec = _section(raw, "deck", required=deck_required)
    deck = _deck(deck_sec, base_dir or Path("."))
    other_decks = _other_decks(deck_sec, base_dir or Path("."))
    computer = _computer(_section(raw, "computer"), len(table.players))
    readers = _readers(raw.get("readers", []))
    gpio = _gpio(_section(raw, "gpio"), len(table.players))
    journal = _section(raw, "journal")
    _only(journal, "journal", {"data_dir"})
    data_dir = None
    if "data_dir" in journal:
        text = _typed(journal, "journal", "data_dir", str)
        if "\x00" in text or not text.strip():
            raise ConfigError("[journal] data_dir", "must be a directory path, without NUL")
        data_dir = Path(text)
        if base_dir is not None and not data_dir.is_absolute():
            data_dir = base_dir / data_dir
    display = _section(raw, "display")
    _only(display, "display", {"size", "fullscreen", "deck_style", "driver", "idle_after",
                               "rotate", "tap_twice"})
    _display(display)
    club = parse_club(_section(raw, "club"), base_dir) if "club" in raw else None
    if table.hints and club is not None:
        raise ConfigError("[table] hints", "a club table plays tournaments, and hints are "
                          "always off in a tournament: remove hints or the [club] section")
    if club is not None and "reasons" not in _section(raw, "computer"):
        # a club plays tournaments: the computer keeps its reasons unless the club wants them
        computer = replace(computer, reasons=False)
    return Config(
        table=table, deck=deck, house=house, readers=readers, gpio=gpio, computer=computer,
        other_decks=other_decks,
        data_dir=data_dir, display=dict(display), source=source, club=club,
    )


def _display(sec: Mapping[str, Any]) -> None:
    if "size" in sec:
        size = sec["size"]
        if (not isinstance(size, list) or len(size) != 2
                or not all(isinstance(x, int) and not isinstance(x, bool) and 200 <= x <= 10000
                           for x in size)):
            raise ConfigError("[display] size",
                              f"must be [width, height] in pixels, not {quoted(size)}")
    if "fullscreen" in sec:
        _typed(sec, "display", "fullscreen", bool)
    if "deck_style" in sec:
        _choice(sec, "display", "deck_style", ("french", "four-colour", "german"), "french")
    if "driver" in sec:
        _typed(sec, "display", "driver", str)
    if "tap_twice" in sec:
        _typed(sec, "display", "tap_twice", bool)
    if "rotate" in sec:
        value = sec["rotate"]
        if isinstance(value, bool) or value not in (0, 90, 180, 270):
            raise ConfigError("[display] rotate",
                              "must be 0, 90, 180 or 270 (degrees the picture is turned "
                              f"clockwise), not {quoted(value)}")
    if "idle_after" in sec:
        value = sec["idle_after"]
        if (isinstance(value, bool) or not isinstance(value, int | float)
                or not math.isfinite(value) or not 0 <= value <= 86400):
            raise ConfigError("[display] idle_after",
                              "must be seconds from 0 to 86400 (0: never idle)")


def _section(raw: Mapping[str, Any], name: str, required: bool = False) -> Mapping[str, Any]:
    value = raw.get(name)
    if value is None:
        if required:
            raise ConfigError(f"[{name}]", "this section is missing")
        return {}
    if not isinstance(value, Mapping):
        raise ConfigError(f"[{name}]", "must be a table of keys")
    return value


def _only(section: Mapping[str, Any], name: str, allowed: set[str]) -> None:
    for key in section:
        if key not in allowed:
            raise ConfigError(
                f"[{name}] {key}", f"unknown key; known: {', '.join(sorted(allowed))}"
            )


def _typed(section: Mapping[str, Any], name: str, key: str, kind: type) -> Any:
    value = section[key]
    # bool is an int in Python; a switch written where a number belongs is still a mistake.
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise ConfigError(f"[{name}] {key}", f"must be {_kind_words(kind)}, not {quoted(value)}")
    return value


def _kind_words(kind: type) -> str:
    return {str: "text in quotes", int: "a whole number", bool: "true or false"}.get(
        kind, kind.__name__
    )


def _choice(section: Mapping[str, Any], name: str, key: str, choices: tuple[str, ...],
            default: str) -> str:
    if key not in section:
        return default
    value = _typed(section, name, key, str)
    if value not in choices:
        raise ConfigError(
            f"[{name}] {key}",
            f"{quoted(value)} is not one of {', '.join(repr(c) for c in choices)}"
        )
    return value


def _table(sec: Mapping[str, Any]) -> TableConfig:
    _only(sec, "table", {"players", "first_dealer", "rules", "scoring", "language",
                         "deal_mode", "series_length", "stake", "cap", "violations",
                         "hints"})
    if "players" not in sec:
        raise ConfigError("[table] players", "missing: list the 3 or 4 players clockwise")
    players = sec["players"]
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise ConfigError("[table] players", 'must be a list of names, e.g. ["Anna", "Ben"]')
    if len(players) not in (3, 4):
        raise ConfigError("[table] players",
                          f"give 3 or 4 names, clockwise (got {len(players)})")
    names = [p.strip() for p in players]
    if any(not n for n in names):
        raise ConfigError("[table] players", "a name is empty")
    if len(set(names)) != len(names):
        raise ConfigError("[table] players", "two players have the same name")
    first_dealer = 0
    if "first_dealer" in sec:
        first_dealer = _typed(sec, "table", "first_dealer", int)
        if not 0 <= first_dealer < len(names):
            raise ConfigError("[table] first_dealer",
                              f"must be a seat 0..{len(names) - 1}, not {first_dealer}")
    length = None
    if "series_length" in sec:
        length = _number(sec, "table", "series_length", 1, 1000, "deals", whole=True)
    stake = _stake(sec["stake"]) if "stake" in sec else None
    cap = None
    if "cap" in sec:
        cap = _number(sec, "table", "cap", 1, 100_000, "points", whole=True)
        if stake is None:
            raise ConfigError("[table] cap", "limits what a game counts in the settlement: "
                              'set a stake per point too, e.g. stake = "0.05"')
    return TableConfig(
        players=tuple(names),
        first_dealer=first_dealer,
        rules=_choice(sec, "table", "rules", RULE_SETS, "isko"),
        scoring=_choice(sec, "table", "scoring", SCORINGS, "standard"),
        language=_choice(sec, "table", "language", LANGUAGES, "de"),
        deal_mode=_choice(sec, "table", "deal_mode", DEAL_MODES, "dealer"),
        series_length=length,
        stake=stake,
        cap=cap,
        violations=_choice(sec, "table", "violations", VIOLATION_MODES, "refuse"),
        hints=bool(_typed(sec, "table", "hints", bool)) if "hints" in sec else False,
    )


def _stake(value: Any) -> Decimal:
    """Money per point: text such as "0.05" (exact), or a number."""
    example = 'e.g. stake = "0.05" (money per point)'
    if isinstance(value, bool) or not isinstance(value, str | int | float):
        raise ConfigError("[table] stake",
                          f"must be an amount of money, {example}, not {quoted(value)}")
    try:
        # A TOML float like 0.1 is not exact; str() gives back what was written.
        stake = Decimal(str(value).strip())
    except InvalidOperation:
        raise ConfigError("[table] stake",
                          f"must be an amount of money, {example}, not {quoted(value)}") from None
    if not stake.is_finite() or stake < 0 or stake > MAX_STAKE:
        raise ConfigError("[table] stake",
                          f"must be from 0 to {MAX_STAKE}, {example}, not {quoted(value)}")
    if stake != 0 and stake.adjusted() < -6:
        raise ConfigError("[table] stake", f"is too small to be money: {quoted(value)}")
    return stake


def _house(sec: Mapping[str, Any], rules: str) -> dict[str, Any]:
    _only(sec, "house", set(HOUSE_RULES))
    house: dict[str, Any] = {
        key: _typed(sec, "house", key, bool) for key in sec if key != "bock"
    }
    if "bock" in sec:
        from engine.series import BockRules, SeriesError

        triggers = sec["bock"]
        if not isinstance(triggers, list) or not all(isinstance(t, str) for t in triggers):
            raise ConfigError("[house] bock", 'must be a list of triggers, e.g. ["sixty"]')
        try:
            house["bock"] = BockRules.parse(triggers).triggers
        except SeriesError as exc:
            raise ConfigError("[house] bock", str(exc)) from None
    from engine.game import Rules

    try:
        Rules.from_dict({k: v for k, v in house.items() if k != "bock"})
    except ValueError as exc:
        raise ConfigError("[house]", str(exc)) from None
    if rules == "isko" and any(house.values()):
        on = next(k for k, v in house.items() if v)
        raise ConfigError(f"[house] {on}",
                          'house rules need rules = "pub" in [table]; the ISkO has none')
    return house


def _deck(sec: Mapping[str, Any], base_dir: Path) -> dict[str, Card]:
    if not sec:
        return {}
    if "deck" in sec:
        if len(sec) != 1:
            raise ConfigError("[deck] deck", "give either a deck file or the 32 cards, not both")
        file = Path(_typed(sec, "deck", "deck", str))
        if not file.is_absolute():
            file = base_dir / file
        loaded = read_toml(file, "[deck] deck", "deck file")
        # An enrolled deck file may hold the cards at its top level or under [deck].
        inner = loaded.get("deck", loaded)
        if not isinstance(inner, Mapping):
            raise ConfigError("[deck] deck", f"{file} does not hold a card table")
        return _deck_cards({k: v for k, v in inner.items() if k != "name"}, f"{file}")
    return _deck_cards({k: v for k, v in sec.items() if k != "name"}, "[deck]")


def _other_decks(sec: Mapping[str, Any], base_dir: Path) -> dict[str, tuple[str, Card]]:
    """The other decks enrolled next to the table's deck file: uid -> (deck name, card).

    With them a card of another deck is refused as such ("the CJ of deck 'red'") rather than
    as an unknown tag. Files there that are not complete decks are passed over.
    """
    if "deck" not in sec or not isinstance(sec["deck"], str):
        return {}
    from drivers.decks import load_deck

    own = Path(sec["deck"])
    own = (own if own.is_absolute() else base_dir / own).resolve()
    others: dict[str, tuple[str, Card]] = {}
    for path in sorted(own.parent.glob("*.toml")):
        # Only small regular files: a device or a huge file there is not a deck.
        if path.resolve() == own or not path.is_file() or path.stat().st_size > MAX_FILE_BYTES:
            continue
        try:
            deck = load_deck(path)
        except (ValueError, OSError):
            continue
        for card, uid in deck.cards.items():
            others.setdefault(uid, (deck.name, card))
    return others


def _deck_cards(sec: Mapping[str, Any], where: str) -> dict[str, Card]:
    by_tag: dict[str, Card] = {}
    for key, value in sec.items():
        try:
            card = Card.parse(key)
        except ValueError:
            raise ConfigError(f"{where} {key}", "not a card name (e.g. CJ, HT, D7)") from None
        if not isinstance(value, str) or not UID_RE.match(value.strip().lower()):
            raise ConfigError(
                f"{where} {key}",
                f"{quoted(value)} is not a tag UID: 8, 14 or 20 hex digits, "
                "e.g. \"04a224b2c94f80\"",
            )
        uid = value.strip().lower()
        if uid in by_tag:
            raise ConfigError(f"{where} {key}", f"tag {uid} is already {by_tag[uid]}")
        if card in by_tag.values():
            raise ConfigError(f"{where} {key}", "this card is given twice")
        by_tag[uid] = card
    if len(by_tag) != 32:
        missing = [c.name for c in Card if c not in by_tag.values()]
        raise ConfigError(where, f"all 32 cards need a tag; missing {' '.join(missing)}")
    return by_tag


def _computer(sec: Mapping[str, Any], n: int) -> ComputerConfig:
    _only(sec, "computer", {"seats", "level", "player", "budget_ms", "seed", "mode",
                            "reasons"})
    seats: tuple[int, ...] = ()
    if "seats" in sec:
        raw = sec["seats"]
        if not isinstance(raw, list) or not all(
            isinstance(s, int) and not isinstance(s, bool) for s in raw
        ):
            raise ConfigError("[computer] seats", "must be a list of seat numbers, e.g. [1]")
        for s in raw:
            if not 0 <= s < n:
                raise ConfigError("[computer] seats", f"seat {s} does not exist (0..{n - 1})")
        if len(set(raw)) != len(raw):
            raise ConfigError("[computer] seats", "a seat is listed twice")
        seats = tuple(sorted(raw))
    if "level" in sec:
        levels = _level_names()
        level = sec["level"]
        if "player" in sec or "budget_ms" in sec:
            raise ConfigError("[computer] level",
                              "a level chooses the player and its thinking time: give level "
                              "or player (with budget_ms), not both")
        if not isinstance(level, str) or level.strip().lower() not in levels:
            raise ConfigError("[computer] level",
                              f"{quoted(level)} is not one of {', '.join(map(repr, levels))}")
        player = level.strip().lower()
    else:
        player = sec.get("player", "club")
    names = (*_player_names(), *_level_names())
    if player == "oracle":
        raise ConfigError("[computer] player",
                          "'oracle' sees every card: it measures the other players' strength "
                          f"and cannot sit at a table; use one of {', '.join(map(repr, names))}")
    if not isinstance(player, str) or player not in names:
        raise ConfigError("[computer] player",
                          f"{quoted(player)} is not one of {', '.join(repr(n) for n in names)}")
    budget = (_number(sec, "computer", "budget_ms", 1, MAX_BUDGET_MS, "milliseconds",
                      whole=True) if "budget_ms" in sec else 300)
    seed = (_number(sec, "computer", "seed", 0, 2**63 - 1, "", whole=True)
            if "seed" in sec else 0)
    mode = _choice(sec, "computer", "mode", COMPUTER_MODES, "seats")
    if mode == "duel" and (n != 3 or len(seats) != 1):
        raise ConfigError("[computer] mode",
                          "a duel is two people and the computer: 3 players, one computer seat")
    if mode == "solo" and (n != 3 or len(seats) != 2):
        raise ConfigError("[computer] mode",
                          "solo is one person against two computers: 3 players, two seats")
    reasons = bool(_typed(sec, "computer", "reasons", bool)) if "reasons" in sec else True
    return ComputerConfig(seats=seats, player=player, budget_ms=budget, seed=seed, mode=mode,
                          uncredited=seats if mode == "duel" else (), reasons=reasons)


def _level_names() -> tuple[str, ...]:
    try:
        from engine.players.levels import LEVEL_NAMES
    except ImportError:
        return ("club",)
    return LEVEL_NAMES


def _player_names() -> tuple[str, ...]:
    try:
        from engine.players import PLAYER_NAMES
    except ImportError:
        return ("rule",)
    return tuple(PLAYER_NAMES)


def _readers(raw: Any) -> tuple[Mapping[str, Any], ...]:
    """Check the readers with the drivers' own builder (nothing is opened here)."""
    if not isinstance(raw, list) or not all(isinstance(r, Mapping) for r in raw):
        raise ConfigError("[[readers]]", "write each reader as its own [[readers]] table")
    if not raw:
        return ()
    for i, entry in enumerate(raw):
        # Ranges the drivers' builder leaves open: a heartbeat timeout of a year is no timeout.
        where = f"readers[{i}]"
        if "heartbeat_timeout" in entry:
            _number(entry, where, "heartbeat_timeout", 0.1, 60, "seconds")
        if "baudrate" in entry and entry["baudrate"] not in BAUD_RATES:
            raise ConfigError(f"[{where}] baudrate", "must be one of "
                              f"{', '.join(map(str, BAUD_RATES))}, not {quoted(entry['baudrate'])}")
    from drivers.readerset import build_readers

    try:
        build_readers(raw, lambda event: None)
    except ValueError as exc:
        text = str(exc)
        key, _, problem = text.partition(": ")
        raise ConfigError(f"[{key}]" if key.startswith("readers") else "[[readers]]",
                          problem or text) from None
    return tuple(dict(r) for r in raw)


def _gpio(sec: Mapping[str, Any], n: int) -> dict[str, Any]:
    """Check the buttons, lights and buzzer on gpiozero's mock pins (no hardware touched)."""
    if not sec:
        return {}
    if "bounce_time" in sec:
        _number(sec, "gpio", "bounce_time", 0, 1, "seconds")
    if "hold_time" in sec:
        _number(sec, "gpio", "hold_time", 0.1, 10, "seconds")
    seats = [k for k in sec if k.startswith("seat") and k[4:].isdigit()]
    for key in seats:
        if int(key[4:]) >= n:
            raise ConfigError(f"[gpio.{key}]", f"there is no seat {key[4:]} at a table of {n}")
    if isinstance(sec.get("seats"), list) and len(sec["seats"]) > n:
        raise ConfigError("[gpio] seats", f"{len(sec['seats'])} seats for {n} players")
    from drivers.gpio import TableIO
    from drivers.gpio_mock import mock_factory

    try:
        io = TableIO.from_config(sec, lambda event: None, pin_factory=mock_factory())
    except ValueError as exc:
        # The drivers say "gpio.seats[0].bid: ..." or "gpio.buzzer must be ...": the key first.
        text = str(exc)
        m = re.match(r"(gpio[\w.\[\]]*)(?::\s*|\s+)(.+)", text, re.DOTALL)
        if m is None:
            raise ConfigError("[gpio]", text) from None
        raise ConfigError(f"[{m.group(1)}]", m.group(2)) from None
    io.close()
    return dict(sec)


def simulated_config(
    players: tuple[str, ...] = ("Anna", "Ben", "Carla"),
    computer_seats: tuple[int, ...] = (0, 1, 2),
    series_length: int | None = 3,
    seed: int = 0,
    language: str = "en",
) -> Config:
    """The table `skat-table simulate` plays when no config is given: a made-up deck."""
    deck = {f"04{i:02x}5a7e{i * 37 % 256:02x}c0ff": card for i, card in enumerate(Card)}
    return Config(
        table=TableConfig(players=players, first_dealer=len(players) - 1, language=language,
                          series_length=series_length),
        deck=deck,
        computer=ComputerConfig(seats=computer_seats, seed=seed),
        readers=({"type": "scripted"},),
    )


def config_from_fingerprint(fp: Mapping[str, Any]) -> Config:
    """The config a journalled series was played with (see ``Session.fingerprint``)."""
    raw: dict[str, Any] = {
        "table": {k: fp[k] for k in ("players", "first_dealer", "rules", "scoring", "deal_mode")},
        "deck": {card: uid for uid, card in fp["deck"].items()},
    }
    if fp.get("series_length") is not None:
        raw["table"]["series_length"] = fp["series_length"]
    if fp.get("violations"):
        raw["table"]["violations"] = fp["violations"]
    if fp.get("house"):
        raw["house"] = dict(fp["house"])
    if fp.get("uncredited"):
        raw["computer"] = {"seats": list(fp["uncredited"]), "mode": "duel"}
    return parse_config(raw)

