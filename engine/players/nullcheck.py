"""Is a null won by one line of play? The declarer plays by rule, the defenders perfectly.

Null double-dummy is optimistic for the declarer: in each sampled world he plays knowing
where every defender's card lies (which suit to throw when he cannot follow, which card to
lead), so a null "won in every world" may still need a different line in each world, and at
the table he must pick one. Here the declarer's cards come from a fixed policy that uses
only what he knows (his hand, the cards played, the skat if he took it), and the defenders
search every line with all cards open (in null they see, or soon infer, nearly everything).
A null this check wins in every world is won by one line of play in all of them; in each
world it is won only if the double-dummy search wins it too (the policy is one of the
declarer's strategies, the defenders are the same), so it can only be more pessimistic.

The declarer's policy (the expert's, and the rule player's ``nullplay``/``nulllead``):

- following suit: the highest card that stays under the trick's best card; with none, the
  lowest (the hand after him may still have to go over it);
- not able to follow: the highest card of a suit the outstanding cards can still force him
  in (first one whose top card leaving makes the suit safe), else his highest card;
- leading (the first trick, in forehand): the highest card that lies under every outstanding
  card of its suit, else the card with the fewest outstanding cards under it.

A suit is *safe* when the defenders can never force him in it: his i-th lowest card lies
under their i-th lowest (:func:`suit_safe`). A position where every suit is safe against
the defenders' real cards is won (the policy keeps it so: it ducks with the highest card and
throws top cards), which ends most searches at once.

>>> from engine.cards import parse_mask as p
>>> hands = [p("C7 C9 S8"), p("C8 CT S7"), p("CJ CQ HA")]
>>> escapes(hands, declarer=0, leader=1)  # the spade 7 led, rearhand void: S8 is caught
False
>>> escapes([p("C7 C9 S8"), p("C8 CT S7"), p("CJ CQ SA")], declarer=0, leader=1)
True
"""

from __future__ import annotations

import time
from collections.abc import Sequence

from engine.cards import SUIT_MASKS as SUIT

ALL = 0xFFFFFFFF
# Positions (trick starts) searched before a check gives up (about 0.1 ms each here). On 300
# random hands of null strength 8 or more against random defenders: median 4 positions
# (0.3 ms), 95 % within 566, the longest 7 240 (0.6 s); 10 passed 1 000, 9 of them escapes
# (nulls the declarer escapes by a narrow line): the caller then takes double-dummy's answer.
MAX_NODES = 1_000


def _ranks(byte: int) -> list[int]:
    return [r for r in range(8) if byte >> r & 1]


def suit_safe(mine: int, theirs: int) -> bool:
    """Can the holders of ``theirs`` (a byte of ranks, null order) never force the holder of
    ``mine`` to take a trick in this suit? His i-th lowest card must lie under their i-th
    lowest (for as many cards as they hold).

    >>> suit_safe(0b1, 0b10), suit_safe(0b10, 0b1), suit_safe(0b101, 0b1010)
    (True, False, True)
    >>> suit_safe(0b1001, 0b0110)   # 7 T against 8 9: the 9 forces the ten
    False
    """
    d, e = _ranks(mine), _ranks(theirs)
    return all(a < b for a, b in zip(d, e, strict=False))


_SAFE = bytes(suit_safe(m, t) for m in range(256) for t in range(256))


def all_safe(mine: int, theirs: int) -> bool:
    """Every suit of ``mine`` safe against ``theirs`` (card masks)."""
    for s in range(4):
        m = mine >> (8 * s) & 0xFF
        if m and not _SAFE[(m << 8) | (theirs >> (8 * s) & 0xFF)]:
            return False
    return True


def unsafe_suits(mine: int, theirs: int) -> list[int]:
    """The suits of ``mine`` that ``theirs`` can force (card masks)."""
    return [s for s in range(4) if (m := mine >> (8 * s) & 0xFF)
            and not _SAFE[(m << 8) | (theirs >> (8 * s) & 0xFF)]]


def _top(mask: int) -> int:
    return mask.bit_length() - 1


def _low(mask: int) -> int:
    return (mask & -mask).bit_length() - 1


