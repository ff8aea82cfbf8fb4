"""What a computer seat may see, and the interface every computer player keeps.

A player never sees the :class:`~engine.game.Game`: it gets a :class:`SeatView`, built from
the game for one position, holding exactly what that seat may know at a real table: its own
hand, the bidding, the cards played (and so which suits each player showed void in), the skat
if it took it up as declarer, the declarer's open hand in an ouvert game. It answers with one
action that is legal now.

>>> from engine.deal import Deal
>>> from engine.game import Game
>>> g = Game(Deal.shuffled(7))
>>> view = SeatView.of(g, 1)            # middlehand speaks first in the bidding
>>> view.phase.value, view.to_act, view.hand.bit_count(), view.skat
('bidding', 1, 10, 0)
>>> p = RandomPlayer(seed=3)
>>> p.choose(view) in g.legal_actions()
True
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable

from engine.actions import Action, Bid, Discard, Hold, Pass, Push
from engine.contract import Contract, GameType
from engine.game import Game, Phase, Rules
from engine.trick import FOLLOW, Trick


class PlayerError(ValueError):
    """A player asked to act when its seat is not to act, or set up wrongly."""


@dataclass(frozen=True)
class SeatView:
    """Everything one position may know about the game now (and nothing more).

    Masks are card masks (see :mod:`engine.cards`). ``skat`` is what this seat knows of the
    skat: the original two cards and then the discards for a declarer who took it up; in a
    Schieberamsch the two cards this seat pushed on while no later seat has taken the skat
    (they still lie there); else 0. ``pushed`` is the cards this seat pushed on (0: none),
    ``pushers`` the positions that took the skat in a Schieberamsch, in order (everyone sees
    who takes it, not what is pushed): cards pushed on can only be in the skat or with a
    seat that took it afterwards (:attr:`pushed_to`).
    ``open_hand`` is the declarer's current hand in an ouvert game (else None).
    ``voids[p]`` is a mask of cards that position ``p`` has shown it cannot hold (it did
    not follow a lead of their suit or trumps).

    ``game`` is None, except in a view built with ``reveal=True`` for a player that
    declares ``sees_all`` (the perfect-information ceiling of the strength harness; the
    controller never builds one).
    """

    pos: int
    phase: Phase
    to_act: int | None
    legal: tuple[Action, ...]
    hand: int
    rules: Rules
    bidding: tuple[Action, ...]
    bid: int
    declarer: int | None
    contract: Contract | None
    game_type: GameType | None
    skat_taken: bool
    skat: int
    skat_original: int
    tricks: tuple[Trick, ...]
    trick: tuple[int, ...]
    trick_leader: int
    open_hand: int | None
    won: tuple[int, int, int]
    voids: tuple[int, int, int]
    hand_sizes: tuple[int, int, int]
    game: Game | None = field(default=None, compare=False, repr=False)
    pushed: int = 0
    pushers: tuple[int, ...] = ()

    @classmethod
    def of(cls, game: Game, pos: int, reveal: bool = False) -> SeatView:
        """The view of position ``pos`` (0 forehand, 1 middlehand, 2 rearhand); with
        ``reveal`` it also holds the whole game (for a player that ``sees_all``)."""
        if pos not in (0, 1, 2):
            raise PlayerError(f"position {pos!r} is not 0, 1 or 2")
        declared = game.phase in (Phase.PLAY, Phase.FINISHED) or (
            game.phase == Phase.DISCARD and game.declared
        )
        game_type = game.game_type if declared or game.is_ramsch else None
        is_declarer = game.declarer == pos
        knows_skat = is_declarer and game.skat_taken
        skat = game.skat if knows_skat else 0
        skat_original = game.deal.skat if knows_skat else 0
        contract = game.contract if declared else None
        open_hand = None
        if contract is not None and contract.ouvert and game.declarer is not None:
            open_hand = game.hands[game.declarer]
        legal = tuple(a for a in game.legal_actions() if a.pos == pos)
        bidding = tuple(a for a in game.actions if isinstance(a, Bid | Hold | Pass))
        pushed = 0
        pushers: list[int] = []
        if game.is_ramsch:  # no declarer: every discard is a push
            for a in game.actions:
                if isinstance(a, Push):
                    pushers.append(a.pos)
                elif isinstance(a, Discard) and a.pos == pos:
                    pushed |= 1 << a.card
            if pushed and pushers[-1] == pos:
                skat = pushed  # nobody has taken it since: the seat's own cards lie there
        trick = tuple(int(c) for c in game.trick)
        return cls(
            pos=pos,
            phase=game.phase,
            to_act=game.to_act,
            legal=legal,
            hand=game.hands[pos],
            rules=game.rules,
            bidding=bidding,
            bid=game.bid,
            declarer=game.declarer,
            contract=contract,
            game_type=game_type,
            skat_taken=game.skat_taken,
            skat=skat,
            skat_original=skat_original,
            tricks=tuple(game.tricks),
            trick=trick,
            trick_leader=game.trick_leader,
            open_hand=open_hand,
            won=tuple(game.won),  # type: ignore[arg-type]
            voids=_voids(game_type, game.tricks, trick, game.trick_leader),
            hand_sizes=tuple(h.bit_count() for h in game.hands),  # type: ignore[arg-type]
            game=game if reveal else None,
            pushed=pushed,
            pushers=tuple(pushers),
        )

    @property
    def pushed_to(self) -> tuple[int, ...]:
        """The positions that took the skat after this seat pushed (its pushed cards not
        played yet are with one of them or in the skat); () when it pushed nothing."""
        if not self.pushed or self.pos not in self.pushers:
            return ()
        return self.pushers[self.pushers.index(self.pos) + 1:]

    @property
    def played(self) -> int:
        """Every card laid to a trick so far (completed or current)."""
        m = 0
        for t in self.tricks:
            m |= t.mask
        for c in self.trick:
            m |= 1 << c
        return m

    @property
    def unknown(self) -> int:
        """Cards this seat cannot place: not its own, not played, not a known skat or open hand."""
        known = self.hand | self.played | self.skat | self.skat_original | (self.open_hand or 0)
        return 0xFFFFFFFF & ~known

    def points_of(self, declarer_side: bool) -> int:
        """Card points taken in tricks so far by the declarer or by the defenders."""
        from engine.cards import mask_points

        d = self.declarer
        if d is None:
            return 0
        if declarer_side:
            return mask_points(self.won[d])
        return sum(mask_points(self.won[p]) for p in range(3) if p != d)


def _voids(
    game_type: GameType | None, tricks: tuple[Trick, ...], trick: tuple[int, ...], leader: int
) -> tuple[int, int, int]:
    if game_type is None:
        return (0, 0, 0)
    follow = FOLLOW[game_type]
    voids = [0, 0, 0]
    sequences = [(t.leader, tuple(int(c) for c in t.cards)) for t in tricks]
    if trick:
        sequences.append((leader, trick))
    for lead_pos, cards in sequences:
        group = follow[cards[0]]
        for i in range(1, len(cards)):
            if not (group >> cards[i]) & 1:
                voids[(lead_pos + i) % 3] |= group
    return (voids[0], voids[1], voids[2])


@runtime_checkable
class Player(Protocol):
    """A computer player: ``choose`` returns one action of ``view.legal``.

    Players are deterministic for a given seed and sequence of views.
    """

    name: str

    def choose(self, view: SeatView) -> Action: ...


def sees_all(player: object) -> bool:
    """Does this player (or the player a wrapper such as :class:`DuelPartner` holds) play
    with every card open? Only the strength harness gives such a player the whole game.

    >>> sees_all(RandomPlayer()), sees_all(DuelPartner(RandomPlayer()))
    (False, False)
    """
    while player is not None:
        if getattr(player, "sees_all", False):
            return True
        player = getattr(player, "player", None)
    return False


def require_turn(view: SeatView) -> None:
    """Raise :class:`PlayerError` unless the seat has something to do."""
    if not view.legal:
        raise PlayerError(
            f"position {view.pos} has nothing to do now (phase {view.phase.value}, "
            f"to act: {view.to_act})"
        )


class RandomPlayer:
    """Picks uniformly among the legal actions (the floor every other player must beat).

    Kontra and Re are left out: a random doubling only adds noise to a strength test.
    """

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: SeatView) -> Action:
        require_turn(view)
        options = [a for a in view.legal if a.kind not in ("kontra", "re")] or list(view.legal)
        return self.rng.choice(options)


class DuelPartner:
    """Duel mode: the computer never becomes declarer and partners whoever defends.

    The rule texts' duel (two people and the computer): the person who does not win the
    bidding plays with the computer against the declarer. So the computer passes at every
    bidding decision (an all-pass deal is passed in as usual) and otherwise plays as the
    wrapped player does. Not crediting it is the score sheet's business.

    >>> from engine.deal import Deal
    >>> from engine.game import Game
    >>> g = Game(Deal.shuffled(7))
    >>> DuelPartner(RandomPlayer(1)).choose(SeatView.of(g, 1)).kind
    'pass'
    """

    def __init__(self, player: Player) -> None:
        self.player = player
        self.name = f"duel-{player.name}"

    def choose(self, view: SeatView) -> Action:
        require_turn(view)
        if view.phase == Phase.BIDDING:
            return next(a for a in view.legal if isinstance(a, Pass))
        return self.player.choose(view)

    def double(self, view: SeatView) -> Action | None:
        """Kontra out of turn as the wrapped player would say it (if it ever does)."""
        double = getattr(self.player, "double", None)
        return double(view) if double is not None else None

    def close(self) -> None:
        close = getattr(self.player, "close", None)
        if close is not None:
            close()

