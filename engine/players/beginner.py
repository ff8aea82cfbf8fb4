"""The beginner: the rule player's sense with the mistakes people make in their first year.

It follows suit, counts its trumps and plays the rule player's card most of the time. Its
mistakes are the ones beginners make at a real table, never nonsense:

- **bidding**: it misjudges its hand, a fixed amount per hand, more often too high than too
  low (a beginner counts the skat's help as certain);
- **smearing early**: as a defender it gives its partner a ten or king while the declarer,
  who plays after it, can still take the trick;
- **overtaking the partner**: it takes a trick its partner already holds;
- **a ten before its ace**: as declarer it leads a side ten while that suit's ace is out;
- **a loose card**: following a suit it cannot win, it gives a queen or king instead of
  its smallest card;
- **forgetting to smear**: last in a trick its partner has won, it gives its smallest card
  instead of a ten;
- **the small cards away**: after a pick-up it lays away its two smallest side cards,
  keeping a blank ten the opponents will catch (every other card laid away).

A mistake is made at a share :data:`SLIP` of the card decisions where one applies. It never
lays an ace or the club jack by mistake, and never an ace or ten on a trick the other side
has already won.

>>> from engine.deal import Deal
>>> from engine.players.table import play_game
>>> g = play_game(Deal.shuffled(5), [BeginnerPlayer(1), BeginnerPlayer(2), BeginnerPlayer(3)])
>>> g.result is not None
True
"""

from __future__ import annotations

import random
from collections.abc import Callable

from engine.actions import Action, Discard, Play
from engine.cards import RANK_POINTS, SUIT_MASKS, iter_bits
from engine.contract import GameType
from engine.game import Phase
from engine.players.base import SeatView, require_turn
from engine.players.rule import RulePlayer
from engine.trick import BEATS, FOLLOW, POWER, TRUMPS, trick_winner

SLIP = 0.5  # a mistake at every other card decision where one applies
DISCARD_SLIP = 0.5
# the misjudgement of a hand in the bidding, in tricks of the rule player's count (one is
# drawn per hand: mostly too bold)
MISJUDGE = (-1.0, -0.5, 0.0, 0.5, 0.5, 1.0, 1.0, 1.5)
TEN, JACK, QUEEN, KING, ACE = 3, 4, 5, 6, 7
CLUB_JACK = 0 * 8 + JACK


def _is_ace_or_club_jack(c: int) -> bool:
    return c & 7 == ACE or c == CLUB_JACK


