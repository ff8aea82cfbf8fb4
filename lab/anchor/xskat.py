"""XSkat 4.0's computer players as an opponent in ``skat-table duel`` (the strength anchor).

XSkat (Gunter Gerhardt, released 25 May 2004) is the rule-based program whose computer
players played on the International Skat Server. We do not ship its code: the user points
us at an unpacked XSkat 4.0 source tree (``--xskat-src DIR`` or ``XSKAT_SRC``), and we
compile its unmodified game logic (``skat.c``, ``null.c``, ``ramsch.c``, ``text.c``) with
our own ``xskat_table.c``, which replaces XSkat's X11 window by a line protocol (described
at its top). The binary is cached under ``$XDG_CACHE_HOME/skat-table/`` by a hash of those
sources and our file.

One XSkat process plays one game. Our players sit at XSkat's "human" seats (their
decisions reach XSkat as a click would); XSkat's computers play the others. Our engine is
the referee: every XSkat decision is pushed into our :class:`~engine.game.Game` and must be
legal there, and at the end XSkat's own result (won, value, card points) is compared with
the engine's.

Cards, suits and seats are numbered differently. XSkat: card = suit * 8 + rank, suits
diamonds 0, hearts 1, spades 2, clubs 3; ranks ace 0, ten 1, king 2, queen 3, jack 4,
nine 5, eight 6, seven 7:

>>> from engine.cards import Card
>>> to_xskat(Card.CJ), to_xskat(Card.D7), to_xskat(Card.HA)
(28, 7, 8)
>>> all(from_xskat(to_xskat(c)) == c for c in Card)
True

XSkat's forehand is the seat after its dealer; our players must be its seats 0..n-1:

>>> dealer_for((1,))          # our one player at middlehand: XSkat seat 0
1
>>> xskat_seat(1, 1)
0
>>> dealer_for((0, 2)), xskat_seat(0, 0), xskat_seat(2, 0)
(0, 1, 0)
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import select
import shutil
import subprocess
import tempfile
import time
from collections import deque
from dataclasses import dataclass
from pathlib import Path

from engine.actions import (
    Action,
    Bid,
    Concede,
    Declare,
    Discard,
    Hold,
    Pass,
    Play,
    TakeSkat,
    describe,
)
from engine.cards import Card, iter_bits
from engine.contract import Contract, GameType
from engine.deal import Deal
from engine.game import Game, Rules
from engine.players.base import SeatView

# the game logic we compile from the user's tree; the rest of XSkat is its window
LOGIC_FILES = ("skat.c", "null.c", "ramsch.c", "text.c")
HEADERS = ("defs.h", "skat.h", "text.h", "null.h", "ramsch.h")
OUR_FILE = Path(__file__).with_name("xskat_table.c")
BINARY_NAME = "xskat-table"
GET_SOURCE = (
    "XSkat 4.0's source: `apt-get source xskat` on Debian/Ubuntu (4.0-8), "
    "the tarball xskat-4.0.tar.gz from http://www.xskat.de/, or `git archive 30657fd` of "
    "https://github.com/mfrasca/xskat (the commit 'xskat 4.0 : 2004-05-25')"
)

_XS_SUIT = (3, 2, 1, 0)                   # our suit (C S H D) -> XSkat's (D H S C = 0..3)
_XS_RANK = (7, 6, 5, 1, 4, 3, 2, 0)        # our rank (7 8 9 T J Q K A) -> XSkat's
_OUR_RANK = {x: r for r, x in enumerate(_XS_RANK)}
# XSkat's trumpf (-1 null, 0 diamonds .. 3 clubs, 4 grand) <-> our game type
_TRUMPF = {-1: GameType.NULL, 0: GameType.DIAMONDS, 1: GameType.HEARTS, 2: GameType.SPADES,
           3: GameType.CLUBS, 4: GameType.GRAND}
_OUR_TRUMPF = {g: t for t, g in _TRUMPF.items()}
# who gets a card in XSkat's game-file format: 0 skat, 1 middlehand, 2 rearhand, 3 forehand
_GAME_FILE_WHO = (3, 1, 2)


class XSkatSourceError(ValueError):
    """No usable XSkat 4.0 source tree, or it does not compile; the message says what."""


class XSkatError(ValueError):
    """The XSkat process died, hung, or did something our engine or protocol does not allow;
    the message names the game and the action."""


def to_xskat(card: Card) -> int:
    return _XS_SUIT[card >> 3] * 8 + _XS_RANK[card & 7]


def from_xskat(code: int) -> Card:
    if not 0 <= code <= 31:
        raise XSkatError(f"XSkat named card {code}, not one of 0..31")
    return Card(_XS_SUIT.index(code >> 3) * 8 + _OUR_RANK[code & 7])


def dealer_for(ours: tuple[int, ...]) -> int:
    """XSkat's dealer seat so that our positions ``ours`` (sorted) are its seats 0..n-1."""
    if len(ours) in (0, 3):
        return 2
    if len(ours) == 1:
        return (-1 - ours[0]) % 3
    theirs = next(p for p in range(3) if p not in ours)
    return (1 - theirs) % 3


