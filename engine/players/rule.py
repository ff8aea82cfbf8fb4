"""The rule player: hand evaluation for the bidding and the contract, standard card play.

What a sound club player does without counting every card: bid up to the value of a game the
hand (plus a typical skat) can win; take the skat unless the hand is overwhelming; declare
the strongest game that reaches the bid; put away catchable points; as declarer draw trumps
with the top ones, then cash aces; as defender cash side aces, give points to a partner who
holds the trick, take a trick cheaply, throw the cheapest card when the trick is lost.

Improvements since 2025 are options (:class:`~engine.players.evaluate.Style`): with
``Style.legacy()`` the player is the 2025 one, action for action (``make_player("rule-2025")``);
the default takes a safe grand and the game of the best expected score after the pick-up.

>>> from engine.deal import Deal
>>> from engine.game import Game
>>> from engine.players.base import SeatView
>>> g = Game(Deal.shuffled(11))
>>> p = RulePlayer(seed=1)
>>> while g.result is None:
...     g.push(p.choose(SeatView.of(g, g.to_act)))
>>> g.phase.value
'finished'
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterator

from engine.actions import (
    Action,
    Bid,
    Declare,
    Discard,
    Hold,
    Pass,
    Play,
    Push,
    TakeSkat,
)
from engine.cards import JACKS, RANK_POINTS, SUIT_MASKS, mask_points
from engine.contract import GameType
from engine.game import Phase
from engine.players import evaluate as ev
from engine.players.base import SeatView, require_turn
from engine.players.nullcheck import unsafe_suits
from engine.trick import BEATS, FOLLOW, POWER, TRUMPS

# A hand game only with a margin: the skat would otherwise be worth about a trick.
HAND_GAME_MARGIN = 2.0
# ``bold``: what the bidding adds to the count (measured against XSkat: docs/players.md,
# "What was learned")
BOLD = 0.5
# ``bolder``: a further quarter trick on top of ``bold``
BOLDER = 0.25
# ``risk``: what a bid above 18 needs on the count beyond a safe game (against XSkat the
# games counted just safe and bid higher were won about half the time; docs/players.md,
# "What was learned")
RISK = 0.5
# ``bid18``: how far short of safe a suit game may count and still be bid to 18 (XSkat won
# about 80 % of the games it declared at 18 on such hands when nobody else bid)
BID18_SHORT = 1.0
# ``last18``: how far short of safe forehand's best suit game may count when the other two
# have passed (measured on seed 975 with every such hand played: at 1.5 to 1 short won
# 71 % and +12.8 a game against passing in, 2 to 1.5 short 42 % and -24)
LAST18_SHORT = 1.5
# ``cashfirst``: the most trumps with which a suit-game declarer cashes his side aces first
CASHFIRST_TRUMPS = 4


def _bits(mask: int) -> list[int]:
    return [c for c in range(32) if mask >> c & 1]


class RulePlayer:
    """Heuristic player; ``seed`` only breaks exact ties, so play is reproducible."""

    name = "rule"

    def __init__(self, seed: int = 0, boldness: float = 0.0, style: ev.Style | None = None,
                 name: str = "rule", null_boldness: float = 0.0) -> None:
        self.rng = random.Random(seed)
        self.boldness = boldness
        # added to the null count's bonus alone (PIMC's harness ``bolder`` and ``boldest``
        # leave the null count as it was)
        self.null_boldness = null_boldness
        self.style = style if style is not None else ev.Style()
        self.name = name
        # the limit of the last bidding decision (the duel's statistics report it)
        self.last_bid_limit: int | None = None

    # ------------------------------------------------------------------ decisions

    def choose(self, view: SeatView) -> Action:
        require_turn(view)
        legal = [a for a in view.legal if a.kind not in ("kontra", "re")] or list(view.legal)
        ph = view.phase
        if ph == Phase.BIDDING:
            return self.bidding(view, legal)
        if ph == Phase.SKAT:
            return self.skat_or_hand(view, legal)
        if ph == Phase.DISCARD:
            return self.discard_or_declare(view, legal)
        if ph == Phase.PUSHING:
            return self.pushing(view, legal)
        plays = [a for a in legal if isinstance(a, Play)]
        if plays:
            card = self.card(view, sum(1 << a.card for a in plays))
            return next(a for a in plays if a.card == card)
        return legal[0]

    def bidding(self, view: SeatView, legal: list[Action]) -> Action:
        # ``careful``: a skat worth a trick less, ``bold``: half a trick more
        bids = sorted((a for a in legal if isinstance(a, Bid)), key=lambda a: a.value)
        forehand = view.pos == 0
        limit = self.bid_limit(view.hand, forehand, opening=bool(bids) and not view.bid)
        if (self.style.last18 and forehand and bids and not limit and not view.rules.ramsch
                and ev.styled_bid_limit(view.hand, self.style, forehand,
                                        self._bonus() + LAST18_SHORT, null=False)):
            # ``last18``: forehand may bid only when the other two have passed, and then
            # passing ends the game with no score: a suit game up to LAST18_SHORT short of
            # safe is played (won about three times in four against XSkat's defence)
            limit = bids[0].value
        self.last_bid_limit = limit
        if bids:
            if bids[0].value <= limit:
                return bids[0]
        elif view.bid <= limit:
            hold = [a for a in legal if isinstance(a, Hold)]
            if hold:
                return hold[0]
        return next(a for a in legal if isinstance(a, Pass))

    def bid_limit(self, hand: int, forehand: bool, opening: bool = False) -> int:
        """The highest bid to make or hold with these ten cards (0 to pass).

        ``styled_bid_limit`` under the player's style, and: ``risk``, above 18 only with
        ``RISK`` more on the count (a game counted just safe is bid to 18, not to its
        value); ``bid18``, for the ``opening`` bid (nobody has bid yet), 18 with a suit
        game counted up to ``BID18_SHORT`` short (never to hold against another's bid);
        ``xbid``, a suit game without the club jack only to twice its base value.

        >>> from engine.cards import parse_mask
        >>> hand = parse_mask("C9 CJ CK SJ SQ SK HA D7 DT DJ")  # clubs "with 2", 36
        >>> p = RulePlayer()
        >>> p.bid_limit(hand, False), RulePlayer(style=p.style.with_("risk")).bid_limit(hand, False)
        (36, 18)
        """
        bonus = self._bonus()
        cap = self.style.xbid
        limit = ev.styled_bid_limit(hand, self.style, forehand, bonus, cap_without=cap,
                                    null_bonus=bonus + self.null_boldness)
        if self.style.risk and limit > 18:
            limit = ev.styled_bid_limit(hand, self.style, forehand, bonus - RISK,
                                        cap_without=cap) or 18
        if self.style.bid18 and opening and not limit and ev.styled_bid_limit(
                hand, self.style, forehand, bonus + BID18_SHORT, null=False, cap_without=cap):
            limit = 18
        return limit

    def _bonus(self) -> float:
        """What the bidding adds to the count (``careful``: a skat worth a trick less,
        ``bold``: half a trick more)."""
        return (self.boldness - (1.0 if self.style.careful else 0.0)
                + (BOLD if self.style.bold else 0.0) + (BOLDER if self.style.bolder else 0.0))

    def skat_or_hand(self, view: SeatView, legal: list[Action]) -> Action:
        if (self.style.grandhand and ev.grand_by_length(view.hand, view.pos == 0) == 2
                and ev.game_value(view.hand, ev.GRAND, hand=True) >= view.bid):
            # ``grandhand``: the jacks and long suits make the grand without the skat
            for a in legal:
                if isinstance(a, Declare) and a.contract.game == GameType.GRAND and (
                    a.contract.hand and not a.contract.schneider and not a.contract.ouvert
                ):
                    return a
        best = None
        for e in ev.estimates(view.hand):
            strength = e.strength
            if e.game == ev.NULL:
                value, need = 35, 8.5
                if self.style.null:
                    continue  # the 2026 rule player leaves a null hand game to PIMC's search
            else:
                value, need = ev.game_value(view.hand, e.game, hand=True), 9.0
                if e.game == ev.GRAND and self.style.grand:
                    strength = ev.grand_score(view.hand, view.pos == 0, self.style.grand_loser)
                    need = ev.GRAND_NEED
                    if self.style.twojacks and not ev.grand_two_jacks_ok(view.hand,
                                                                         view.pos == 0):
                        continue
            if value >= view.bid and strength >= need + HAND_GAME_MARGIN:
                best = best or e
        if best is not None:
            for a in legal:
                if isinstance(a, Declare) and a.contract.game == best.game and (
                    a.contract.hand and not a.contract.schneider and not a.contract.ouvert
                ):
                    return a
        return next(a for a in legal if isinstance(a, TakeSkat))

    def discard_or_declare(self, view: SeatView, legal: list[Action]) -> Action:
        declares = [a for a in legal if isinstance(a, Declare)]
        if declares:
            game = self.contract_game(view.hand | view.skat, view.skat_original, view.bid,
                                      view.pos == 0)
            plain = [a for a in declares if a.contract.game == game and not a.contract.ouvert]
            return (plain or declares)[0]
        game = view.game_type if view.game_type is not None else GameType.GRAND
        if game == GameType.GRAND and self.style.granddiscard:
            away = ev.grand_discard(view.hand, view.pos == 0, self.style.grand_loser)
        elif game == GameType.GRAND and self.style.xgdiscard:
            # the suit-game rules with the longest suit kept whole (as if it were trump)
            long = ev.longest_suit(view.hand, 0)
            away = ev.suit_discard(view.hand, long if long is not None else 0,
                                   self.style.voids, self.style.keepaces)
        elif game < GameType.GRAND and self.style.xdiscard:
            away = ev.suit_discard(view.hand, int(game), self.style.voids, self.style.keepaces)
        else:
            away = ev.discard(view.hand, int(game), self.style.voids, self.style.keepaces)
        card = min(_bits(away))
        return next(a for a in legal if isinstance(a, Discard) and a.card == card)

    def contract_game(self, cards: int, skat: int, bid: int, forehand: bool) -> int:
        """The game type this player declares with these twelve ``cards`` (``skat``: the
        two it picked up, 0 when unknown) at ``bid``: ``choose_game`` under its style, with
        ``nullstop``'s question asked as it asks it (PIMC's first choice after a pick-up is
        this, :meth:`engine.players.declaring.Declaring.plan`).

        >>> from engine.cards import parse_mask
        >>> twelve = parse_mask("C9 CT CA S7 S8 S9 ST H8 HT DJ CK H7")
        >>> RulePlayer().contract_game(twelve, parse_mask("CK H7"), 20, True)  # spades
        1
        """
        # ``nullstop``: did the hand's suit or grand count alone hold the bid?
        suit_bid = self.style.nullstop and skat.bit_count() == 2 and (
            ev.styled_bid_limit(cards & ~skat, self.style, forehand, self._bonus(),
                                null=False) >= bid)
        return choose_game(cards, bid, self.style, forehand, suit_bid)

    def pushing(self, view: SeatView, legal: list[Action]) -> Action:
        passes = [a for a in legal if isinstance(a, Pass)]
        if passes:
            return passes[0]  # never take the skat in Schieberamsch
        discards = [a for a in legal if isinstance(a, Discard)]
        if discards:  # push the most points on
            return max(discards, key=lambda a: (RANK_POINTS[a.card & 7], a.card))
        pushes = [a for a in legal if isinstance(a, Push)]
        return (pushes or legal)[0]

    # ------------------------------------------------------------------ card play

    def card(self, view: SeatView, legal: int) -> int:
        """The card to lay, from the mask of legal cards."""
        g = view.game_type
        if g is None or legal.bit_count() == 1:
            return _bits(legal)[0]
        if g == GameType.NULL:
            return self._null_card(view, legal)
        if g == GameType.RAMSCH:
            return self._ramsch_card(view, legal)
        return self._suit_card(view, legal, int(g))

    def _suit_card(self, view: SeatView, legal: int, g: int) -> int:
        me_decl = view.pos == view.declarer
        # cards the others may still lay (an open hand is the declarer's, not outstanding
        # to himself)
        outstanding = view.unknown | (0 if me_decl else (view.open_hand or 0))
        trick = view.trick
        if not me_decl:
            early = self._defender_card(view, legal, g)
            if early is not None:
                return early
        if not trick:
            return self._lead(view, legal, g, outstanding, me_decl)
        # who holds the trick now
        w = 0
        for i in range(1, len(trick)):
            if BEATS[g][trick[w]] >> trick[i] & 1:
                w = i
        winner_pos = (view.trick_leader + w) % 3
        partner_wins = (winner_pos == view.declarer) == me_decl and winner_pos != view.pos
        last = len(trick) == 2
        winning = legal & BEATS[g][trick[w]]
        defence = self.style.defence and not me_decl
        decl = view.declarer if view.declarer is not None else 0
        throw = (self.style.discards and not me_decl
                 and not legal & FOLLOW[g][trick[0]])
        give = self._cheapest_keeping_jacks if self.style.defjacks and not me_decl \
            else self._cheapest
        if partner_wins:
            if last:
                if self.style.dead and not me_decl:
                    return self._smear_dead(view, legal, g, decl)
                return self._smear(legal, g)
            # partner's card may still be beaten by the declarer after me: keep points home,
            # unless no card the declarer may hold beats it
            if defence and not BEATS[g][trick[w]] & outstanding & ~view.voids[decl]:
                return self._smear(legal, g)
            lead = trick[0]
            if (self.style.ace and len(trick) == 1 and not TRUMPS[g] >> lead & 1
                    and RANK_POINTS[lead & 7] <= 4 and not view.voids[decl] >> lead & 1):
                # the partner led a small side card through me: my ace takes it before
                # the declarer, sitting last, wins it cheaply with his ten or king
                ace = (lead & ~7) | 7
                if legal >> ace & 1:
                    return ace
            return self._throw(view, legal, g, decl) if throw else give(legal, g)
        if me_decl and self.style.shed:
            blank = self._shed(view, legal, g, outstanding)
            if blank is not None:
                return blank
        if winning and me_decl and self.style.aceten and len(trick) == 1:
            duck = self._duck_under_ace(legal, g, trick[0], outstanding, winning)
            if duck is not None:
                return duck
        if winning:
            trick_points = sum(RANK_POINTS[c & 7] for c in trick)
            if defence and not last:
                # the declarer led and my partner plays last: a trick I take is ours, and he
                # can give it points; take it when it holds points or costs little
                cheap = self._cheapest_winner(winning, g)
                if trick_points > 0 or (RANK_POINTS[cheap & 7] <= 4
                                        and not TRUMPS[g] >> cheap & 1):
                    return cheap
            threat = outstanding
            if self.style.play and not last:
                # the last player must follow the lead if he can: unless he has shown void
                # in it, only the cards of the led suit (or trumps) can beat mine
                nxt = (view.pos + 1) % 3
                group = FOLLOW[g][trick[0]]
                if not view.voids[nxt] & group:
                    threat = outstanding & group
            if last or self._sure(winning, g, threat):
                if last and trick_points == 0 and not me_decl and winning == legal:
                    return give(winning, g)
                if self.style.banking and (last or trick_points > 0 or me_decl):
                    # the trick is mine whatever I lay: bank the most points with it (a
                    # trump ace or ten kept back may fall to a jack later), never a jack;
                    # the second hand only with a card the third cannot beat
                    bank = [c for c in _bits(winning) if c & 7 != 4
                            and (last or not BEATS[g][c] & threat)]
                    if self.style.aceten if me_decl else self.style.defaceten:
                        # an ace whose ten is still out catches the ten later: a lower
                        # card that takes the trick as surely banks it (XSkat)
                        lower = [c for c in bank if not _ace_over_ten(c, g, outstanding)]
                        bank = lower or bank
                    if (me_decl and self.style.ruff and not last and g < GameType.GRAND
                            and not TRUMPS[g] >> trick[0] & 1
                            and not legal & FOLLOW[g][trick[0]]):
                        # ruffing a defender's side lead in second hand: with the king or
                        # queen, the trump ace and ten kept to draw with (XSkat)
                        small = [c for c in bank if c & 7 not in (3, 7)]
                        bank = small or bank
                    if bank:
                        return max(bank, key=lambda c: (RANK_POINTS[c & 7], -POWER[g][c]))
                if last or trick_points > 0 or me_decl:
                    return self._cheapest_winner(winning, g)
        return self._throw(view, legal, g, decl) if throw else give(legal, g)

    def _defender_card(self, view: SeatView, legal: int, g: int) -> int | None:
        """A defender's card by the defence options that decide before the usual rules
        (``karobube``, ``noruff``, ``takeall``), or None to play on by those."""
        decl = view.declarer if view.declarer is not None else 0
        if self.style.karobube:
            c = self._karobube(view, legal, g, decl)
            if c is not None:
                return c
        trick = view.trick
        if self.style.schneider and len(trick) == 1 and view.trick_leader == decl:
            c = self._out_of_schneider(view, legal, g)
            if c is not None:
                return c
        if self.style.butter and len(trick) == 1 and view.trick_leader == decl:
            c = self._butter_behind(view, legal, g, decl)
            if c is not None:
                return c
        if self.style.second and len(trick) == 1 and view.trick_leader == decl:
            c = self._second_hand(view.hand, legal, g, trick[0])
            if c is not None:
                return c
        if self.style.overtake and len(trick) == 1 and view.trick_leader == decl:
            c = self._overtake(legal, g, trick[0])
            if c is not None:
                return c
        if self.style.ruffpoints and len(trick) == 1 and view.trick_leader != decl:
            c = self._ruff_points(legal, g, trick[0])
            if c is not None:
                return c
        if self.style.smear and len(trick) == 1 and view.trick_leader != decl:
            c = self._butter(view, legal, g, decl)
            if c is not None:
                return c
        if len(trick) != 2 or not (self.style.noruff or self.style.takeall):
            return None
        w = 0 if not BEATS[g][trick[0]] >> trick[1] & 1 else 1
        if (view.trick_leader + w) % 3 != decl:
            return None  # the partner holds it: smear as usual
        winning = legal & BEATS[g][trick[w]]
        if not winning:
            return None
        trick_points = RANK_POINTS[trick[0] & 7] + RANK_POINTS[trick[1] & 7]
        follows = legal & FOLLOW[g][trick[0]]
        if self.style.noruff and not follows and trick_points <= (3 if g == GameType.GRAND else 0):
            # last hand, void in the led suit, the declarer's trick holds nothing: keep the
            # trump (it costs the declarer a round of drawing later), unless the trick
            # takes the defenders to 60 or out of schneider
            ours = view.points_of(False)
            best = ours + trick_points + max(RANK_POINTS[c & 7] for c in _bits(winning))
            if best < 60 and not (ours <= 30 < best):
                side = legal & ~TRUMPS[g]
                if side:
                    return (self._throw(view, side, g, decl) if self.style.discards
                            else self._cheapest(side, g))
        if (self.style.takeall and follows and winning == legal and trick_points == 0):
            # every card I can follow with wins: take it with the most points (a ten kept
            # back falls to the ace later), never a jack
            bank = [c for c in _bits(winning) if c & 7 != 4]
            if bank:
                return max(bank, key=lambda c: (RANK_POINTS[c & 7], -POWER[g][c]))
        return None

    @staticmethod
    def _trumps_at_start(view: SeatView, g: int) -> int:
        """How many trumps this seat held when the play began."""
        played = sum(1 for t in view.tricks for i, c in enumerate(t.cards)
                     if (t.leader + i) % 3 == view.pos and TRUMPS[g] >> c & 1)
        return played + (view.hand & TRUMPS[g]).bit_count()

    @staticmethod
    def _shed(view: SeatView, legal: int, g: int, outstanding: int) -> int | None:
        """The ``shed`` option, the declarer void in a defender's side lead: when the
        trick holds no points in second hand (at most 4 in last hand, and taking it would
        not bring him to 61), he throws a blank small card (a king at most) of another
        side suit that cannot win instead of ruffing: one trump kept, one more void to
        ruff later (XSkat's declarer does so); None to play on as usual."""
        trick = view.trick
        led = trick[0]
        if TRUMPS[g] >> led & 1 or legal & FOLLOW[g][led]:
            return None
        points = sum(RANK_POINTS[c & 7] for c in trick)
        if points > (0 if len(trick) == 1 else 4):
            return None
        if len(trick) == 2:
            mine = view.points_of(True) + mask_points(view.skat)
            if mine + points + max(RANK_POINTS[c & 7] for c in _bits(legal)) > 60:
                return None
        blank = [c for c in _bits(legal & ~TRUMPS[g]) if RANK_POINTS[c & 7] <= 4
                 and (legal & FOLLOW[g][c]).bit_count() == 1
                 and outstanding & FOLLOW[g][c] & BEATS[g][c]]
        if not blank:
            return None
        return min(blank, key=lambda c: (RANK_POINTS[c & 7], POWER[g][c]))

    @staticmethod
    def _duck_under_ace(legal: int, g: int, led: int, outstanding: int,
                        winning: int) -> int | None:
        """The ``aceten`` option, the declarer in second hand: a defender led a small side
        card (no points) of a suit whose ten is still out, and I hold its ace: keep the
        ace for the ten and follow with my cheapest other card of the suit (XSkat's
        declarer does; the usual play takes it with the ace, the one sure card); None to
        play on as usual."""
        if TRUMPS[g] >> led & 1 or RANK_POINTS[led & 7]:
            return None
        ace = (led & ~7) | 7
        if not winning >> ace & 1 or not _ace_over_ten(ace, g, outstanding):
            return None
        rest = legal & FOLLOW[g][led] & ~(1 << ace)
        if not rest:
            return None
        return min(_bits(rest), key=lambda c: (RANK_POINTS[c & 7], POWER[g][c]))

    @staticmethod
    def _overtake(legal: int, g: int, led: int) -> int | None:
        """The ``overtake`` option: the declarer led a trump and my partner plays last: a
        trump of mine that beats it takes the trick for us whatever he holds; taken with
        the most points (a trump ace or ten banked before a jack catches it), a jack only
        when nothing else wins (XSkat's defenders take the declarer's trump leads so);
        None to play on as usual."""
        if not TRUMPS[g] >> led & 1:
            return None
        winning = legal & BEATS[g][led]
        if not winning:
            return None
        return max(_bits(winning), key=lambda c: (c & 7 != 4, RANK_POINTS[c & 7],
                                                  -POWER[g][c]))

    @staticmethod
    def _ruff_points(legal: int, g: int, led: int) -> int | None:
        """The ``ruffpoints`` option: my partner led a side card with points, the declarer
        plays last and I cannot follow: ruff it with my lowest trump when that is not an
        ace, ten or jack, so the declarer cannot ruff it (XSkat's "einstechen"); None to
        play on as usual."""
        if TRUMPS[g] >> led & 1 or not RANK_POINTS[led & 7] or legal & FOLLOW[g][led]:
            return None
        trumps = legal & TRUMPS[g]
        if not trumps:
            return None
        low = min(_bits(trumps), key=lambda c: POWER[g][c])
        return low if low & 7 not in (3, 4, 7) else None

    @staticmethod
    def _second_hand(hand: int, legal: int, g: int, led: int) -> int | None:
        """The ``second`` option: the declarer led and my partner plays last, so a card of
        mine that beats the lead takes the trick for us whatever he holds. Taken when he
        led a trump or a card with points, or a small side card of a suit I hold three
        of (XSkat lets a small card go when short in it, and never ruffs one: the partner
        behind may take it cheaply); taken with the most points (a ten or trump ace banked,
        not left to fall later), never with a jack unless only jacks win and the trick
        holds points; None to play on as usual."""
        winning = legal & BEATS[g][led]
        if not winning:
            return None
        if (not TRUMPS[g] >> led & 1 and not RANK_POINTS[led & 7]
                and (hand & FOLLOW[g][led]).bit_count() < 3):
            return None
        bank = [c for c in _bits(winning) if c & 7 != 4]
        if bank:
            return max(bank, key=lambda c: (RANK_POINTS[c & 7], -POWER[g][c]))
        if RANK_POINTS[led & 7] >= 3:
            return min(_bits(winning), key=lambda c: POWER[g][c])
        return None

    @staticmethod
    def _butter(view: SeatView, legal: int, g: int, decl: int) -> int | None:
        """The ``smear`` option: my partner led, the declarer plays last, and I cannot
        follow. When no card still out beats my partner's in the led suit (trumps for a
        trump lead) and the declarer has not shown void in it, the trick is ours: give it
        points: the side card of the most points, an ace only where the declarer is void
        (elsewhere it takes a trick of its own later), never a trump (it would only ruff
        my partner's trick); None to play on as usual."""
        led = view.trick[0]
        group = FOLLOW[g][led]
        trumps = TRUMPS[g]
        if legal & group or view.voids[decl] & group:
            return None  # I follow (no points under a card he may ruff), or he ruffs
        out = view.unknown | (view.open_hand or 0)
        if BEATS[g][led] & out & group:
            return None
        side = legal & ~trumps
        if not side:
            return None
        return _richest_side(side, g, view.voids[decl])  # None: nothing worth giving

    @staticmethod
    def _out_of_schneider(view: SeatView, legal: int, g: int) -> int | None:
        """The ``schneider`` option: the declarer has won (61 or more in his tricks), we hold
        30 or fewer, and he led into my second hand: a card of mine that beats his takes
        the trick for us (my partner plays last), so take it when it lifts us over 30
        (with the most points, a jack last); None to play on as usual."""
        ours = view.points_of(False)
        if ours > 30 or view.points_of(True) < 61:
            return None
        led = view.trick[0]
        winning = legal & BEATS[g][led]
        if not winning:
            return None
        best = max(_bits(winning), key=lambda c: (c & 7 != 4, RANK_POINTS[c & 7]))
        if ours + RANK_POINTS[led & 7] + RANK_POINTS[best & 7] > 30:
            return best
        return None

    @staticmethod
    def _butter_behind(view: SeatView, legal: int, g: int, decl: int) -> int | None:
        """The ``butter`` option: the declarer led, I cannot follow, and a card still out
        beats his (my partner, last, has not shown void in the suit): give the trick a side
        card's points in the hope my partner takes it, as XSkat's defenders do ("buttern");
        the most points, an ace only where the declarer is void; None to play on as usual."""
        led = view.trick[0]
        group = FOLLOW[g][led]
        partner = 3 - view.pos - decl
        if legal & group or view.voids[partner] & group:
            return None
        out = view.unknown | (view.open_hand or 0)
        if not BEATS[g][led] & out & group:
            return None  # his card is the highest: nobody takes it but by a ruff
        side = legal & ~TRUMPS[g]
        if not side:
            return None
        return _richest_side(side, g, view.voids[decl])

    @staticmethod
    def _smear_dead(view: SeatView, legal: int, g: int, decl: int) -> int:
        """The ``dead`` option: a defender smearing his partner's trick in last hand gives
        first a card that can never take a trick, a side card of a suit the declarer has
        shown void in while he may still hold trumps (it falls to his ruff at the end):
        such a card counts 6 points more; no jack, rather no trump, as ``_smear``."""
        trumps = TRUMPS[g]
        dead = view.voids[decl] & ~trumps if not view.voids[decl] & trumps else 0

        def worth(c: int) -> float:
            v = RANK_POINTS[c & 7] - (5 if c & 7 == 4 else 0) - (1 if trumps >> c & 1 else 0)
            return v + (6 if dead >> c & 1 and RANK_POINTS[c & 7] else 0)

        return max(_bits(legal), key=worth)

    @staticmethod
    def _partner_ace_ruffed(view: SeatView, s: int, partner: int) -> bool:
        """The ``novoid`` option: a lead into the declarer's void in suit ``s`` would make
        him ruff my partner's ace: the ace is neither played nor mine, the partner has not
        shown void there, and five or more of the suit are mine or gone (the partner holds
        few, so the ace falls)."""
        ace = 8 * s + 7
        if (view.hand | view.played) >> ace & 1 or view.voids[partner] >> ace & 1:
            return False
        return ((view.hand | view.played) & SUIT_MASKS[s] & ~JACKS).bit_count() > 4

    @staticmethod
    def _karobube(view: SeatView, legal: int, g: int, decl: int) -> int | None:
        """The ``karobube`` option: a defender whose trumps were only the diamond jack and
        one below the ten lays the jack at once (it falls in the second round of trumps
        anyway): as a lead when the declarer plays next, in second hand after the
        declarer's lead."""
        dj = 28  # the diamond jack
        if g >= GameType.GRAND or not legal >> dj & 1:
            return None
        mine = view.hand
        for t in view.tricks:
            for i, c in enumerate(t.cards):
                if (t.leader + i) % 3 == view.pos:
                    mine |= 1 << c
        for i, c in enumerate(view.trick):
            if (view.trick_leader + i) % 3 == view.pos:
                mine |= 1 << c
        trumps = mine & TRUMPS[g]
        if trumps.bit_count() != 2:
            return None
        other = trumps & ~(1 << dj)
        if (other.bit_length() - 1) & 7 in (3, 4, 7):  # a ten, ace or another jack
            return None
        if not view.trick:
            return dj if decl == (view.pos + 1) % 3 else None
        if len(view.trick) == 1 and view.trick_leader == decl:
            return dj
        return None

    def _cheapest_keeping_jacks(self, mask: int, g: int) -> int:
        """The ``defjacks`` option: a defender's cheapest card counts a jack as 5 points, so
        a king or queen goes before it (a jack kept may still take a trick)."""
        power = POWER[g]
        trumps = TRUMPS[g]
        return min(_bits(mask), key=lambda c: (5 if c & 7 == 4 else RANK_POINTS[c & 7],
                                               trumps >> c & 1, power[c]))

    @staticmethod
    def _throw(view: SeatView, legal: int, g: int, decl: int) -> int:
        """A defender's discard when he cannot follow: the ``discards`` option.

        The fewest points, but no trump (it ruffs later), no card guarding a ten (ten and
        one more: alone the ten falls to the ace), rather from a short suit (a void lets him
        ruff) or one the declarer is void in (those cards cannot win a trick).
        """
        trumps = TRUMPS[g]
        power = POWER[g]
        hand = view.hand
        decl_void = view.voids[decl]

        def cost(c: int) -> tuple[float, int]:
            v = float(RANK_POINTS[c & 7])
            if trumps >> c & 1:
                return v + 6.0 + (8.0 if c & 7 == 4 else 0.0), power[c]
            s = c >> 3
            suit = hand & SUIT_MASKS[s] & ~trumps
            n = suit.bit_count()
            ten = 8 * s + 3
            if c != ten and suit >> ten & 1 and not suit >> (8 * s + 7) & 1 and n == 2:
                v += 6.0
            if n == 1:
                v -= 0.5
            if decl_void >> c & 1:
                v -= 0.3
            return v, power[c]

        return min(_bits(legal), key=cost)

    def _lead(self, view: SeatView, legal: int, g: int, outstanding: int, me_decl: bool) -> int:
        trumps = TRUMPS[g]
        power = POWER[g]
        mine = legal & trumps
        if me_decl:
            others_trumps = outstanding & trumps
            if (self.style.cashfirst and g != GameType.GRAND and others_trumps
                    and self._trumps_at_start(view, g) <= CASHFIRST_TRUMPS):
                # ``cashfirst``: with few trumps the side aces go before the trumps are
                # drawn, while the defenders still follow (XSkat)
                cash = self._top_side_cards(legal, g, outstanding)
                if cash:
                    return max(cash, key=lambda c: RANK_POINTS[c & 7])
            if mine and others_trumps:
                top = max(_bits(mine), key=lambda c: power[c])
                if all(power[top] > power[c] for c in _bits(others_trumps)):
                    return top
                n_mine, n_out = mine.bit_count(), others_trumps.bit_count()
                if not self.style.drawing or (n_mine >= 3 or n_mine > n_out
                                              or (n_mine >= 2 and n_out <= 2)):
                    jacks = mine & JACKS
                    if self.style.jacks and jacks and n_out >= 2 and g != GameType.GRAND:
                        # draw with a jack: a small trump lets a defender win cheaply
                        # with a small one of his and his partner smear on it
                        return min(_bits(jacks), key=lambda c: power[c])
                    return min(_bits(mine), key=lambda c: power[c])
                # too few trumps to draw theirs: keep them for control, cash side cards
            cash = self._top_side_cards(legal, g, outstanding)
            if cash:
                return max(cash, key=lambda c: RANK_POINTS[c & 7])
            side = legal & ~trumps
            if side and self.style.giveaway:
                return self._giveaway(side, g)
            if side:
                return self._cheapest(side, g)
            return max(_bits(legal), key=lambda c: power[c])
        # defender: cash side aces the declarer can follow, else a low card of a side suit
        decl = view.declarer if view.declarer is not None else 0
        decl_void = view.voids[decl]
        if self.style.toptrump and len(view.tricks) >= 6 and mine and (
                len(view.tricks) >= 7 or not decl_void & trumps):
            # late in the game the top trump goes first: it draws one of the declarer's
            # last trumps, so the side cards still out cannot be ruffed (XSkat)
            top = max(_bits(mine), key=lambda c: power[c])
            if not any(power[c] > power[top] for c in _bits(outstanding & trumps)):
                return top
        cash = [c for c in self._top_side_cards(legal, g, outstanding)
                if not (decl_void >> c & 1)]
        if cash:
            return max(cash, key=lambda c: RANK_POINTS[c & 7])
        if self.style.leads:
            return self._defender_lead(view, legal, g, decl)
        side = legal & ~trumps
        safe = side & ~decl_void
        if safe:
            return self._cheapest(safe, g)
        if side:
            return self._cheapest(side, g)
        return self._cheapest(legal, g)

    def _defender_lead(self, view: SeatView, legal: int, g: int, decl: int) -> int:
        """A defender's lead when no side card stands: the ``leads`` option.

        - partner void in a side suit and not in trumps, the declarer playing before him:
          a low card of it for the partner to ruff;
        - else the lowest card of a side suit chosen by where the declarer sits: next to
          play ("short way"), the longest suit, so he must guess in front of the partner;
          last ("long way"), the shortest, so the partner can take it cheaply and the
          leader ruffs later; never from a ten guarded by one card only (the ten would
          stand blank), nor a point card when a blank one will do;
        - a suit the declarer has shown void in is led with a card without points (it costs
          him a trump), never with points (he ruffs them in);
        - trumps only when nothing else is left.
        """
        trumps = TRUMPS[g]
        side = legal & ~trumps
        if not side:
            return self._cheapest(legal, g)
        partner = 3 - view.pos - decl
        decl_next = decl == (view.pos + 1) % 3
        decl_void = view.voids[decl]
        if decl_next and not view.voids[partner] & trumps:
            ruff = side & view.voids[partner] & ~decl_void
            if ruff:
                return self._cheapest(ruff, g)
        power = POWER[g]
        best_key: tuple[float, ...] | None = None
        best = -1
        for s, suit, low, n in _low_leads(side, g):
            cost = float(RANK_POINTS[low & 7])
            ten_guard = (suit >> (8 * s + 3) & 1 and not suit >> (8 * s + 7) & 1
                         and n == 2 and low & 7 != 3)
            if ten_guard:
                cost += 8.0
            if decl_void & suit:
                if (self.style.forcing and cost <= 4 and not decl_void & trumps):
                    # a card without much of a point into his void costs him a trump
                    # before a small card of a suit he holds (XSkat's defenders do so)
                    cost -= 8.0
                else:
                    cost += -1.0 if cost == 0 else 20.0
                if self.style.novoid and self._partner_ace_ruffed(view, s, partner):
                    cost += 35.0
            # long suit through a declarer who plays next, short one when he plays last
            # (``grandlong``: in grand always the longest, as XSkat's defenders do)
            long_way = decl_next or (self.style.grandlong and g == GameType.GRAND)
            cost += -0.3 * n if long_way else 0.3 * n
            key = (cost, power[low])
            if best_key is None or key < best_key:
                best_key, best = key, low
        return best if best >= 0 else self._cheapest(side, g)

    def _giveaway(self, side: int, g: int) -> int:
        """The declarer's lead when nothing stands: the ``giveaway`` option.

        The lowest card of a side suit, not the small card beside a ten without its ace (the
        ten would stand blank); in grand from the longest suit (its rest stands once the
        defenders' high cards are out), in a suit game from the shortest (a void to ruff).
        """
        power = POWER[g]
        best_key: tuple[float, int] | None = None
        best = -1
        for s, suit, low, n in _low_leads(side, g):
            cost = float(RANK_POINTS[low & 7])
            ten = 8 * s + 3
            if low != ten and suit >> ten & 1 and not suit >> (8 * s + 7) & 1 and n == 2:
                cost += 4.0
            cost += -0.3 * n if g == GameType.GRAND else 0.3 * n
            key = (cost, power[low])
            if best_key is None or key < best_key:
                best_key, best = key, low
        return best if best >= 0 else self._cheapest(side, g)

    @staticmethod
    def _top_side_cards(legal: int, g: int, outstanding: int) -> list[int]:
        """Side cards no outstanding card of their suit can beat (aces, tens after the ace)."""
        trumps = TRUMPS[g]
        power = POWER[g]
        out = []
        for c in _bits(legal & ~trumps):
            suit = FOLLOW[g][c]
            if all(power[c] > power[o] for o in _bits(outstanding & suit)):
                out.append(c)
        return out

    @staticmethod
    def _sure(winning: int, g: int, outstanding: int) -> bool:
        """Does some winning card also beat everything the last player could lay?"""
        return any(not BEATS[g][c] & outstanding for c in _bits(winning))

    def _cheapest(self, mask: int, g: int) -> int:
        power = POWER[g]
        trumps = TRUMPS[g]
        if self.style.keepjacks:
            # a jack is worth 2 points but is a high trump: give a king (4) rather
            return min(_bits(mask), key=lambda c: (5 if c & 7 == 4 else RANK_POINTS[c & 7],
                                                   trumps >> c & 1, power[c]))
        return min(_bits(mask), key=lambda c: (RANK_POINTS[c & 7], trumps >> c & 1, power[c]))

    @staticmethod
    def _cheapest_winner(mask: int, g: int) -> int:
        power = POWER[g]
        trumps = TRUMPS[g]
        return min(_bits(mask), key=lambda c: (trumps >> c & 1, RANK_POINTS[c & 7], power[c]))

    @staticmethod
    def _smear(mask: int, g: int) -> int:
        """Give the most points, but not a jack or a trump when a side card does as well."""
        trumps = TRUMPS[g]
        return max(_bits(mask), key=lambda c: (RANK_POINTS[c & 7] - (5 if c & 7 == 4 else 0)
                                               - (1 if trumps >> c & 1 else 0)))

    def _null_card(self, view: SeatView, legal: int) -> int:
        g = GameType.NULL
        power = POWER[g]
        trick = view.trick
        me_decl = view.pos == view.declarer
        if not trick:
            if me_decl:
                if self.style.nulllead:
                    d1, d2 = (view.pos + 1) % 3, (view.pos + 2) % 3
                    safe = _null_safe_leads(legal, view.unknown
                                            & ~(view.voids[d1] & view.voids[d2]))
                    if safe:  # under every outstanding card of its suit: keep the lower
                        return max(_bits(safe), key=lambda c: power[c])
                return min(_bits(legal), key=lambda c: power[c])
            decl = view.declarer if view.declarer is not None else 0
            side = legal & ~view.voids[decl]
            return min(_bits(side or legal), key=lambda c: power[c])
        w = 0
        for i in range(1, len(trick)):
            if BEATS[g][trick[w]] >> trick[i] & 1:
                w = i
        under = legal & ~BEATS[g][trick[w]]
        follows = legal & FOLLOW[g][trick[0]]
        if me_decl:
            if self.style.nullplay and not follows:
                forced = _null_forced_suits(legal, view.unknown)
                if forced:  # shed the danger: the top card of a suit they can force
                    return max(_bits(legal & forced), key=lambda c: power[c])
            if under:
                return max(_bits(under), key=lambda c: power[c])  # duck with the highest
            return min(_bits(legal), key=lambda c: power[c])
        if not follows:
            return max(_bits(legal), key=lambda c: power[c])  # discard the highest
        winner_pos = (view.trick_leader + w) % 3
        if winner_pos == view.declarer and under:
            return max(_bits(under), key=lambda c: power[c])  # let him keep it
        return min(_bits(legal), key=lambda c: power[c])

    def _ramsch_card(self, view: SeatView, legal: int) -> int:
        g = GameType.RAMSCH
        power = POWER[g]
        trick = view.trick
        if not trick:
            return min(_bits(legal), key=lambda c: (power[c], RANK_POINTS[c & 7]))
        w = 0
        for i in range(1, len(trick)):
            if BEATS[g][trick[w]] >> trick[i] & 1:
                w = i
        under = legal & ~BEATS[g][trick[w]]
        if under:
            return max(_bits(under), key=lambda c: (RANK_POINTS[c & 7], power[c]))
        return min(_bits(legal), key=lambda c: (RANK_POINTS[c & 7], power[c]))


def win_chance(margin: float) -> float:
    """The chance to win a suit or grand game counted ``margin`` above its safe count.

    Measured on 3000 deals of the 2025 rule players: at margins -2, -1, 0, +1 the suit
    games were won 41 %, 71 %, 92 %, 99 % of the time.
    """
    return 1.0 / (1.0 + math.exp(-1.5 * (margin + 1.75)))


def _ace_over_ten(c: int, g: int, outstanding: int) -> bool:
    """Is ``c`` a side ace whose ten is still out (``aceten``: it is kept to catch it)?"""
    return c & 7 == 7 and not TRUMPS[g] >> c & 1 and bool(outstanding >> ((c & ~7) | 3) & 1)


def _richest_side(side: int, g: int, decl_void: int) -> int | None:
    """The side card of the most points to give a trick (the lowest of equals); an ace
    counts as 2 where the declarer is not void, as it may take a trick of its own later;
    None when none is worth anything."""
    def worth(c: int) -> int:
        if c & 7 == 7 and not decl_void >> c & 1:
            return 2
        return RANK_POINTS[c & 7]

    best = max(_bits(side), key=lambda c: (worth(c), -POWER[g][c]))
    return best if worth(best) > 0 else None


def _null_safe_leads(mine: int, outstanding: int) -> int:
    """The cards of ``mine`` a null declarer can lead without risk: the suit is still out
    (a defender must follow with a higher card) and every outstanding card of it lies
    above the lead (nobody can duck under it).

    >>> from engine.cards import parse_mask, mask_to_str
    >>> mask_to_str(_null_safe_leads(parse_mask("C7 C8 CA S9 H7"), parse_mask("C9 CT S7")))
    'C7 C8'
    """
    out = 0
    for c in _bits(mine):
        suit = outstanding & SUIT_MASKS[c >> 3]
        if suit and not suit & ((1 << c) - 1):
            out |= 1 << c
    return out


def _null_forced_suits(mine: int, outstanding: int) -> int:
    """The cards of ``mine`` in suits where the outstanding cards can force a null declarer
    to take a trick: some outstanding card lies under his card of the same rank order
    (his i-th lowest above their i-th lowest), so a lead of it cannot be ducked.

    >>> from engine.cards import parse_mask, mask_to_str
    >>> mask_to_str(_null_forced_suits(parse_mask("C7 C9 SQ SK"), parse_mask("C8 CT ST")))
    'SQ SK'
    """
    out = 0
    for s in unsafe_suits(mine, outstanding):
        out |= mine & SUIT_MASKS[s]
    return out


def xskat_win_chance(margin: float) -> float:
    """The chance to win a suit game counted ``margin`` above its safe count against
    XSkat's defence (the ``suitchance`` option): measured 30, 54, 78, 91, 99 % at margins
    [-3, -2), [-2, -1), [-1, 0), [0, 1), [1, 2) (7,200 of the rule player's suit games,
    seed 960); ``win_chance`` says 25, 59, 87, 97, 100 %.

    >>> round(xskat_win_chance(-0.5), 2), round(win_chance(-0.5), 2)
    (0.78, 0.87)
    """
    return 1.0 / (1.0 + math.exp(-1.1 * (margin + 1.65)))


def _low_leads(side: int, g: int) -> Iterator[tuple[int, int, int, int]]:
    """(suit index, its cards, its lowest card, its length) of each side suit in ``side``;
    the lowest card is the one with the fewest points, then the least power: the card a
    player leads to give the suit away."""
    power = POWER[g]
    for s in range(4):
        suit = side & SUIT_MASKS[s]
        if suit:
            low = min(_bits(suit), key=lambda c: (RANK_POINTS[c & 7], power[c]))
            yield s, suit, low, suit.bit_count()


def grand_win_chance(margin: float) -> float:
    """The same for grand by ``grand_score``: measured 70 %, 83 %, 89 %, 93 % won at
    margins -1, 0, +1, +2 (3000 deals)."""
    return 1.0 / (1.0 + math.exp(-0.8 * (margin + 2.0)))


# ``twojacks``: a grand with two jacks that ``grand_two_jacks_ok`` refuses was won about
# half the time against XSkat's defence (171 games, seed 960)
TWO_JACKS_CHANCE = 0.5


# ``odds``: a null's chance by ``null_strength`` after its discard, measured on the rule
# player's nulls against XSkat (seeds 975 and 1010, 1,200 nulls): all suits safe (10) won
# 98 %, one unsafe suit with its lowest card the 7 or 8 (8) 68 %, one whose lowest card is
# higher (7) 22 %, two low unsafe suits (6) 33 %, worse about 8 %
NULL_ODDS = {10.0: 0.98, 8.0: 0.68, 7.0: 0.22, 6.0: 0.33}
# ``odds``: a lost game also gives each defender 40 (the duel counts a seat against the
# other two), so it weighs that much more against a won one
LOSS_TO_DEFENDERS = 40


def odds_null_chance(strength: float) -> float:
    """The ``odds`` option's chance of a null of this ``null_strength`` (after the
    discard) against XSkat's defence: ``NULL_ODDS``, 0.08 below 6.

    >>> odds_null_chance(8.0), odds_null_chance(7.0), odds_null_chance(2.0)
    (0.68, 0.22, 0.08)
    """
    return NULL_ODDS.get(strength, 0.98 if strength > 8 else 0.08)


def odds_suit_chance(margin: float) -> float:
    """The ``odds`` option's chance of a suit game counted ``margin`` above safe (after
    the ``xdiscard`` discard, the longest suit played): measured against XSkat (seeds 975
    and 1010, 8,600 games) 16, 35, 56, 74, 89, 99 % at margins -4, -3, -2, -1, 0, +1,
    where ``win_chance`` says 3, 13, 41, 75, 93, 98 %: a poor suit game is won more often
    than the curve said, so it beat a poorer null.

    >>> round(odds_suit_chance(-3.0), 2), round(odds_suit_chance(0.0), 2)
    (0.32, 0.93)
    """
    return 1.0 / (1.0 + math.exp(-1.1 * (margin + 2.3)))


def null_win_chance(margin: float) -> float:
    """The same for null (``null_score`` less 10): all suits safe, one unsafe, more."""
    return 0.99 if margin >= 0 else 0.5 if margin > -6.5 else 0.25


def choose_game(cards: int, bid: int, style: ev.Style | None = None,
                forehand: bool = False, suit_bid: bool = False) -> int:
    """The game type to declare with these 12 (or 10) cards for this bid.

    2025 (``Style.legacy()``): the strongest game whose plain value reaches the bid; when
    none does, the strongest. With ``style.grand``: among the games that reach the bid, the
    best expected Seeger-Fabian score (a rough win chance from the count's margin), so a
    safe grand is preferred to a safer suit game of half its value. ``suit_bid``: the ten
    cards before the pick-up held the bid on their suit or grand count (``nullstop`` then
    declares no null with an unsafe suit left).
    """
    style = style if style is not None else ev.Style()
    ten = cards
    options = []
    for g in range(6):
        if cards.bit_count() <= 10:
            away = 0
        elif style.xdiscard and g < ev.GRAND:
            away = ev.suit_discard(cards, g, style.voids, style.keepaces)
        else:
            away = ev.discard(cards, g, style.voids, style.keepaces and g < ev.NULL)
        ten = cards & ~away
        if g == ev.NULL and style.nullstop and suit_bid and ev.null_unsafe_suits(ten):
            continue  # ``nullstop``: the hand was bid on a suit game, not on this null
        if g == ev.NULL:
            value = 23
            if style.null:
                strength, need = ev.null_score(ten), 10.0
            else:
                strength, need = ev.null_strength(ten), 8.5
        elif g == ev.GRAND and style.grand:
            strength, need = ev.grand_score(ten, forehand, style.grand_loser), ev.GRAND_NEED
            if style.grand3:
                need = ev.grand_need(ten, forehand)
            value = ev.game_value(cards, g)
        else:
            strength, need, value = ev.suit_strength(ten, g), 9.0, ev.game_value(cards, g)
        margin = strength - need
        weak_grand = (g == ev.GRAND and style.twojacks and (ten & JACKS).bit_count() == 2
                      and not ev.grand_two_jacks_ok(ten, forehand))
        if (style.xgrand and g == ev.GRAND and value >= bid and (ten & JACKS).bit_count() >= 3
                and ev.grand_by_length(ten, forehand)):
            # ``xgrand``: three jacks and the long suits or runs XSkat's count asks for
            return g
        if style.grand and g == ev.GRAND and margin >= 0 and value >= bid and not weak_grand:
            # measured: a grand counted safe scores more than the best suit game on the
            # same cards (+6 Seeger-Fabian points per such hand over 4246 hands)
            return g
        if style.grand or style.null:
            if g == ev.NULL and style.nullchance:
                p = ev.NULL_CHANCE[min(len(ev.null_unsafe_suits(ten)), 3)]
            elif g == ev.NULL and style.odds:
                p = odds_null_chance(ev.null_strength(ten))
            elif g == ev.NULL and style.null:
                p = null_win_chance(margin)
            elif weak_grand:
                # two jacks without the aces (``twojacks``)
                p = min(TWO_JACKS_CHANCE, grand_win_chance(margin))
            elif g == ev.GRAND:
                p = grand_win_chance(margin)
            elif style.odds:
                p = odds_suit_chance(margin)
            elif style.suitchance:
                p = xskat_win_chance(margin)
            else:
                p = win_chance(margin)
            lost = 2 * max(value, bid) + 50 + (LOSS_TO_DEFENDERS if style.odds else 0)
            score = p * (value + 50) - (1 - p) * lost
            options.append((value >= bid, score, margin, -g, g))
        else:
            options.append((value >= bid, margin, value, -g, g))
    options.sort(reverse=True)
    best = options[0][-1]
    if style.longtrump and best < ev.GRAND:
        # ``longtrump``: a suit game is played in the longest suit that reaches the bid;
        # the choice of suit game, grand or null stays the count's (restricting the suit
        # games first left a poor suit count that a null beat)
        trump_suit = ev.longest_suit(cards, bid)
        if trump_suit is not None:
            return trump_suit
    return best


__all__ = ["RulePlayer", "choose_game"]