def declarer_card(hand: int, trick: Sequence[int], unknown: int) -> int:
    """The null declarer's card by the policy above; ``unknown``: the cards he has not seen
    (the defenders' and, in a hand game, the skat).

    >>> from engine.cards import parse_mask as p, Card
    >>> Card(declarer_card(p("C7 C9 CQ"), [int(Card.CT)], p("C8 CJ CK CA")))  # duck high
    <Card.C9: 2>
    >>> Card(declarer_card(p("C7 C9 SA"), [int(Card.HT)], p("C8 CT S8")))      # throw SA
    <Card.SA: 15>
    >>> Card(declarer_card(p("C8 C9 S7 SA"), [], p("C7 CT S8 S9")))   # S7 is under all
    <Card.S7: 8>
    """
    if trick:
        s = trick[0] >> 3
        mine = hand & SUIT[s]
        if mine:
            best = max(c for c in trick if c >> 3 == s)
            under = mine & ((1 << best) - 1)
            return _top(under) if under else _low(mine)
        return _discard(hand, unknown)
    return _lead(hand, unknown)


def _discard(hand: int, unknown: int) -> int:
    bad = unsafe_suits(hand, unknown)
    for s in bad:  # a suit the top card's leaving makes safe
        top = _top(hand & SUIT[s])
        rest = (hand & SUIT[s]) & ~(1 << top)
        if not rest or all_safe(rest, unknown & SUIT[s]):
            return top
    if bad:
        return max((_top(hand & SUIT[s]) for s in bad), key=lambda c: (c & 7, -(c >> 3)))
    return max((_top(hand & SUIT[s]) for s in range(4) if hand & SUIT[s]),
               key=lambda c: (c & 7, -(c >> 3)))


def _lead(hand: int, unknown: int) -> int:
    best = None
    for s in range(4):
        mine, out = hand & SUIT[s], unknown & SUIT[s]
        if not mine or not out:
            continue
        under = mine & ((1 << _low(out)) - 1)
        if under:
            c = _top(under)
            if best is None or (c & 7) > (best & 7):
                best = c
    if best is not None:
        return best

    def below(c: int) -> int:
        return (unknown & SUIT[c >> 3] & ((1 << c) - 1)).bit_count()

    cards = [c for c in range(32) if hand >> c & 1]
    # a card of a suit nobody else holds wins the trick: the last choice
    return min(cards, key=lambda c: (not unknown & SUIT[c >> 3], below(c), c & 7))


def _classes(legal: int, others: int) -> list[int]:
    """One card of each run of ``legal`` with no card of ``others`` between (low first)."""
    out = []
    prev = -2
    m = legal
    while m:
        bit = m & -m
        m ^= bit
        c = bit.bit_length() - 1
        if prev >= 0 and c >> 3 == prev >> 3 and not others & (bit - (2 << prev)):
            prev = c
            continue
        out.append(c)
        prev = c
    return out