class BeginnerPlayer:
    """A beginner (see the module): ``seed`` makes its mistakes reproducible."""

    name = "beginner"

    def __init__(self, seed: int = 0, slip: float = SLIP) -> None:
        self.seed = seed
        self.rng = random.Random(seed * 7919 + 17)
        self.slip = slip
        self.rule = RulePlayer(seed)
        self.last_bid_limit: int | None = None
        self.slips = 0  # mistakes made (the strength lab counts them)

    def misjudgement(self, hand: int) -> float:
        """This hand's misjudgement in the bidding (the same at every bid of the hand)."""
        return random.Random(self.seed * 1_000_003 + hand).choice(MISJUDGE)

    def choose(self, view: SeatView) -> Action:
        require_turn(view)
        if view.phase == Phase.BIDDING:
            self.rule.boldness = self.misjudgement(view.hand)
            legal = [a for a in view.legal if a.kind not in ("kontra", "re")]
            action = self.rule.bidding(view, legal or list(view.legal))
            self.last_bid_limit = self.rule.last_bid_limit
            return action
        self.rule.boldness = 0.0
        if (view.phase == Phase.DISCARD and view.game_type is not None
                and int(view.game_type) <= GameType.GRAND
                and self.rng.random() < DISCARD_SLIP):
            card = self.small_discard(view)
            if card is not None:
                self.slips += 1
                return next(a for a in view.legal if isinstance(a, Discard) and a.card == card)
        g = view.game_type
        plays = [a for a in view.legal if isinstance(a, Play)]
        if (plays and len(plays) > 1 and g is not None and int(g) <= GameType.GRAND
                and view.phase == Phase.PLAY and self.rng.random() < self.slip):
            legal = sum(1 << a.card for a in plays)
            card = self.mistake(view, legal, int(g))
            if card is not None:
                self.slips += 1
                return next(a for a in plays if a.card == card)
        return self.rule.choose(view)

    # ------------------------------------------------------------------ mistakes

    def mistake(self, view: SeatView, legal: int, g: int) -> int | None:
        """The card of the first beginner's mistake that applies here, or None."""
        good = self.rule.card(view, legal)
        kinds: tuple[Callable[[SeatView, int, int], int | None], ...] = (
            self._smear_early, self._overtake_partner, self._ten_first, self._loose_card,
            self._no_smear)
        for kind in kinds:
            c = kind(view, legal, g)
            if c is not None and c != good and self.sane(view, c, g):
                return c
        return None

    @staticmethod
    def sane(view: SeatView, c: int, g: int) -> bool:
        """A mistake a person makes, not nonsense: never an ace or the club jack, never an
        ace or ten on a trick the other side has already won."""
        if _is_ace_or_club_jack(c):
            return False
        trick = view.trick
        if len(trick) == 2 and c & 7 == TEN:
            w = trick_winner(trick, g)
            holder = (view.trick_leader + w) % 3
            mine = holder == view.pos or (view.declarer not in (holder, view.pos))
            if not mine and not BEATS[g][trick[w]] >> c & 1:
                return False
        return True

    def _partner(self, view: SeatView) -> int | None:
        decl = view.declarer
        if decl is None or decl == view.pos:
            return None
        return next(p for p in range(3) if p not in (decl, view.pos))

    def _smear_early(self, view: SeatView, legal: int, g: int) -> int | None:
        """Second hand, the partner led and holds the trick, the declarer still to play:
        a ten (or king) given too early."""
        partner = self._partner(view)
        if partner is None or len(view.trick) != 1 or view.trick_leader != partner:
            return None
        rich = [c for c in iter_bits(legal & ~TRUMPS[g]) if c & 7 in (TEN, KING)]
        return max(rich, key=lambda c: RANK_POINTS[c & 7]) if rich else None

    def _partner_holds_last_hand(self, view: SeatView, g: int) -> bool:
        """Last hand, and the partner's card holds the trick."""
        partner = self._partner(view)
        if partner is None or len(view.trick) != 2:
            return False
        return (view.trick_leader + trick_winner(view.trick, g)) % 3 == partner

    def _overtake_partner(self, view: SeatView, legal: int, g: int) -> int | None:
        """Last hand, the partner holds the trick: taking it over with a trump."""
        if not self._partner_holds_last_hand(view, g):
            return None
        over = legal & BEATS[g][view.trick[trick_winner(view.trick, g)]] & TRUMPS[g]
        if not over:
            return None
        return min(iter_bits(over), key=lambda c: POWER[g][c])

    def _ten_first(self, view: SeatView, legal: int, g: int) -> int | None:
        """The declarer leads a side ten while its ace is still out."""
        if view.declarer != view.pos or view.trick:
            return None
        played = 0
        for t in view.tricks:
            for c in t.cards:
                played |= 1 << c
        for s in range(4):
            ten = s * 8 + TEN
            ace = s * 8 + ACE
            if (legal >> ten & 1 and not TRUMPS[g] >> ten & 1
                    and not (view.hand | played) >> ace & 1):
                return ten
        return None

    def _loose_card(self, view: SeatView, legal: int, g: int) -> int | None:
        """Following a side suit it cannot win: a queen or king instead of the smallest."""
        if not view.trick:
            return None
        led = view.trick[0]
        if TRUMPS[g] >> led & 1:
            return None
        follows = legal & FOLLOW[g][led] & SUIT_MASKS[led >> 3]
        w = trick_winner(view.trick, g)
        if not follows or follows & BEATS[g][view.trick[w]]:
            return None
        loose = [c for c in iter_bits(follows) if c & 7 in (QUEEN, KING)]
        return max(loose, key=lambda c: RANK_POINTS[c & 7]) if loose else None

    def _no_smear(self, view: SeatView, legal: int, g: int) -> int | None:
        """Last hand, the partner has the trick: the smallest card, not the ten."""
        if not self._partner_holds_last_hand(view, g):
            return None
        if not any(c & 7 == TEN for c in iter_bits(legal)):
            return None
        return min(iter_bits(legal), key=lambda c: (RANK_POINTS[c & 7], TRUMPS[g] >> c & 1,
                                                POWER[g][c]))

    def small_discard(self, view: SeatView) -> int | None:
        """The smallest side card (a 7, 8 or 9; of the shortest suit first), when there is
        one to lay away."""
        assert view.game_type is not None
        side = view.hand & ~TRUMPS[int(view.game_type)]
        small = [c for c in iter_bits(side) if c & 7 in (0, 1, 2)]
        if not small:
            return None
        counts = [(side & SUIT_MASKS[s]).bit_count() for s in range(4)]
        return min(small, key=lambda c: (c & 7, counts[c >> 3], c))
