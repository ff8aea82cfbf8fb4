"""Does our build of XSkat play like XSkat itself? A comparison with Debian's ``xskat``.

Debian's package ``xskat`` (4.0-8, ``/usr/games/xskat``) is XSkat 4.0 built with its own
window. With ``-auto 1`` three of its computers play a game without anyone clicking, and
``-game FILE`` with a line ``random_seed S 0 D`` makes the deal and the play repeatable: the
cards come from XSkat's shuffle seeded with S (dealer D, 1..3) and the play's random numbers
from the same seed. ``-log -`` prints the game: every trick, the skat, the last bid, the
declarer and game, the declarer's points. Our ``xskat-table`` (numsp 0: XSkat plays all
three seats) is given the same line, and the two games must be the same card for card.

    python -m lab.anchor.xskat_debian --xskat-src DIR --games 200 [--seed 1]

It needs Debian's ``xskat`` and an X server for its window (``Xvfb``; the command starts
one on a free display, or uses ``$DISPLAY`` with ``--display``).
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

DEBIAN_XSKAT = "/usr/games/xskat"
# the rules of our build: plain ISkO, new rules (the man page's options)
RULE_OPTIONS = ("-noramsch", "-nokontra", "-nobock", "-nospitze", "-norevolution",
                "-noklopfen", "-noschenken", "-newrules")
_SUITS = {"diamond": 0, "heart": 1, "spade": 2, "club": 3}
_RANKS = {"a": 0, "10": 1, "k": 2, "q": 3, "j": 4, "9": 5, "8": 6, "7": 7}
_GAMES = {"diamond": 0, "heart": 1, "spade": 2, "club": 3, "grand": 4, "null": -1}


@dataclass
class PlayedGame:
    """One game as either program tells it (XSkat seats 0..2, XSkat card numbers)."""

    tricks: list[tuple[int, int, int]] = field(default_factory=list)  # card of seat 0, 1, 2
    declarer: int | None = None
    game: int | None = None
    bid: int | None = None
    won: bool | None = None
    points: int | None = None

    def differences(self, other: PlayedGame) -> list[str]:
        out = []
        for name in ("declarer", "game", "bid", "won"):
            if getattr(self, name) != getattr(other, name):
                out.append(f"{name}: {getattr(self, name)} against {getattr(other, name)}")
        if self.game != -1 and self.points != other.points:
            out.append(f"points: {self.points} against {other.points}")
        for k, (a, b) in enumerate(zip(self.tricks, other.tricks, strict=False)):
            if a != b:
                out.append(f"trick {k + 1}: {a} against {b}")
                break
        if len(self.tricks) != len(other.tricks):
            out.append(f"tricks: {len(self.tricks)} against {len(other.tricks)}")
        return out


def card_of(words: tuple[str, str]) -> int:
    """An XSkat log card (``"Heart_A"`` split into suit and rank) as XSkat's number.

    >>> card_of(("Club", "J")), card_of(("DIAMOND", "10"))
    (28, 1)
    """
    return _SUITS[words[0].lower()] * 8 + _RANKS[words[1].lower()]


def parse_debian_log(text: str) -> PlayedGame:
    """The game in XSkat's own log (``-log -``)."""
    g = PlayedGame()
    lines = text.splitlines()
    dashes = [i for i, line in enumerate(lines) if line.startswith("----")]
    if dashes:
        for line in lines[dashes[0] + 1:dashes[1] if len(dashes) > 1 else len(lines)]:
            words = line.replace("_", " ").split()
            if len(words) != 6:
                break
            g.tricks.append(tuple(card_of((words[i], words[i + 1]))  # type: ignore[arg-type]
                                  for i in (0, 2, 4)))
    for line in lines:
        w = line.split()
        if line.startswith("Last bid:"):
            g.bid = int(w[2])
        elif len(w) >= 3 and w[1] == "played" and w[0].startswith("Computer"):
            g.declarer = int(w[0][len("Computer"):]) - 1
            g.game = _GAMES.get(w[2].lower())
        elif line.startswith(("Won with:", "Lost with:")):
            g.won = line.startswith("Won")
            g.points = int(w[2])
        elif line.strip() in ("Won", "Lost"):  # a null game: no points
            g.won = line.strip() == "Won"
    return g