def xskat_seat(pos: int, dealer: int) -> int:
    """XSkat's seat of our position ``pos`` (0 forehand) when ``dealer`` deals."""
    return (dealer + 1 + pos) % 3


def game_file(deal: Deal) -> str:
    """The deal in XSkat's game-file format (who gets XSkat card 0, 1, ..., 31).

    >>> d = Deal.shuffled(3)
    >>> sorted(game_file(d).split()).count("0")
    2
    """
    who = [0] * 32
    for pos in range(3):
        for c in iter_bits(deal.hands[pos]):
            who[to_xskat(Card(c))] = _GAME_FILE_WHO[pos]
    return " ".join(map(str, who))


# ---------------------------------------------------------------------------- the build


def find_source(path: str | os.PathLike[str] | None = None) -> Path:
    """The XSkat 4.0 source tree at ``path``, else at ``$XSKAT_SRC``."""
    given = path if path is not None else os.environ.get("XSKAT_SRC")
    if not given:
        raise XSkatSourceError(
            f"the player xskat needs {GET_SOURCE}; give its directory with --xskat-src DIR "
            "or XSKAT_SRC=DIR")
    src = Path(given).expanduser()
    missing = [f for f in (*LOGIC_FILES, *HEADERS) if not (src / f).is_file()]
    if missing:
        raise XSkatSourceError(f"{src} is not an XSkat source tree: no {', '.join(missing)}")
    if "4.0" not in (src / "text.c").read_text(encoding="latin-1").split("VERSION", 1)[-1][:40]:
        raise XSkatSourceError(f"{src} is not XSkat 4.0 (text.c names another version)")
    return src


def build(src: Path, cache: Path | None = None) -> Path:
    """Compile XSkat's logic from ``src`` with our table (once: cached by content hash)."""
    h = hashlib.sha256()
    for f in (*LOGIC_FILES, *HEADERS):
        h.update(f.encode() + b"\0" + (src / f).read_bytes())
    h.update(OUR_FILE.read_bytes())
    key = h.hexdigest()[:16]
    base = cache or Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    target = base / "skat-table" / f"xskat-{key}" / BINARY_NAME
    if target.is_file() and os.access(target, os.X_OK):
        return target
    cc = os.environ.get("CC") or shutil.which("cc") or shutil.which("gcc")
    if not cc:
        raise XSkatSourceError("no C compiler (cc or gcc) to build XSkat: apt-get install gcc")
    target.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=target.parent) as tmp:
        objs = []
        # XSkat is K&R C: compile it as C89 with GNU extensions; warnings are theirs
        flags = ["-std=gnu89", "-O2", "-w", f"-I{src}"]
        for f in (*LOGIC_FILES, OUR_FILE):
            obj = Path(tmp) / (Path(f).stem + ".o")
            extra = ['-DDEFAULT_LANGUAGE="english"'] if f == "text.c" else []
            _compile([cc, *flags, *extra, "-c", str(src / f if isinstance(f, str) else f),
                      "-o", str(obj)])
            objs.append(str(obj))
        out = Path(tmp) / BINARY_NAME
        _compile([cc, *objs, "-o", str(out)])
        os.replace(out, target)  # atomic: a parallel build finds a whole binary or none
    return target


def _compile(cmd: list[str]) -> None:
    r = subprocess.run(cmd, capture_output=True, text=True, check=False)
    if r.returncode != 0:
        tail = "\n".join((r.stderr or r.stdout).strip().splitlines()[-8:])
        raise XSkatSourceError(f"building XSkat failed: {' '.join(cmd)}\n{tail}")


