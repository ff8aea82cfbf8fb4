"""ISS game records: read them, replay them through the engine, write them.

A record is one line of SGF-style properties as the International Skat Server writes them
(``../shared/iss/FORMAT.md``): ``(;GM[Skat]...MV[w <deal> <moves>]R[<result>] ;)``.

>>> line = ("(;GM[Skat]PC[International Skat Server]CO[]SE[32407]ID[756788]"
...         "DT[2011-05-28/08:46:19/UTC]P0[xskat]P1[bonsai]P2[bernie]R0[]R1[0.0]R2[]"
...         "MV[w C8.DQ.DJ.HK.S9.SK.SQ.HQ.CK.D9.S8.DT.SJ.C9.CQ.SA.DK.HT.D7.H7.ST.HJ.C7.H8"
...         ".S7.DA.CJ.CT.D8.H9.CA.HA 1 p 2 p 0 p ]R[passed] ;)")
>>> record = parse_record(line)
>>> record.game_id, record.players
('756788', ('xskat', 'bonsai', 'bernie'))
>>> record.moves
(('1', 'p'), ('2', 'p'), ('0', 'p'))
>>> str(record.result)
'passed'
>>> compare(record, replay(record))
[]

Positions inside a record are ISS seats, which are the engine's positions: 0 = forehand,
1 = middlehand, 2 = rearhand.

How the server scores is not always how the table scores (FORMAT.md §5.3): when the defenders
resign, time out or leave, the server credits the declarer with every card not yet won by a
defender, where the table's rules (DESIGN.md) score a defenders' concession at the level the
declarer needs. A record says where it was played (``PC``); records written by this program
carry ``PC[skat-table]`` and replay with the table's rules, all others with the server's.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from dataclasses import fields as dataclass_fields
from pathlib import Path

from engine.actions import (
    Abort,
    Action,
    Agree,
    Bid,
    Claim,
    Concede,
    Declare,
    Disagree,
    Discard,
    Enforce,
    Hold,
    IllegalAction,
    Kontra,
    Pass,
    Play,
    PlayOn,
    Push,
    Re,
    TakeSkat,
    Violation,
)
from engine.cards import Card, CardError, cards_mask, mask_cards
from engine.contract import Contract, ContractError, GameType
from engine.deal import Deal
from engine.game import ISKO, Game, Phase, Rules, RulesError
from engine.scoring import GameResult, score_suit_grand
from engine.trick import matadors as count_matadors

__all__ = [
    "ISS_PLACE",
    "PASSED",
    "PLACE",
    "IssError",
    "IssRecord",
    "IssResult",
    "check_line",
    "check_record",
    "compare",
    "diff_results",
    "engine_result",
    "game_to_record",
    "iter_records",
    "moves_of",
    "parse_record",
    "parse_rules",
    "read_records",
    "replay",
    "result_of",
    "rules_text",
    "server_artefact_no_discard",
]

PLACE = "skat-table"
"""The ``PC`` property of records written by this program."""

POSITION_NAMES = ("forehand", "middlehand", "rearhand")

_PROPERTY = re.compile(r"([A-Z][A-Z0-9]*)\[((?:\\.|[^\]\\])*)\]")
_UNESCAPE = re.compile(r"\\(.)")
_SEATS = ("0", "1", "2")


class IssError(ValueError):
    """A record that cannot be read or replayed; the message says what was wrong and where."""


# ---------------------------------------------------------------------------------------------
# The result R[...]


@dataclass(frozen=True)
class IssResult:
    """The server's result field ``R[...]`` (FORMAT.md §5).

    >>> r = IssResult.parse("d:2 loss v:-72 m:-1 overbid p:75 t:7 s:0 z:0 "
    ...                     "p0:0 p1:0 p2:0 l:-1 to:-1 r:0")
    >>> r.declarer, r.won, r.value, r.overbid, r.points
    (2, False, -72, True, 75)
    >>> str(r)
    'd:2 loss v:-72 m:-1 overbid p:75 t:7 s:0 z:0 p0:0 p1:0 p2:0 l:-1 to:-1 r:0'
    """

    passed: bool = False
    declarer: int = -1
    outcome: str = "penalty"  # "win", "loss" or "penalty"
    value: int = 0
    matadors: int = 0
    overbid: bool = False
    points: int = 0
    tricks: int = 0
    schneider: bool = False
    schwarz: bool = False
    penalties: tuple[int, int, int] = (0, 0, 0)
    left: int = -1
    timeout: int = -1
    resigned: bool | None = None  # None: the record has no r: field (older records)
    # house rule Ramsch (records of this program only): what each position scores
    ramsch: tuple[int, int, int] | None = None

    @property
    def won(self) -> bool:
        return self.outcome == "win"

    @classmethod
    def parse(cls, text: str) -> IssResult:
        """Read ``passed`` or the ``d:... r:...`` token list; tokens are read by key."""
        tokens = text.split()
        if tokens == ["passed"]:
            return PASSED
        if not tokens:
            raise IssError("the result R[] is empty")
        if tokens[0] == "ramsch":
            return cls._parse_ramsch(tokens[1:])
        fields: dict[str, int] = {}
        outcome = None
        bid_word = None
        for token in tokens:
            if token in ("win", "loss", "penalty"):
                outcome = token
            elif token in ("bidok", "overbid"):
                bid_word = token
            elif ":" in token:
                key, _, raw = token.partition(":")
                try:
                    fields[key] = int(raw)
                except ValueError:
                    raise IssError(f"result field {key}: {raw!r} is not a number") from None
            else:
                raise IssError(f"the result has an unknown word {token!r}")
        missing = [k for k in _RESULT_KEYS if k not in fields]
        if outcome is None:
            missing.insert(1, "win/loss/penalty")
        if bid_word is None:
            missing.append("bidok/overbid")
        if missing:
            raise IssError(f"the result lacks {', '.join(missing)}")
        for key in ("s", "z", "p0", "p1", "p2", "r"):
            if key in fields and fields[key] not in (0, 1):
                raise IssError(f"result field {key}: {fields[key]} is neither 0 nor 1")
        return cls(
            passed=False,
            declarer=fields["d"],
            outcome=outcome,  # type: ignore[arg-type]
            value=fields["v"],
            matadors=fields["m"],
            overbid=bid_word == "overbid",
            points=fields["p"],
            tricks=fields["t"],
            schneider=bool(fields["s"]),
            schwarz=bool(fields["z"]),
            penalties=(fields["p0"], fields["p1"], fields["p2"]),
            left=fields["l"],
            timeout=fields["to"],
            resigned=bool(fields["r"]) if "r" in fields else None,
        )

    @classmethod
    def _parse_ramsch(cls, tokens: list[str]) -> IssResult:
        values = {}
        for token in tokens:
            key, _, raw = token.partition(":")
            try:
                values[key] = int(raw)
            except ValueError:
                raise IssError(f"Ramsch result {token!r}: write v0:N v1:N v2:N") from None
        missing = [k for k in ("v0", "v1", "v2") if k not in values]
        if missing:
            raise IssError(f"the Ramsch result lacks {', '.join(missing)}")
        return cls(outcome="ramsch", ramsch=(values["v0"], values["v1"], values["v2"]))

    def __str__(self) -> str:
        if self.passed:
            return "passed"
        if self.ramsch is not None:
            v0, v1, v2 = self.ramsch
            return f"ramsch v0:{v0} v1:{v1} v2:{v2}"
        p0, p1, p2 = self.penalties
        text = (
            f"d:{self.declarer} {self.outcome} v:{self.value} m:{self.matadors} "
            f"{'overbid' if self.overbid else 'bidok'} p:{self.points} t:{self.tricks} "
            f"s:{int(self.schneider)} z:{int(self.schwarz)} p0:{p0} p1:{p1} p2:{p2} "
            f"l:{self.left} to:{self.timeout}"
        )
        if self.resigned is not None:
            text += f" r:{int(self.resigned)}"
        return text


_RESULT_KEYS = ("d", "v", "m", "p", "t", "s", "z", "p0", "p1", "p2", "l", "to")
PASSED = IssResult(passed=True)


def _result_fields(r: IssResult) -> dict[str, object]:
    """The comparable fields of a result, under the names the record uses."""
    if r.passed:
        return {"passed": True}
    if r.ramsch is not None:
        return {"passed": False, "ramsch": " ".join(f"v{i}:{v}" for i, v in enumerate(r.ramsch))}
    fields: dict[str, object] = {
        "passed": False,
        "d": r.declarer,
        "win/loss": r.outcome,
        "v": r.value,
        "m": r.matadors,
        "bidok/overbid": "overbid" if r.overbid else "bidok",
        "p": r.points,
        "t": r.tricks,
        "s": int(r.schneider),
        "z": int(r.schwarz),
        "p0": r.penalties[0],
        "p1": r.penalties[1],
        "p2": r.penalties[2],
        "l": r.left,
        "to": r.timeout,
    }
    if r.resigned is not None:
        fields["r"] = int(r.resigned)
    return fields


def diff_results(expected: IssResult, actual: IssResult) -> list[str]:
    """Every field where ``actual`` differs from ``expected`` (the record's), in words.

    ``r`` is compared only when the record has it.

    >>> a = IssResult.parse("d:0 win v:33 m:2 bidok p:61 t:5 s:0 z:0 p0:0 p1:0 p2:0 l:-1 to:-1")
    >>> diff_results(a, replace(a, value=22, points=60))
    ['v: record 33, engine 22', 'p: record 61, engine 60']
    >>> diff_results(a, PASSED)
    ['record d:0 win v:33 m:2 bidok p:61 t:5 s:0 z:0 p0:0 p1:0 p2:0 l:-1 to:-1, engine passed']
    """
    if expected.passed != actual.passed or (expected.ramsch is None) != (actual.ramsch is None):
        return [f"record {expected}, engine {actual}"]
    exp, act = _result_fields(expected), _result_fields(actual)
    out = []
    for key, want in exp.items():
        got = act.get(key)
        if got != want:
            out.append(f"{key}: record {want}, engine {got}")
    return out


# ---------------------------------------------------------------------------------------------
# The record


@dataclass(frozen=True)
class IssRecord:
    """One game record: its properties, the deal, the moves after the deal and the result.

    ``moves`` are ``(actor, action)`` pairs, the actor ``"w"`` (the server) or a seat digit.
    ``result`` is None when the record has no ``R`` property.
    """

    properties: tuple[tuple[str, str], ...]
    deal: Deal
    moves: tuple[tuple[str, str], ...]
    result: IssResult | None
    line: str = field(default="", repr=False, compare=False)

    def get(self, key: str, default: str = "") -> str:
        for k, v in self.properties:
            if k == key:
                return v
        return default

    @property
    def game_id(self) -> str:
        return self.get("ID")

    @property
    def place(self) -> str:
        return self.get("PC")

    @property
    def players(self) -> tuple[str, str, str]:
        return (self.get("P0"), self.get("P1"), self.get("P2"))

    @property
    def label(self) -> str:
        """How a message names this record: ``ID[10330141]`` (or the start of the line)."""
        if self.game_id:
            return f"ID[{self.game_id}]"
        return self.line[:40]


def parse_properties(line: str) -> list[tuple[str, str]]:
    """Split a record line into ``(key, value)`` pairs, checking its frame.

    >>> parse_properties("(;GM[Skat]CO[]ID[7] ;)")
    [('GM', 'Skat'), ('CO', ''), ('ID', '7')]
    >>> parse_properties("(;GM[Skat]MV[w CJ")
    Traceback (most recent call last):
    ...
    engine.iss.IssError: the record is cut short: it does not end with ';)'
    """
    text = line.strip()
    if not text.startswith("(;"):
        raise IssError("not a game record: the line does not start with '(;'")
    if not text.endswith(";)"):
        raise IssError("the record is cut short: it does not end with ';)'")
    body = text[2:-2]
    props: list[tuple[str, str]] = []
    pos = 0
    for m in _PROPERTY.finditer(body):
        gap = body[pos : m.start()]
        if gap.strip():
            raise IssError(f"unreadable text {gap.strip()[:30]!r} at column {pos + 3}")
        key = m.group(1)
        if any(k == key for k, _ in props):
            raise IssError(f"the property {key} occurs twice")
        props.append((key, _UNESCAPE.sub(r"\1", m.group(2))))
        pos = m.end()
    rest = body[pos:]
    if rest.strip():
        raise IssError(f"unreadable text {rest.strip()[:30]!r} at column {pos + 3}")
    return props


def parse_record(line: str) -> IssRecord:
    """Read one record line; raise :class:`IssError` saying what is wrong.

    The deal is checked (32 distinct cards) and the move list split into pairs; whether the
    moves are legal is :func:`replay`'s business.
    """
    props = parse_properties(line)
    values = dict(props)
    if values.get("GM", "Skat") != "Skat":
        raise IssError(f"not a Skat game: GM[{values['GM']}]")
    if "MV" not in values:
        raise IssError("the record has no move list MV[...]")
    tokens = values["MV"].split()
    if len(tokens) < 2 or tokens[0] != "w":
        raise IssError("the move list does not start with the deal ('w' and 32 cards)")
    deal = _parse_deal(tokens[1])
    rest = tokens[2:]
    if len(rest) % 2:
        raise IssError(f"the move list ends with {rest[-1]!r} and no move after it")
    moves = tuple(zip(rest[0::2], rest[1::2], strict=True))
    for i, (actor, action) in enumerate(moves):
        if actor not in ("w", *_SEATS):
            raise IssError(f"move {i + 1} ({actor} {action}): {actor!r} is neither w nor a seat")
    result = IssResult.parse(values["R"]) if "R" in values else None
    return IssRecord(tuple(props), deal, moves, result, line.strip())


def _parse_deal(text: str) -> Deal:
    if "|" in text or "??" in text:
        raise IssError("the deal hides cards (a player's view), so it cannot be replayed")
    names = text.split(".")
    try:
        cards = [_card(n) for n in names]
    except CardError as exc:
        raise IssError(f"the deal: {exc}") from None
    if len(cards) != 32:
        raise IssError(f"the deal names {len(cards)} cards, not 32")
    seen: set[Card] = set()
    for c in cards:
        if c in seen:
            raise IssError(f"the deal names {c} twice")
        seen.add(c)
    return Deal(
        hands=(cards_mask(cards[0:10]), cards_mask(cards[10:20]), cards_mask(cards[20:30])),
        skat=cards_mask(cards[30:32]),
    )


def iter_records(text: str | Iterable[str]) -> Iterator[tuple[int, IssRecord | IssError]]:
    """``(line number, record or the error that line gives)`` for each non-blank line."""
    lines = text.splitlines() if isinstance(text, str) else text
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            yield number, parse_record(line)
        except IssError as exc:
            yield number, exc


def read_records(path: str | Path) -> list[IssRecord]:
    """All records of a file; the first bad line raises :class:`IssError` naming it."""
    out = []
    for number, item in iter_records(Path(path).read_text(encoding="utf-8-sig")):
        if isinstance(item, IssError):
            raise IssError(f"{path}:{number}: {item}")
        out.append(item)
    return out


# ---------------------------------------------------------------------------------------------
# House rules (records of this program only)
#
# ISS has no house rules. A record this program writes of a game under house rules carries
# RU[...]: the rule flags that differ from the ISkO, "-name" for one switched off; its moves may
# hold "n KONTRA", "n REKONTRA" and, in Schieberamsch, "n PUSH" (then the pushed cards); a
# Ramsch is scored as R[ramsch v0:.. v1:.. v2:..] (what each position enters).


def rules_text(rules: Rules) -> str:
    """The ``RU`` value of a rule set: ``""`` for the ISkO.

    >>> rules_text(Rules(kontra_re=True, ramsch=True, ramsch_jungfrau=False))
    'kontra_re ramsch -ramsch_jungfrau'
    """
    out = []
    for f in dataclass_fields(Rules):
        value = getattr(rules, f.name)
        if value != f.default:
            out.append(f.name if value else f"-{f.name}")
    return " ".join(out)


def parse_rules(text: str) -> Rules:
    """The rule set of an ``RU`` value; :class:`IssError` names an unknown rule."""
    flags = {}
    for word in text.split():
        name = word.lstrip("-")
        flags[name] = not word.startswith("-")
    try:
        return Rules.from_dict(flags)
    except RulesError as exc:
        raise IssError(f"RU[{text}]: {exc}") from None


# ---------------------------------------------------------------------------------------------
# Replay: the record's moves through the engine


# This program's extension for the ISkO's claims and violations (ISS has neither): "n CLAIM",
# "n CLAIM.S" / "n CLAIM.Z" (a level said with it), "n AGREE", "n DISAGREE", "n VIOLATION.HK"
# (the card laid against the rules), "n ENFORCE" (the game ends), "n PLAYON" (taken back).
_TABLE_MOVES: dict[str, type[Action]] = {
    "CLAIM": Claim, "AGREE": Agree, "DISAGREE": Disagree, "ENFORCE": Enforce, "PLAYON": PlayOn,
}
_CLAIM_LETTERS = {"S": "schneider", "Z": "schwarz"}

# Record cards are always two upper-case letters, so a dict look-up reads them (the hot path).
_CARD_BY_NAME: dict[str, Card] = {c.name: c for c in Card}


def _is_card(token: str) -> bool:
    return token in _CARD_BY_NAME


def _card(token: str) -> Card:
    card = _CARD_BY_NAME.get(token)
    return card if card is not None else Card.parse(token)  # Card.parse says what is wrong


class _Replayer:
    """Turns the ISS moves into engine actions, one move at a time."""

    def __init__(self, record: IssRecord, rules: Rules) -> None:
        self.record = record
        self.game = Game(record.deal, rules)
        # Records we wrote follow the table's rules; a seat's RE is a concession there.
        self.table_rules = record.place == PLACE
        self.resigned: list[int] = []  # defenders who resigned (ISS: the game goes on)
        self.unknown_card = False

    def push(self, action: Action) -> None:
        self.game.push(action)

    def move(self, actor: str, action: str) -> None:
        if actor == "w":
            self.server_move(action)
            return
        pos = int(actor)
        g = self.game
        if action == "y":
            self.push(Hold(pos))
        elif action == "p":
            self.push(Pass(pos))
        elif action.isascii() and action.isdigit():
            self.push(Bid(pos, int(action)))
        elif action == "s":
            self.push(TakeSkat(pos))
        elif action == "SC" or action.startswith("SC."):
            pass  # the declarer shows his cards: no effect on the game or the score
        elif action == "RE":
            self.resign(pos)
        elif action == "KONTRA":
            self.push(Kontra(pos))
        elif action == "REKONTRA":
            self.push(Re(pos))
        elif action == "PUSH":
            self.push(Push(pos))
        elif action in _TABLE_MOVES:
            self.push(_TABLE_MOVES[action](pos))  # type: ignore[call-arg]
        elif action.startswith("CLAIM.") and action[6:] in _CLAIM_LETTERS:
            self.push(Claim(pos, _CLAIM_LETTERS[action[6:]]))
        elif action.startswith("VIOLATION.") and _is_card(action[10:]):
            self.push(Violation(pos, _CARD_BY_NAME[action[10:]]))
        elif action == "??":
            # A card nobody saw (seen once, just before a defender left); nothing after it
            # can be checked, so only a server move may follow.
            if g.phase != Phase.PLAY:
                raise IssError("an unknown card (??) outside the card play")
            self.unknown_card = True
        else:
            parts = action.split(".")
            if all(_is_card(p) for p in parts):
                self.cards(pos, [_CARD_BY_NAME[p] for p in parts])
            else:
                contract = Contract.parse(parts[0])
                cards = [_card(p) for p in parts[1:]]
                if g.phase == Phase.DISCARD and cards:
                    if len(cards) < 2:
                        raise IssError("a pick-up declaration names two discards, not one")
                    self.push(Discard(pos, cards[0]))
                    self.push(Discard(pos, cards[1]))
                # cards beyond the discards are a view's list of the open hand: ignored
                self.push(Declare(pos, contract))

    def cards(self, pos: int, cards: list[Card]) -> None:
        if self.unknown_card:
            raise IssError("an unknown card (??) was played before: the rest cannot be replayed")
        phase = self.game.phase
        if phase == Phase.PLAY and len(cards) == 1:
            self.push(Play(pos, cards[0]))
        elif phase in (Phase.DISCARD, Phase.PUSHING) and len(cards) <= 2:
            for c in cards:
                self.push(Discard(pos, c))
        else:
            raise IssError(f"{len(cards)} card(s) named where the game is in phase {phase.value}")

    def resign(self, pos: int) -> None:
        g = self.game
        if g.declarer is None:
            raise IssError(f"{POSITION_NAMES[pos]} resigns before there is a declarer")
        if self.table_rules:
            self.push(Concede(pos))
        elif pos == g.declarer:
            self.push(Abort(pos, "resign"))
        elif pos not in self.resigned:
            # ISS: the game ends when both defenders have resigned (FORMAT.md §4.5)
            self.resigned.append(pos)
            if len(self.resigned) == 2:
                self.push(Abort(pos, "resign"))

    def server_move(self, action: str) -> None:
        kind, _, arg = action.partition(".")
        if kind in ("TI", "LE"):
            if arg not in _SEATS:
                raise IssError(f"{kind} names seat {arg!r}, not 0, 1 or 2")
            self.push(Abort(int(arg), "timeout" if kind == "TI" else "leave"))
            return
        parts = action.split(".")
        if len(parts) == 2 and all(_is_card(p) for p in parts) and self.game.skat_taken:
            shown = cards_mask(_CARD_BY_NAME[p] for p in parts)
            if shown != self.record.deal.skat:
                raise IssError(
                    f"the server shows the skat {action} but the skat dealt is "
                    f"{'.'.join(str(c) for c in mask_cards(self.record.deal.skat))}"
                )
            return
        raise IssError("not a server move this program knows")

    def finish(self) -> Game:
        g = self.game
        if g.result is None and len(self.resigned) == 1:
            # ISS2 closes a record after a single defender's RE (ID 272095): the defenders
            # conceded (FORMAT.md §4.5).
            self.push(Abort(self.resigned[0], "resign"))
        if g.result is None:
            raise IssError(f"the move list ends before the game is over ({_where(g)})")
        return g


def _where(game: Game) -> str:
    if game.phase == Phase.PLAY:
        return f"trick {len(game.tricks) + 1}"
    return f"phase {game.phase.value}"


def replay(record: IssRecord, rules: Rules | None = None) -> Game:
    """Play the record's moves through the engine and return the finished game.

    The rules are the record's ``RU`` (the ISkO when it has none) unless ``rules`` is given.

    :class:`IssError` names the move that the rules refuse and says why, e.g.
    ``move 9 (1 HK): middlehand must follow spades: holds SA, S7``.
    """
    if rules is None:
        rules = parse_rules(record.get("RU")) if record.get("RU") else ISKO
    r = _Replayer(record, rules)
    for i, (actor, action) in enumerate(record.moves, 1):
        if r.game.result is not None:
            raise IssError(f"move {i} ({actor} {action}): the game was already over")
        try:
            r.move(actor, action)
        except (IllegalAction, ContractError, CardError, IssError) as exc:
            raise IssError(f"move {i} ({actor} {action}): {exc}") from None
    return r.finish()


# ---------------------------------------------------------------------------------------------
# The engine's result as the server writes it, and the comparison


def result_of(game: Game) -> IssResult:
    """The engine's result of a finished game in the server's terms (FORMAT.md §5)."""
    r = game.result
    if r is None:
        raise IssError(f"the game is not over ({_where(game)})")
    return _iss_view(r)


def _iss_view(r: GameResult) -> IssResult:
    if r.passed_in:
        return PASSED
    left = r.aborted_by if r.ending == "leave" and r.aborted_by is not None else -1
    timeout = r.aborted_by if r.ending == "timeout" and r.aborted_by is not None else -1
    resigned = r.ending in ("resign", "declarer-conceded", "defenders-conceded")
    if r.contract is None:  # a timeout or leave before anything was declared
        return IssResult(
            declarer=-1 if r.declarer is None else r.declarer,
            outcome="penalty",
            penalties=r.penalties,
            left=left,
            timeout=timeout,
            resigned=resigned,
        )
    c = r.contract
    if c.game == GameType.RAMSCH:
        return IssResult(outcome="ramsch", ramsch=r.position_values)
    # s:/z: say what was reached (or awarded to a declarer whose opponents conceded), with
    # the server's conventions where its records show them (FORMAT.md §5.2): never in null;
    # against a losing declarer not for a level he announced himself (ID 13577: clubs ouvert
    # lost at the first trick with p:13 t:0 is written s:0 z:0); and z:1 implies s:1.
    schneider, schwarz = r.schneider, r.schwarz
    if c.game == GameType.NULL:
        schneider = schwarz = False
    elif not r.won:
        schneider = schneider and not c.schneider
        schwarz = schwarz and not c.schwarz
        schneider = schneider or schwarz
    return IssResult(
        declarer=r.declarer if r.declarer is not None else -1,
        outcome="win" if r.won else "loss",
        value=r.value,
        matadors=0 if c.game == GameType.NULL else r.matadors,
        overbid=r.overbid,
        points=r.points or 0,
        tricks=r.tricks or 0,
        schneider=schneider,
        schwarz=schwarz,
        penalties=r.penalties,
        left=left,
        timeout=timeout,
        resigned=resigned,
    )


def server_artefact_no_discard(game: Game) -> GameResult | None:
    """The server's score for a declarer who timed out or left between declaring and
    discarding (FORMAT.md §5.3, record ID 10330141): the server counts the matadors over the
    two skat cards only (``m:-11`` there) and scores the loss with that count.

    Returns that result when ``game`` ended this way, else None. This is a documented server
    fault, reproduced for this one class of records only; the engine's own score is the
    correct one.
    """
    r = game.result
    if (
        r is None
        or r.contract is None
        or r.contract.game == GameType.NULL
        or r.ending not in ("timeout", "leave")
        or r.aborted_by is None
        or r.aborted_by != r.declarer
        or not game.skat_taken
        or sum(isinstance(a, Discard) for a in game.actions) >= 2
    ):
        return None
    skat_only = count_matadors(game.deal.skat, r.contract.game)
    return score_suit_grand(
        r.contract, bid=r.bid, matador_count=skat_only, points=r.points or 0,
        tricks=r.tricks or 0, ending=r.ending, declarer=r.declarer, kontra=r.kontra,
        trick_done=bool(game.tricks),
    )


def engine_result(record: IssRecord, game: Game) -> IssResult:
    """What the engine says this record's ``R`` should be (the server artefact included)."""
    own = result_of(game)
    artefact = None if record.place == PLACE else server_artefact_no_discard(game)
    if artefact is not None:
        return replace(_iss_view(artefact), timeout=own.timeout, left=own.left)
    return own


def compare(record: IssRecord, game: Game) -> list[str]:
    """Every field of the record's ``R`` that the engine's result of ``game`` contradicts.

    Empty when they agree. A record without ``R`` is one disagreement.
    """
    if record.result is None:
        return ["the record has no result R[...]"]
    return diff_results(record.result, engine_result(record, game))


def check_record(record: IssRecord, rules: Rules | None = None) -> list[str]:
    """Replay and compare; a move the rules refuse is one disagreement naming it."""
    try:
        game = replay(record, rules)
        return compare(record, game)
    except IssError as exc:
        return [str(exc)]
    except Exception as exc:  # a checker reports, it does not stop at the first odd record
        return [f"the engine failed on this record: {type(exc).__name__}: {exc}"]


def check_line(line: str, rules: Rules | None = None) -> tuple[IssRecord | None, list[str]]:
    """Parse, replay and compare one line: ``(record or None, disagreements)``."""
    try:
        record = parse_record(line)
    except IssError as exc:
        return None, [f"unreadable record: {exc}"]
    return record, check_record(record, rules)


# ---------------------------------------------------------------------------------------------
# Writing records

ISS_PLACE = "International Skat Server"
_HEADER_ORDER = ("GM", "PC", "CO", "SE", "ID", "DT", "P0", "P1", "P2", "R0", "R1", "R2")


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace("]", "\\]")


def moves_of(game: Game) -> list[str]:
    """The game's actions as ISS move tokens (``"1 18"``, ``"0 s w C7.SA"``, ``"2 DJ"``...).

    House-rule actions are written as this program's extension (see :func:`rules_text`).
    """
    out: list[str] = []
    actions = list(game.actions)
    skat = game.deal.skat
    i = 0
    while i < len(actions):
        a = actions[i]
        if isinstance(a, Bid):
            out.append(f"{a.pos} {a.value}")
        elif isinstance(a, Hold):
            out.append(f"{a.pos} y")
        elif isinstance(a, Pass):
            out.append(f"{a.pos} p")
        elif isinstance(a, TakeSkat):
            out.append(f"{a.pos} s")
            out.append("w " + ".".join(str(c) for c in mask_cards(skat)))
            # the discards and the declaration, in either order
            group: list[Action] = []
            while i + 1 < len(actions) and isinstance(actions[i + 1], Discard | Declare):
                i += 1
                group.append(actions[i])
            out.extend(_pickup_moves(a.pos, group))
        elif isinstance(a, Declare):
            out.append(f"{a.pos} {a.contract}")
        elif isinstance(a, Discard):
            raise IssError("a discard without taking the skat cannot be written as ISS")
        elif isinstance(a, Play):
            out.append(f"{a.pos} {a.card}")
        elif isinstance(a, Concede):
            out.append(f"{a.pos} RE")
        elif isinstance(a, Kontra):
            out.append(f"{a.pos} KONTRA")
        elif isinstance(a, Re):
            out.append(f"{a.pos} REKONTRA")
        elif isinstance(a, Push):
            out.append(f"{a.pos} PUSH")
            pushed = []
            while i + 1 < len(actions) and isinstance(actions[i + 1], Discard) and len(pushed) < 2:
                i += 1
                pushed.append(str(actions[i].card))  # type: ignore[attr-defined]
            if pushed:
                out.append(f"{a.pos} " + ".".join(pushed))
        elif isinstance(a, Claim):
            letter = {"schneider": ".S", "schwarz": ".Z"}.get(a.level, "")
            out.append(f"{a.pos} CLAIM{letter}")
        elif isinstance(a, Violation):
            out.append(f"{a.pos} VIOLATION.{a.card}")
        elif type(a) in _MOVE_OF_ACTION:
            out.append(f"{a.pos} {_MOVE_OF_ACTION[type(a)]}")
        elif isinstance(a, Abort):
            if a.reason == "resign":
                out.append(f"{a.pos} RE")
            else:
                out.append(f"w {'TI' if a.reason == 'timeout' else 'LE'}.{a.pos}")
        else:
            raise IssError(f"a {a.kind} action cannot be written in a record")
        i += 1
    return out


_MOVE_OF_ACTION = {cls: move for move, cls in _TABLE_MOVES.items() if cls is not Claim}


def _pickup_moves(pos: int, group: list[Action]) -> list[str]:
    """The discards and the declaration after a pick-up, in the order they were made.

    The server's two forms are kept: ``d TYPE.x.y`` (both discards, then the declaration) and
    ``d TYPE`` + ``d x.y`` (declared first). Any other order (a declaration between the two
    discards) is written move by move, one discard a move, which :func:`replay` reads too.
    """
    kinds = "".join("D" if isinstance(a, Declare) else "x" for a in group)
    cards = [str(a.card) for a in group if isinstance(a, Discard)]
    declared = [str(a.contract) for a in group if isinstance(a, Declare)]
    if kinds == "xxD":
        return [f"{pos} {declared[0]}.{cards[0]}.{cards[1]}"]
    if kinds in ("D", "Dxx"):
        return [f"{pos} {declared[0]}"] + ([f"{pos} {cards[0]}.{cards[1]}"] if cards else [])
    if kinds == "xx":
        return [f"{pos} {cards[0]}.{cards[1]}"]
    out = []
    for a in group:
        out.append(f"{pos} {a.contract if isinstance(a, Declare) else a.card}")  # type: ignore[attr-defined]
    return out


def game_to_record(
    game: Game,
    players: Sequence[str] = ("", "", ""),
    properties: Mapping[str, str] | None = None,
) -> str:
    """Write a finished game as one record line that :func:`replay` turns into the same game.

    ``players`` are the names of forehand, middlehand and rearhand. ``properties``, when given,
    is the header to write (``SE``, ``ID``, ``DT``, ``PC``...; ``GM``, ``PC`` and the player
    names are added when missing), in the server's key order. ``PC`` defaults to
    ``skat-table``, which makes a seat's ``RE`` a concession by the table's rules on re-import;
    a game with an ISS resignation is written as ``PC[International Skat Server]``.
    """
    if game.result is None:
        raise IssError(f"only a finished game can be written as a record ({_where(game)})")
    if len(players) != 3:
        raise IssError(f"a record names 3 players, not {len(players)}")
    has_iss_resign = any(isinstance(a, Abort) and a.reason == "resign" for a in game.actions)
    has_concede = any(isinstance(a, Concede) for a in game.actions)
    default_place = ISS_PLACE if has_iss_resign else PLACE
    if properties is None:
        props: dict[str, str] = {
            "GM": "Skat", "PC": default_place, "CO": "", "SE": "", "ID": "", "DT": "",
            "P0": players[0], "P1": players[1], "P2": players[2], "R0": "", "R1": "", "R2": "",
        }
    else:
        given = {k: v for k, v in properties.items() if k not in ("MV", "R")}
        given.setdefault("GM", "Skat")
        given.setdefault("PC", default_place)
        for i in range(3):
            given.setdefault(f"P{i}", players[i])
        order = [k for k in _HEADER_ORDER if k in given] + [
            k for k in given if k not in _HEADER_ORDER
        ]
        props = {k: given[k] for k in order}
    if game.rules != ISKO:
        props["RU"] = rules_text(game.rules)
    place = props["PC"]
    if has_concede and place != PLACE:
        raise IssError(f"a concession by the table's rules can only be written as PC[{PLACE}]")
    if has_iss_resign and place == PLACE:
        raise IssError(f"an ISS resignation cannot be written as PC[{PLACE}]")
    moves = " ".join(["w " + game.deal.to_iss(), *moves_of(game)])
    record_stub = IssRecord((("PC", place),), game.deal, (), None)
    result = engine_result(record_stub, game)
    head = "".join(f"{k}[{_escape(v)}]" for k, v in props.items())
    return f"(;{head}MV[{moves} ]R[{result}] ;)"