def parse_our_events(text: str) -> PlayedGame:
    """The game in our ``xskat-table``'s events (see xskat_table.c)."""
    g = PlayedGame()
    plays: list[tuple[int, int]] = []
    for line in text.splitlines():
        w = line.split()
        if not w:
            continue
        if w[0] == "play":
            plays.append((int(w[1]), int(w[2])))
        elif w[0] == "declare":
            g.declarer, g.game = int(w[1]), int(w[2])
        elif w[0] == "result":
            g.won, g.points, g.bid = w[1] == "1", int(w[3]), int(w[5])
        elif w[0] == "passed":
            g.bid = 0
    for k in range(0, len(plays) - len(plays) % 3, 3):
        by_seat = dict(plays[k:k + 3])
        g.tricks.append((by_seat[0], by_seat[1], by_seat[2]))
    return g


def debian_game(seed: int, dealer: int, display: str, xskat: str = DEBIAN_XSKAT) -> PlayedGame:
    with tempfile.TemporaryDirectory() as home:
        game = Path(home) / "game"
        game.write_text(f"random_seed {seed} 0 {dealer + 1}\n")
        r = subprocess.run(
            [xskat, "-auto", "1", "-game", str(game), "-log", "-", *RULE_OPTIONS,
             "-lang", "english"],
            capture_output=True, text=True, timeout=60, check=False,
            env={**os.environ, "DISPLAY": display, "HOME": home},
        )
    if r.returncode != 0:
        raise RuntimeError(f"{xskat} failed ({r.returncode}): {r.stderr.strip()[-300:]}")
    g = parse_debian_log(r.stdout)
    if g.bid is None:
        g.bid = 0  # all passed: the log names no bid
    return g


def our_game(binary: str, seed: int, dealer: int) -> PlayedGame:
    r = subprocess.run([binary, "0", str(dealer), "1"],
                       input=f"random_seed {seed} 0 {dealer + 1}\n", capture_output=True,
                       text=True, timeout=60, check=False)
    if r.returncode != 0:
        raise RuntimeError(f"{binary} failed ({r.returncode}): {r.stdout[-300:]}")
    return parse_our_events(r.stdout)


def compare(binary: str, games: int, seed: int, display: str) -> tuple[int, list[str]]:
    """Play ``games`` seeds in both programs: (same, descriptions of the differences)."""
    same, diffs = 0, []
    for k in range(games):
        s, dealer = seed + k, k % 3
        theirs, ours = debian_game(s, dealer, display), our_game(binary, s, dealer)
        d = theirs.differences(ours)
        if d:
            diffs.append(f"random_seed {s} 0 {dealer + 1}: Debian's xskat against ours: "
                         + "; ".join(d))
        else:
            same += 1
    return same, diffs


def start_xvfb() -> tuple[subprocess.Popen[bytes], str]:
    """An Xvfb on a free display number (the caller ends it)."""
    xvfb = shutil.which("Xvfb")
    if not xvfb:
        raise RuntimeError("no Xvfb: apt-get install xvfb")
    for n in range(90, 140):
        if Path(f"/tmp/.X{n}-lock").exists():
            continue
        p = subprocess.Popen([xvfb, f":{n}", "-screen", "0", "800x600x16", "-nolisten", "tcp"],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for _ in range(50):
            if Path(f"/tmp/.X11-unix/X{n}").exists():
                return p, f":{n}"
            if p.poll() is not None:
                break
            time.sleep(0.1)
        p.kill()
        p.wait()
    raise RuntimeError("Xvfb did not start")


def main(argv: list[str] | None = None) -> int:
    from lab.anchor.xskat import XSkatSourceError, build, find_source

    p = argparse.ArgumentParser(prog="python -m lab.anchor.xskat_debian",
                                description=__doc__.split("\n\n")[0])
    p.add_argument("--xskat-src", default=None, help="XSkat 4.0 source (default $XSKAT_SRC)")
    p.add_argument("--games", type=int, default=100)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--display", default=None, help="use this X display instead of an Xvfb")
    args = p.parse_args(argv)
    if not Path(DEBIAN_XSKAT).exists():
        print(f"no {DEBIAN_XSKAT}: apt-get install xskat", file=sys.stderr)
        return 2
    try:
        binary = str(build(find_source(args.xskat_src)))
    except XSkatSourceError as exc:
        print(exc, file=sys.stderr)
        return 2
    server = None
    display = args.display
    if display is None:
        server, display = start_xvfb()
    try:
        same, diffs = compare(binary, args.games, args.seed, display)
    finally:
        if server is not None:
            server.kill()
            server.wait()
    for d in diffs:
        print(d)
    print(f"{args.games} games: {same} the same in Debian's xskat and ours, "
          f"{len(diffs)} differ")
    return 0 if not diffs else 1


if __name__ == "__main__":
    raise SystemExit(main())