# ---------------------------------------------------------------------------- the table


@dataclass(frozen=True)
class XSkatPlayers:
    """The player type ``xskat`` of the strength harness: one :class:`XSkatTable` per game.

    ``binary`` is the built ``xskat-table``; ``timeout`` the seconds any one XSkat answer
    may take (it answers in milliseconds: a timeout means it hangs).
    """

    binary: str
    timeout: float = 20.0
    name: str = "xskat"

    def table(self, deal: Deal, positions: tuple[int, ...], seed: int,
              rules: Rules) -> XSkatTable:
        if rules != Rules():
            raise XSkatError("XSkat is measured under plain ISkO rules only (no house rules)")
        return XSkatTable(self.binary, deal, positions, seed, self.timeout)


class XSkatSeat:
    """A seat played by XSkat: asks the table for XSkat's decision."""

    name = "xskat"

    def __init__(self, table: XSkatTable, pos: int) -> None:
        self.table = table
        self.pos = pos

    @property
    def last_bid_limit(self) -> int | None:
        return self.table.limits.get(self.pos)

    def choose(self, view: SeatView) -> Action:
        return self.table.decide(view)


class XSkatTable:
    """One game with one XSkat process; ``positions`` are XSkat's (the others are ours)."""

    def __init__(self, binary: str, deal: Deal, positions: tuple[int, ...], seed: int,
                 timeout: float = 20.0) -> None:
        self.deal = deal
        self.theirs = frozenset(positions)
        self.ours = tuple(p for p in range(3) if p not in self.theirs)
        self.dealer = dealer_for(self.ours)
        self.seat = {p: xskat_seat(p, self.dealer) for p in range(3)}
        self.pos_of = {s: p for p, s in self.seat.items()}
        self.timeout = timeout
        self.limits: dict[int, int] = {}
        self.queued: dict[int, deque[Action]] = {p: deque() for p in range(3)}
        self.echoes: deque[tuple[str, ...]] = deque()
        self.sent = 0           # commands written for our seats
        self.asked = 0          # XSkat's requests for them
        self.discards: list[Card] = []
        self.pending_declare: Contract | None = None
        self.ending: tuple[str, ...] | None = None
        self.history: list[str] = []
        self._buf = b""
        self.label = f"deal {deal.to_iss() if hasattr(deal, 'to_iss') else deal}"
        try:
            self.proc = subprocess.Popen(
                [binary, str(len(self.ours)), str(self.dealer), str(seed % 2_000_000_000 + 1)],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            )
        except OSError as exc:
            raise XSkatError(f"XSkat: cannot start {binary}: {exc.strerror or exc}") from None
        self._write(game_file(deal))

    # ------------------------------------------------------------ the process

    def _fail(self, what: str) -> XSkatError:
        recent = "; ".join(self.history[-6:]) or "nothing yet"
        return XSkatError(f"XSkat: {what} (positions {sorted(self.theirs)} are XSkat's; "
                          f"the last actions: {recent}; {self.label})")

    def _write(self, line: str) -> None:
        try:
            assert self.proc.stdin is not None
            self.proc.stdin.write(line.encode() + b"\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError):
            raise self._fail(f"the process is gone ({self._status()})") from None

    def _status(self) -> str:
        rc = self.proc.poll()
        if rc is None:
            return "still running"
        err = b""
        if self.proc.stderr is not None:
            with contextlib.suppress(OSError):
                err = self.proc.stderr.read() or b""
        tail = err.decode(errors="replace").strip().splitlines()[-2:]
        return f"exit status {rc}" + (f": {' | '.join(tail)}" if tail else "")

    def _read(self) -> tuple[str, ...]:
        """The next line of XSkat's, split into words."""
        assert self.proc.stdout is not None
        fd = self.proc.stdout.fileno()
        deadline = time.monotonic() + self.timeout
        while b"\n" not in self._buf:
            left = deadline - time.monotonic()
            if left <= 0:
                raise self._fail(f"no answer within {self.timeout:g} s (it hangs)")
            ready, _, _ = select.select([fd], [], [], left)
            if not ready:
                continue
            chunk = os.read(fd, 4096)
            if not chunk:
                self.proc.wait(timeout=5)
                raise self._fail(f"the process ended unexpectedly ({self._status()})")
            self._buf += chunk
        line, self._buf = self._buf.split(b"\n", 1)
        words = tuple(line.decode(errors="replace").split())
        if not words:
            raise self._fail("an empty line")
        if words[0] == "error":
            raise self._fail("it refused: " + " ".join(words[1:]))
        return words

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.proc.wait(timeout=5)
        for f in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            if f is not None:
                with contextlib.suppress(OSError):
                    f.close()

    def player(self, pos: int) -> XSkatSeat:
        """The player of XSkat's position ``pos``."""
        if pos not in self.theirs:
            raise XSkatError(f"position {pos} is not one of XSkat's {sorted(self.theirs)}")
        return XSkatSeat(self, pos)

    # ------------------------------------------------------------ events

    def _int(self, words: tuple[str, ...], i: int) -> int:
        try:
            return int(words[i])
        except (IndexError, ValueError):
            raise self._fail(f"a line it should not say: {' '.join(words)!r}") from None

    def _next_event(self, wanted: str) -> tuple[str, ...] | None:
        """Read until an event of one of XSkat's seats (returned) or the end of its game
        (None); our seats' events must echo what we sent, in order."""
        while True:
            words = self._read()
            kind = words[0]
            if kind == "limit":
                limit = self._int(words, 2)
                # 17: XSkat says 18 with it (and holds nothing): its limit is 18
                self.limits[self.pos_of[self._int(words, 1) % 3]] = 18 if limit == 17 else limit
                continue
            if kind == "ask":
                self.asked += 1
                if self.asked > self.sent:
                    who = self.pos_of.get(self._int(words, 2) % 3)
                    raise self._fail(f"it waits for our {_POS[who]} to {words[1]} while our "
                                     f"engine waits for {wanted}")
                continue
            if kind in ("result", "passed"):
                self.ending = words
                return None
            if kind not in ("bid", "hold", "pass", "declare", "play"):
                raise self._fail(f"a line it should not say: {' '.join(words)!r}")
            pos = self.pos_of.get(self._int(words, 1))
            if pos is None:
                raise self._fail(f"a seat that does not exist: {' '.join(words)!r}")
            if pos in self.theirs:
                return words
            want = self.echoes.popleft() if self.echoes else None
            if want is None or words[: len(want)] != want:
                raise self._fail(f"our {_POS[pos]}'s action came back as {' '.join(words)!r}, "
                                 f"not {' '.join(want or ('nothing',))!r}")

    def decide(self, view: SeatView) -> Action:
        """XSkat's decision for its position ``view.pos`` (checked legal by our engine)."""
        pos = view.pos
        if pos not in self.theirs:
            raise self._fail(f"asked to play our {_POS[pos]}")
        if not self.queued[pos]:
            words = self._next_event(f"XSkat's {_POS[pos]} ({view.phase.value})")
            if words is None:
                raise self._fail(f"its game ended ({' '.join(self.ending or ())}) while our "
                                 f"engine waits for its {_POS[pos]}")
            self.queued[self.pos_of[self._int(words, 1)]].extend(self._actions(words))
            if not self.queued[pos]:
                other = next(p for p in range(3) if self.queued[p])
                raise self._fail(f"its {_POS[other]} acted ({' '.join(words)}) while our "
                                 f"engine waits for its {_POS[pos]}")
        action = self.queued[pos].popleft()
        if action not in view.legal:
            raise self._fail(f"its decision '{describe(action)}' is not legal in our engine "
                             f"({view.phase.value})")
        return action

    def _actions(self, w: tuple[str, ...]) -> list[Action]:
        pos = self.pos_of[self._int(w, 1)]
        kind = w[0]
        if kind == "bid":
            return [Bid(pos, self._int(w, 2))]
        if kind == "hold":
            return [Hold(pos)]
        if kind == "pass":
            return [Pass(pos)]
        if kind == "play":
            return [Play(pos, from_xskat(self._int(w, 2)))]
        # declare S T H O S Z D1 D2
        t, hand, ouvert, schneider, schwarz = (self._int(w, i) for i in range(2, 7))
        if t not in _TRUMPF:
            raise self._fail(f"a game it should not play: {' '.join(w)!r}")
        game = _TRUMPF[t]
        if game == GameType.NULL:
            contract = Contract(game, hand=bool(hand), ouvert=bool(ouvert))
        else:
            contract = Contract(game, hand=bool(hand), schneider=bool(schneider),
                                schwarz=bool(schwarz), ouvert=bool(ouvert))
        if hand:
            return [Declare(pos, contract)]
        d1, d2 = from_xskat(self._int(w, 7)), from_xskat(self._int(w, 8))
        return [TakeSkat(pos), Discard(pos, d1), Discard(pos, d2), Declare(pos, contract)]

    # ------------------------------------------------------------ our seats

    def observe(self, pos: int, action: Action, seconds: float) -> None:
        """Every action our engine accepted; those of our seats go to XSkat."""
        self.history.append(describe(action))
        if pos in self.theirs:
            return
        s = str(self.seat[pos])
        if isinstance(action, Bid):
            self._send(f"bid {action.value}", ("bid", s, str(action.value)))
        elif isinstance(action, Hold):
            self._send("hold", ("hold", s))
        elif isinstance(action, Pass):
            self._send("pass", ("pass", s))
        elif isinstance(action, TakeSkat):
            self._send("skat")
        elif isinstance(action, Discard):
            self.discards.append(action.card)
            if len(self.discards) == 2:
                a, b = (to_xskat(c) for c in self.discards)
                self._send(f"discard {a} {b}")
                if self.pending_declare is not None:
                    self._declare(pos, self.pending_declare)
        elif isinstance(action, Declare):
            if action.contract.hand:
                self._send("hand")
                self._declare(pos, action.contract)
            elif len(self.discards) == 2:
                self._declare(pos, action.contract)
            else:
                self.pending_declare = action.contract  # sent after the discard
        elif isinstance(action, Play):
            c = to_xskat(action.card)
            self._send(f"play {c}", ("play", s, str(c)))
        elif isinstance(action, Concede):
            pass  # XSkat 4.0 has no concession: the game ends in our engine alone
        else:
            raise self._fail(f"an action XSkat's table has no word for: {describe(action)}")

    def _declare(self, pos: int, c: Contract) -> None:
        t = _OUR_TRUMPF[c.game]
        flags = (int(c.hand), int(c.ouvert), int(c.schneider), int(c.schwarz))
        self._send(f"declare {t} {' '.join(map(str, flags))}",
                   ("declare", str(self.seat[pos]), str(t), *map(str, flags)))
        self.pending_declare = None

    def _send(self, line: str, echo: tuple[str, ...] | None = None) -> None:
        self._write(line)
        self.sent += 1
        if echo is not None:
            self.echoes.append(echo)

    # ------------------------------------------------------------ the end

    def finish(self, game: Game) -> tuple[str, str]:
        """Compare XSkat's own result with our engine's: ``(verdict, note)``."""
        r = game.result
        assert r is not None
        if r.ending in CONCEDED:
            return "unchecked", ""  # XSkat knows no concession: nothing to compare
        early = r.ending == "schwarz-lost"
        if self.ending is None:
            if early:
                # our engine ends a schwarz-announced game at the defenders' first trick;
                # XSkat plays on: let it play the rest itself (the announced levels count
                # whatever the rest brings, so only the card points may differ)
                self._send("rest")
            while self._next_event("nothing (the game is over)") is not None:
                pass
        e = self.ending or ()
        if e[0] == "passed":
            if r.passed_in:
                return "agree", ""
            return "disagree", f"XSkat: all passed; our engine: {r.contract} by {r.declarer}"
        won, value, points, tricks, bid = (self._int(e, i) for i in range(1, 6))
        ours = (f"won {r.won}, value {r.value}, points {r.points}, bid {r.bid}, "
                f"contract {r.contract}")
        theirs = f"won {bool(won)}, value {value if won else -value}, points {points}, bid {bid}"
        is_null = r.contract is not None and r.contract.game == GameType.NULL
        same = (r.won == bool(won) and abs(r.value) == value and r.bid == bid
                and (is_null or early or r.points == points))
        if same:
            return "agree", ""
        return "disagree", f"XSkat: {theirs}; our engine: {ours} ({tricks} tricks played)"


CONCEDED = ("declarer-conceded", "defenders-conceded")
_POS = {0: "forehand", 1: "middlehand", 2: "rearhand", None: "?"}