class NullCheck:
    """The search of one null (kept for a world: its table holds the positions seen)."""

    def __init__(self, declarer: int, hidden_skat: int = 0, max_nodes: int = MAX_NODES,
                 deadline: float | None = None) -> None:
        self.declarer = declarer
        self.hidden = hidden_skat  # cards the declarer cannot place (a hand game's skat)
        self.max_nodes = max_nodes
        self.deadline = deadline  # time.monotonic(): past it NullTimedOut is raised
        self.nodes = 0
        self._memo: dict[tuple[int, int, int, int], bool] = {}

    def escapes(self, hands: Sequence[int], leader: int, trick: Sequence[int] = (),
                lead: int | None = None) -> bool:
        """Does the declarer take no trick from here (policy against perfect defenders)?
        ``lead``: his card if he is to lead now (else the policy's). Raises
        :class:`NullTooLong` past ``max_nodes``."""
        h = list(hands)
        d = self.declarer
        if lead is not None and not trick and leader == d:
            if not h[d] >> lead & 1:
                raise ValueError(f"the declarer does not hold card {lead}")
            h[d] &= ~(1 << lead)
            return self._play(h, leader, (lead,))
        return self._play(h, leader, tuple(trick))

    def _play(self, h: list[int], leader: int, trick: tuple[int, ...]) -> bool:
        d = self.declarer
        if len(trick) == 3:
            s = trick[0] >> 3
            best = max(c for c in trick if c >> 3 == s)
            winner = (leader + trick.index(best)) % 3
            if winner == d:
                return False
            if not h[d]:
                return True
            return self._start(h, winner)
        if not trick and leader != d:
            return self._start(h, leader)
        p = (leader + len(trick)) % 3
        if p == d:
            c = declarer_card(h[d], trick, h[(d + 1) % 3] | h[(d + 2) % 3] | self.hidden)
            h2 = list(h)
            h2[d] &= ~(1 << c)
            return self._play(h2, leader, (*trick, c))
        hand = h[p]
        legal = hand & SUIT[trick[0] >> 3] if trick else 0
        legal = legal or hand
        # the trick's cards count between two of his: over a card laid, one takes it, the
        # other not
        others = (h[0] | h[1] | h[2]) & ~hand
        for c in trick:
            others |= 1 << c
        for c in _classes(legal, others):
            h2 = list(h)
            h2[p] &= ~(1 << c)
            if not self._play(h2, leader, (*trick, c)):
                return False
        return True

    def _start(self, h: list[int], leader: int) -> bool:
        d = self.declarer
        key = (h[0], h[1], h[2], leader)
        r = self._memo.get(key)
        if r is None:
            if all_safe(h[d], h[(d + 1) % 3] | h[(d + 2) % 3]):
                self._memo[key] = True
                return True
            self.nodes += 1
            if self.nodes > self.max_nodes:
                raise NullTooLong(f"null check past {self.max_nodes} positions")
            if self.deadline is not None and not self.nodes & 63 \
                    and time.monotonic() >= self.deadline:
                raise NullTimedOut("null check past its deadline")
            r = self._memo[key] = self._play_trick(h, leader)
        return r

    def _play_trick(self, h: list[int], leader: int) -> bool:
        p = leader
        hand = h[p]
        d = self.declarer
        mine, partner = h[d], h[3 - p - d]
        # a lead under all his cards of a suit, the partner void there or able to stay under
        # them too: he must take it (the most common way a null is lost; no search needed)
        for s in range(4):
            m = mine & SUIT[s]
            if m:
                under = (1 << _low(m)) - 1
                if hand & SUIT[s] & under and (not partner & SUIT[s] or partner & SUIT[s] & under):
                    return False
        others = (h[0] | h[1] | h[2]) & ~hand
        bad = 0
        for s in unsafe_suits(mine, hand | partner):
            bad |= SUIT[s]
        # attack the suits he can be forced in first, low cards first
        for c in sorted(_classes(hand, others), key=lambda c: (not bad >> c & 1, c & 7)):
            h2 = list(h)
            h2[p] &= ~(1 << c)
            if not self._play(h2, leader, (c,)):
                return False
        return True


class NullTooLong(Exception):
    """The check passed its node budget (the caller treats the null as unproven)."""


class NullTimedOut(Exception):
    """The check passed its deadline."""


def escapes(hands: Sequence[int], declarer: int, leader: int = 0, trick: Sequence[int] = (),
            hidden_skat: int = 0, lead: int | None = None) -> bool:
    """Does the null declarer take no trick, playing by the policy against defenders who see
    every card? ``hidden_skat``: the skat when he has not seen it (hand game); ``lead``: his
    first card when he leads."""
    return NullCheck(declarer, hidden_skat).escapes(hands, leader, trick, lead)


def lead_choices(hand: int, unknown: int) -> list[int]:
    """The first leads worth comparing over the worlds (the declarer in forehand): the
    policy's, and the lowest card of each suit (a blank or short unsafe card led at once
    is often gone safely, while the defenders still hold the suit).

    >>> from engine.cards import parse_mask as p, Card
    >>> [Card(c) for c in lead_choices(p("C8 S7 H7 H9 D7 D8"), p("C7 C9 S8 H8 D9 DT"))]
    [<Card.D8: 25>, <Card.C8: 1>, <Card.S7: 8>, <Card.H7: 16>, <Card.D7: 24>]
    """
    out = [_lead(hand, unknown)]
    for s in range(4):
        m = hand & SUIT[s]
        if m and _low(m) not in out:
            out.append(_low(m))
    return out


__all__ = ["NullCheck", "NullTimedOut", "NullTooLong", "all_safe", "declarer_card", "escapes",
           "lead_choices", "suit_safe", "unsafe_suits"]
