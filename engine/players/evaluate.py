"""Hand evaluation: how strong is a hand for each contract, and what would it declare?

The numbers are the classic rule-of-thumb counts of Skat players, made precise: trumps and
jacks, aces and guarded tens, and losers in the side suits. They decide the rule player's
bidding, skat and contract, give the PIMC player its bidding limits, and pick the contracts
of the solver benchmark's "biddable deals".

>>> from engine.cards import parse_mask
>>> hand = parse_mask("CJ SJ HJ CA CT CK C9 C8 SA HA")
>>> best = best_contract(hand)
>>> best.game, best.game_value
(0, 48)
>>> suit_strength(hand, 0) > 9
True
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, fields, replace

from engine.cards import JACKS, RANK_POINTS, SUIT_MASKS
from engine.trick import MATADOR_ORDER, TRUMPS
from engine.trick import matadors as trick_matadors

GRAND = 4
NULL = 5
BASE_VALUES = (12, 11, 10, 9, 24)
SKAT_WORTH = 2.5  # what a skat adds to a hand, in strength units (about a trick and a half)
NULL_VALUES = {(False, False): 23, (True, False): 35, (False, True): 46, (True, True): 59}
ACE, TEN, KING, QUEEN, JACK = 7, 3, 6, 5, 4


def trump_mask(game: int) -> int:
    """The trumps of a game type (none in null): the engine's, ``engine.trick.TRUMPS``."""
    return TRUMPS[game]


def matador_order(game: int) -> list[int]:
    """The trumps from the highest down, as engine card indices (the engine's order)."""
    return list(MATADOR_ORDER[game])


def matadors(cards: int, game: int) -> int:
    """'With' (positive) or 'without' (negative) how many: ``engine.trick.matadors``.

    >>> from engine.cards import parse_mask
    >>> matadors(parse_mask("CJ SJ DJ"), 4), matadors(parse_mask("HJ"), 4)
    (2, -2)
    """
    return trick_matadors(cards, game)


def side_mask(game: int) -> int:
    """The cards that are not trump."""
    return 0xFFFFFFFF & ~trump_mask(game)


def suit_strength(hand: int, game: int) -> float:
    """A count of tricks-and-control for a suit or grand game; about 9 makes a safe game.

    Each trump counts 1, the two black jacks a further 0.5 each; each side ace 1, a ten
    guarded by its ace 0.75, a ten with one other card 0.25; a side suit with no ace costs
    0.5 per card beyond the first (losers), a void in a side suit is worth 0.5 with 5 trumps.
    """
    trumps = hand & trump_mask(game)
    n_trumps = trumps.bit_count()
    score = float(n_trumps)
    score += 0.5 * ((hand >> 4) & 1) + 0.5 * ((hand >> 12) & 1)
    for s in range(4):
        if s == game:
            continue
        suit = hand & SUIT_MASKS[s] & ~JACKS
        n = suit.bit_count()
        has_ace = bool(suit >> (8 * s + ACE) & 1)
        has_ten = bool(suit >> (8 * s + TEN) & 1)
        if n == 0:
            score += 0.5 if n_trumps >= 5 else 0.0
            continue
        if has_ace:
            score += 1.0
            if has_ten:
                score += 0.75
        elif has_ten and n >= 2:
            score += 0.25
        if not has_ace:
            score -= 0.5 * (n - 1) if game < GRAND else 0.6 * n
    if game == GRAND:
        # In grand the jacks are all the trumps: without two of them nothing works.
        jacks = (hand & JACKS).bit_count()
        score += 1.0 * jacks - (2.0 if jacks < 2 else 0.0)
    return score


def null_strength(hand: int) -> float:
    """How safe a hand is for null: 10 is a sure null, below about 8.5 it loses.

    A suit is safe when its low cards can always duck: the lowest is the 7, the next at most
    the 9, the next at most the jack (each card no more than two ranks above the previous
    one in null order). A suit that breaks this costs 2, or 3 when its lowest card is above
    the 8 (the opponents can lead under it at once).
    """
    score = 10.0
    for s in range(4):
        ranks = [r for r in range(8) if hand >> (8 * s + r) & 1]  # null order is rank order
        if any(r > 2 * k for k, r in enumerate(ranks)):
            score -= 3.0 if ranks[0] > 1 else 2.0
    return score


@dataclass(frozen=True)
class Estimate:
    """A contract worth considering: its game type, strength and value if played plainly."""

    game: int
    strength: float
    game_value: int
    hand: bool = False

    @property
    def safe(self) -> bool:
        return self.strength >= (9.0 if self.game < NULL else 8.5)


def game_value(cards: int, game: int, hand: bool = False) -> int:
    """The plain value of a suit or grand game (no schneider) on these cards (12 with skat)."""
    if game == NULL:
        return NULL_VALUES[(hand, False)]
    m = abs(matadors(cards, game))
    return BASE_VALUES[game] * (m + 1 + (1 if hand else 0))


def estimates(hand: int) -> list[Estimate]:
    """Every game type scored for a 10-card hand, strongest first."""
    out = [Estimate(g, suit_strength(hand, g), game_value(hand, g)) for g in range(5)]
    out.append(Estimate(NULL, null_strength(hand), NULL_VALUES[(False, False)]))
    out.sort(key=lambda e: (e.strength - (0.0 if e.game < NULL else 0.5), e.game_value),
             reverse=True)
    return out


def best_contract(hand: int) -> Estimate:
    """The contract the hand would most like to play."""
    return estimates(hand)[0]


def bid_limit(hand: int, bonus: float = 0.0) -> int:
    """The highest bid this hand should hold (0 to pass): the best value among safe games.

    The skat is expected to add about SKAT_WORTH strength, so a game a little below safe
    is still bid; ``bonus`` shifts the boldness.
    """
    best = 0
    for e in estimates(hand):
        need = 9.0 if e.game < NULL else 8.5
        if e.strength + SKAT_WORTH + bonus >= need:
            best = max(best, e.game_value)
    return best


def discard(cards: int, game: int, voids: bool = False, keep_aces: bool = False) -> int:
    """The cards to put away (a mask) so that ten remain, for the game type declared.

    Suit and grand: put away points the opponents could catch (tens without the ace, kings
    and queens of short suits), make a side suit void where possible, keep the trumps.
    Null: keep the suits whose low cards can always duck. With ``voids`` (the ``Style``
    option) a side suit emptied counts a further ``VOID_WORTH``: a blank card is a loser
    the count did not see (the defenders lead it when they like), a void lets him ruff.
    With ``keep_aces`` (the ``keepaces`` option) a side ace and the ten beside it stay
    while other side cards can go: each takes a trick with its points (the count put away
    a blank ace for a void and its 11 points, XSkat keeps them and wins more such games).

    >>> from engine.cards import parse_mask, mask_to_str
    >>> twelve = parse_mask("C9 CJ CK CA S8 S9 ST SQ H7 H9 HA DA")
    >>> mask_to_str(discard(twelve, 1, True)), mask_to_str(discard(twelve, 1, True, True))
    ('CK DA', 'C9 CK')
    """
    n = cards.bit_count() - 10
    if n <= 0:
        return 0
    if game == NULL:
        return _best_set(cards, [c for c in range(32) if cards >> c & 1], n, null_strength)
    trumps = trump_mask(game)
    side = [c for c in range(32) if cards >> c & 1 and not (trumps >> c & 1)]
    if len(side) < n:  # nearly all trumps: put away the lowest trumps as well
        order = matador_order(game)
        rest = sorted((c for c in range(32) if cards >> c & 1 and trumps >> c & 1),
                      key=order.index, reverse=True)
        side += rest[: n - len(side)]
    if keep_aces:
        kept = [c for c in side if not _ace_or_guarded_ten(cards, c)]
        if len(kept) >= n:
            side = kept
    if voids:
        return _best_set(cards, side, n, lambda m: suit_strength(m, game)
                         + VOID_WORTH * _side_voids(m, game))
    return _best_set(cards, side, n, lambda m: suit_strength(m, game))


VOID_WORTH = 0.75

# ``xdiscard``: the rules of a suit game's discard, tried in this order on the side suits
# (diamonds first); each is (cards in the suit, cards to put away, what the suit holds).
# The cards go from the top down but never the ace (T K Q 9 8 7): a ten that the ace
# does not guard is banked, short suits are emptied so that the declarer can ruff.
_T, _K, _Q, _A = TEN, KING, QUEEN, ACE
_DISCARD_FIRST = (
    (1, 1, lambda r: _T in r), (2, 1, lambda r: _T in r and (_Q in r or min(r) < _T)),
    (1, 1, lambda r: _K in r), (2, 2, lambda r: _K in r and _Q in r),
    (1, 1, lambda r: _Q in r), (2, 2, lambda r: _K in r and min(r) < _T),
    (2, 2, lambda r: _Q in r and min(r) < _T), (2, 2, lambda r: _T in r and _K in r),
    (1, 1, lambda r: max(r) < _T), (2, 2, lambda r: max(r) < _T),
    (2, 1, lambda r: _A in r and _K in r), (2, 1, lambda r: _A in r and _Q in r),
    (2, 1, lambda r: _A in r and min(r) < _T),
)
_DISCARD_SECOND = (
    (1, 1, lambda r: _T in r), (2, 1, lambda r: _T in r and (_Q in r or min(r) < _T)),
    (1, 1, lambda r: _K in r), (1, 1, lambda r: _Q in r), (1, 1, lambda r: max(r) < _T),
    (2, 1, lambda r: _K in r and min(r) < _T), (2, 1, lambda r: _Q in r and min(r) < _T),
    (2, 1, lambda r: _K in r and _Q in r), (2, 1, lambda r: max(r) < _T),
    (2, 1, lambda r: _A in r and _K in r), (2, 1, lambda r: _A in r and _Q in r),
    (2, 1, lambda r: _A in r and min(r) < _T), (2, 1, lambda r: _T in r and _K in r),
)
_AWAY_ORDER = (TEN, KING, QUEEN, 2, 1, 0)  # never the ace


def suit_discard(cards: int, game: int, voids: bool = True, keep_aces: bool = True) -> int:
    """The two cards (a mask) a suit-game declarer puts away by the ``xdiscard`` rules:
    the first rule of ``_DISCARD_FIRST`` (then ``_DISCARD_SECOND`` for the second card)
    that a side suit meets, diamonds first; then the longer suits of the fewest points,
    two cards from the top but no ace; ``discard`` for what is still missing.

    >>> from engine.cards import parse_mask, mask_to_str
    >>> mask_to_str(suit_discard(parse_mask("C7 CT CJ CQ CA S8 S9 SJ SK H8 HT DK"), 0))
    'HT DK'
    >>> mask_to_str(suit_discard(parse_mask("C8 CT CK SQ SA HK HA D9 DJ DQ DK DA"), 3))
    'SQ HK'
    """
    n = cards.bit_count() - 10
    if n <= 0:
        return 0
    side = cards & ~trump_mask(game)
    away = 0

    def ranks(s: int) -> list[int]:
        return [r for r in range(8) if r != JACK and (side & ~away) >> (8 * s + r) & 1]

    def put(s: int, k: int) -> None:
        nonlocal away
        for r in _AWAY_ORDER:
            if k and (side & ~away) >> (8 * s + r) & 1 and away.bit_count() < n:
                away |= 1 << (8 * s + r)
                k -= 1

    while away.bit_count() < n:
        rules = _DISCARD_FIRST if not away else _DISCARD_SECOND
        done = False
        for length, k, holds in rules:
            for s in (3, 2, 1, 0):
                r = ranks(s)
                if s != game and len(r) == length and holds(r):
                    put(s, k)
                    done = True
                    break
            if done:
                break
        if not done:
            break
    for length in range(3, 8):
        by_points = sorted((s for s in range(4) if s != game),
                           key=lambda s: sum(RANK_POINTS[r] for r in ranks(s)))
        for s in by_points:
            r = ranks(s)
            if len(r) == length and away.bit_count() < n and not (_A in r and _T in r):
                put(s, 2)
    if away.bit_count() < n:
        away |= discard(cards & ~away, game, voids, keep_aces)
    return away


def _ace_or_guarded_ten(cards: int, c: int) -> bool:
    """Is card ``c`` an ace, or a ten whose ace is among ``cards`` (``keep_aces``)?"""
    rank = c & 7
    return rank == ACE or (rank == TEN and bool(cards >> ((c & ~7) | ACE) & 1))


def _side_voids(hand: int, game: int) -> int:
    """How many side suits (not the trump suit) ``hand`` holds no card of."""
    return sum(1 for s in range(4) if s != game and not hand & SUIT_MASKS[s] & ~JACKS)


def _best_set(cards: int, candidates: list[int], n: int, score_of: Callable[[int], float]) -> int:
    best_mask, best_score = 0, 0.0
    groups: list[tuple[int, ...]]
    if n == 1:
        groups = [(a,) for a in candidates]
    else:
        groups = [(a, b) for i, a in enumerate(candidates) for b in candidates[i + 1:]]
    for group in groups:
        m = 0
        for c in group:
            m |= 1 << c
        # points put away count for the declarer: a small bonus breaks ties toward them
        score = score_of(cards & ~m) + 0.04 * sum(RANK_POINTS[c & 7] for c in group)
        if not best_mask or score > best_score:
            best_mask, best_score = m, score
    return best_mask


# ---------------------------------------------------------------------------------------------
# The 2026 evaluation: what the independent measurement showed the 2025 one lacked. Each part
# is an option of :class:`Style`, so the old behaviour stays playable (``Style.legacy()``)
# and each option's contribution can be measured (``skat-table duel``).


@dataclass(frozen=True)
class Style:
    """Which improvements of the rule player are on. The defaults are the ones measured to
    gain (docs/players.md, "What was learned"); ``Style.legacy()`` is the 2025 player (all
    off).

    - ``grand``: grand by a count of jacks, standing side cards and losers (``grand_score``),
      bid and declared when it counts safe; otherwise, after the pick-up, the game of the best
      expected Seeger-Fabian score (a win chance from each count's margin, measured);
    - ``null`` (off by default): null counted safe only when every suit is
      (``null_unsafe_suits``), bid only when at most two cards are in unsafe suits; chosen
      by expected score, never as a hand game by the rule player;
    - ``bidding`` (off by default): bid only the level the hand keeps whatever the skat
      holds (``held_level``: a hand "without two" or more may find a missing jack there);
    - ``defence`` (off by default): a defender takes a trick its partner sits behind, and
      gives points to a partner whose card the declarer cannot beat;
    - ``play``: the second hand takes a trick with a card the third can beat only by ruffing,
      unless that player has shown void in the led suit (the 2025 player feared every ruff).
    - ``leads``: a defender's lead by where the declarer sits (long suit through him, short
      suit up to him), a low card for the partner to ruff, never from a ten guarded once,
      low cards into the declarer's void (it costs him a trump), never points into it.
    - ``drawing``: the declarer draws trumps only with three or more, more than the
      defenders hold, or two against at most two; else he keeps them and cashes side cards.
    - ``discards``: a defender who cannot follow throws the fewest points but keeps his
      trumps and the guard of a ten, rather from a short suit or one the declarer is void in.
    - ``voids``: the declarer's discard values an emptied side suit (``discard(voids=True)``),
      as experts put away a blank card or a short suit rather than points from a long one.
    - ``banking``: a player who takes a trick takes it with his card of the most points but
      no jack (a trump ace or ten kept back may fall to a jack later): the last hand with
      any winning card, the second hand only with one the third hand cannot beat.
    - ``jacks``: a declarer drawing trumps without the top one leads his lowest jack rather
      than his lowest trump (in a suit game, while the defenders hold two trumps or more).
    - ``losers``: in the grand count a side-suit loser costs a full trick, not half (against
      XSkat's defence the grands our count called safe were lost a fifth of the time).
    - ``keepjacks``: a card given away counts a jack as 5 points, not 2: a king or queen
      goes before a jack (the 2025 player threw a jack under a higher one as its cheapest).
    - ``giveaway``: a declarer with nothing standing to lead gives the lowest card of his
      longest side suit in grand, of his shortest in a suit game, never the small card beside
      a ten without its ace.
    - ``careful``: the bidding counts the skat a trick less (``bonus`` -1 of
      ``styled_bid_limit``); ``bold`` half a trick more (``bonus`` +0.5).
    - ``ace``: a defender whose partner led a small side card, the declarer to play last and
      not void in it, puts his ace of that suit on.
    - ``nullsafe``: null is bid only when at most one card spoils it (``null_fixes``: the
      skat then makes it safe about three times in four);
    - ``nullchance``: after the pick-up a null is given the chance measured for the unsafe
      suits left after the discard (``NULL_CHANCE``: 0, 1, 2, 3 unsafe suits won about 99,
      45, 30, 5 %), not the suit games' curve (which counted one unsafe suit 87 %).
    - ``nullplay``: a null declarer who cannot follow throws the highest card of a suit the
      outstanding cards can still force him in, not his highest card of any suit.
    - ``nulllead``: a null declarer leads the highest of his cards that lie under every
      outstanding card of their suit (keeping the lower ones), not simply his lowest card.
    - ``suitchance``: the contract choice gives a suit game the win chance measured
      against XSkat's defence (``xskat_win_chance``), lower than the rule players' own
      curve at the top (78 % at margin -0.5, not 87 %).
    - ``twojacks``: a grand with only two jacks is bid and declared only with three aces
      and a ten, or with the club jack in forehand and four standing side cards
      (``grand_two_jacks_ok``): against XSkat's defence the others were won half the time.
    - ``granddiscard``: once grand is declared, its discard is chosen by the grand count
      (``grand_discard``): a ten without its ace and a short suit's losers go, an ace stays
      (the 2025 count kept a blank ten and put away an ace with its king to empty a suit).
      The contract choice still counts the cards of the 2025 discard (counting the better
      discard there declared more grands, and lost: lab/experiments.csv, rule+granddiscard
      vs rule).
    - defence options (docs/players.md, "What was learned", defence; ``noruff`` and
      ``smear`` on, the others measured and off): ``defjacks`` (a
      defender gives a king or queen before a jack), ``karobube`` (the diamond jack held
      with one small trump is played at once), ``noruff`` (the last hand does not ruff the
      declarer's trick without points), ``takeall`` (the last hand takes a pointless trick
      with its card of the most points), ``second`` (the second hand takes the declarer's
      lead with its card of the most points: the partner plays last), ``smear`` (points on
      the partner's lead that nothing out beats, when void), ``dead`` (the last hand smears
      a card of a suit the declarer is void in first), ``novoid`` (no lead into the
      declarer's void that would make him ruff the partner's ace), ``butter`` (points on
      the declarer's lead that the partner may beat, when void), ``schneider`` (the second
      hand takes the declarer's lead when that lifts the defenders over 30 in a lost game).
    - ``longtrump``: after the pick-up, when the contract choice takes a suit game, it is
      played in the longest suit that reaches the bid, of equal ones the one of fewer card
      points (``longest_suit``); the count alone took a shorter suit with an ace in it,
      and lost those games more often. (Restricting the suit games to that suit before
      the choice let a poor count of it lose to a null: the null is compared with the
      best suit game as without the option.)
    - ``grand3``: after the pick-up a grand with three jacks (the club jack among them, or
      in forehand) or four counts safe from ``GRAND3_NEED``, not ``GRAND_NEED``
      (``grand_need``): such grands were won over 90 % against XSkat's defence.
    - ``nullstop``: after the pick-up no null with an unsafe suit left when the ten cards
      before it held the bid on a suit or grand count (the nulls from suit bids whose skat
      did not fit were lost about half the time; the suit game there did better).
    - ``keepaces``: the discard of a suit game or grand keeps the side aces and the tens
      beside them (``discard(keep_aces=True)``), for the contract choice too.
    - ``risk``: a bid above 18 needs half a trick more on the count than a safe game (the
      rule player's ``RulePlayer.bid_limit``; ``styled_bid_limit`` itself is unchanged);
    - ``bid18``: a hand whose best suit game counts up to a trick short of safe still opens
      the bidding with 18 when nobody has bid (and goes no higher, and never holds): when
      nobody else bids, such a game is won most times; against another bid it lost.
    - ``grandhand``: a grand is declared hand when the ten cards make one by the jacks and
      the long suits (``grand_by_length`` 2: three jacks with the club jack or the lead and
      a long suit, four aces with tens, ...), as XSkat does: the hand level is worth a
      game level, and XSkat won such grands 91-100 %; the rule player won them less often
      than with the skat and lost by it (docs/players.md, "What was learned", third round).
    - ``xgrand``: after the pick-up a grand is declared when the ten cards left after the
      grand's discard hold three jacks or four and ``grand_by_length`` makes a grand of
      them (where XSkat played grand and the rule player a suit game on such cards,
      XSkat won nearly all and scored 17 to 60 more a game).
    - ``xdiscard``: a suit game's discard by a list of rules (``suit_discard``): a blank
      ten, a ten beside one small card, a blank king, king and queen, ... and never an ace
      (where the rule player's discard differed from XSkat's on the same contract, it won
      79 % against 82 %).
    - ``xgdiscard``: once grand is declared, its discard by the same rules with the
      longest side suit kept whole, as if it were trump (``suit_discard`` with
      ``longest_suit``); the contract choice still counts the usual discard.
    - defence options of the third round (docs/players.md, "What was learned", third round;
      ``forcing`` and ``toptrump`` on, the others measured and off):
      ``forcing`` (a defender leads a king, queen or small card into the declarer's void
      before a small card of a suit he holds: it costs him a trump), ``overtake`` (the
      second hand takes the declarer's trump lead with its trump of the most points, a
      jack last), ``ruffpoints`` (the second hand, void in its partner's lead of an ace,
      ten, king or queen, ruffs it with a small trump before the declarer can),
      ``grandlong`` (against a grand a defender with nothing to cash leads a small card of
      his longest suit wherever the declarer sits), ``toptrump`` (from the seventh trick
      a defender holding the highest trump still out leads it before his side cards).
    - options of the fourth round (docs/players.md, "What was learned", fourth round;
      ``odds`` and ``aceten`` on, the others measured and off): ``xbid`` (a suit
      game without the club jack is bid only to twice its base value, as XSkat bids: the
      rule player's games "without 2" and more bid above 23 were won half the time and
      cost 46 points each); ``odds`` (after the pick-up the contract choice weighs the
      null by the chance measured for its ``null_strength`` after the discard and a suit
      game by the curve measured against XSkat's defence, ``rule.odds_null_chance`` and
      ``rule.odds_suit_chance``, and a lost game costs the 40 each defender gains as
      well: nulls with an unsafe suit were counted 87 % and won 68 %, or counted 59 % and
      won 22 %); ``aceten`` (the declarer keeps a side ace while its ten is out: he takes
      a trick with a lower card that wins as surely, and in second hand follows a
      defender's small lead low, not with the ace); ``ruff`` (the declarer in second
      hand, void in a defender's side lead, ruffs in a suit game with the trump of the
      most points below the ten, not the ace or ten, when he ruffs); ``defaceten`` (a
      defender taking a trick keeps a side ace while its ten is out, as ``aceten`` does
      for the declarer).
    - options of the fifth round (docs/players.md, "What was learned", fifth round;
      ``shed`` on, the others measured and off): ``shed`` (the declarer, void in
      a defender's side lead that holds no points, in last hand at most 4, throws a
      blank small card of another suit that cannot win instead of ruffing: a trump kept
      and one more void; XSkat's declarer does so); ``last18`` (forehand, the other two
      passed, plays a suit game counted up to ``rule.LAST18_SHORT`` short of safe rather
      than let the game be passed in); ``bolder`` (the bidding counts the skat a further
      ``rule.BOLDER`` above ``bold``); ``cashfirst`` (a suit-game declarer who began the
      play with at most ``rule.CASHFIRST_TRUMPS`` trumps cashes his standing side cards
      before he draws trumps, as XSkat does).
    - ``xbid3`` (off; PIMC's harness ``pimc+xbid3``): ``xbid`` for the weakest trumps
      only: a suit game "without 3" or more (no club, spade or heart jack among the ten
      cards) is bid only to twice its base value, "without 2" to its count as before
      (PIMC's suit games "without 3" or more bid above twice the base value were won
      55 % against XSkat, -12 points a game; paired against ``pimc`` it measured -0.90
      [-2.26, +0.49] a seat, so it stays off: docs/players.md, "What was learned").
    - ``clubbid``: bid as a club player would accept (``club_level``): a suit game from ten
      cards without a jack only with the trumps to carry it (``JACKLESS_TRUMPS``), to twice
      its base value with five and three times with six or more; a game "without 3" or
      more to three times its base value (the skat holds a missing higher jack one time in
      four, and the game then drops to "with 1" or "without 1").

    >>> Style.legacy().grand, Style().without("grand").grand, Style().without("grand").play
    (False, False, True)
    """

    grand: bool = True
    null: bool = False
    bidding: bool = False
    defence: bool = False
    play: bool = True
    leads: bool = True
    drawing: bool = True
    discards: bool = True
    voids: bool = True
    banking: bool = True
    jacks: bool = False
    losers: bool = False
    keepjacks: bool = False
    giveaway: bool = False
    careful: bool = False
    bold: bool = True
    ace: bool = False
    nullsafe: bool = False
    nullchance: bool = False
    nullplay: bool = True
    nulllead: bool = False
    suitchance: bool = False
    twojacks: bool = True
    granddiscard: bool = False
    defjacks: bool = False
    karobube: bool = False
    noruff: bool = True
    takeall: bool = False
    second: bool = False
    smear: bool = True
    dead: bool = False
    novoid: bool = False
    butter: bool = False
    schneider: bool = False
    longtrump: bool = True
    grand3: bool = False
    nullstop: bool = False
    keepaces: bool = True
    risk: bool = False
    bid18: bool = False
    grandhand: bool = False
    forcing: bool = True
    overtake: bool = False
    ruffpoints: bool = False
    grandlong: bool = False
    toptrump: bool = True
    xgrand: bool = True
    xdiscard: bool = True
    xgdiscard: bool = True
    xbid: bool = False
    odds: bool = True
    aceten: bool = True
    ruff: bool = False
    defaceten: bool = False
    last18: bool = False
    bolder: bool = False
    shed: bool = True
    cashfirst: bool = False
    xbid3: bool = False
    clubbid: bool = True

    @property
    def grand_loser(self) -> float:
        """What a side-suit loser costs in the grand count (``losers`` doubles it)."""
        return 1.0 if self.losers else 0.5

    @classmethod
    def legacy(cls) -> Style:
        """The 2025 rule player: every option off."""
        return cls(**{name: False for name in cls.option_names()})

    @classmethod
    def option_names(cls) -> tuple[str, ...]:
        return tuple(f.name for f in fields(cls))

    def without(self, name: str) -> Style:
        """This style with one option off (an ablation)."""
        return self._set(name, False)

    def with_(self, name: str) -> Style:
        """This style with one option on."""
        return self._set(name, True)

    def _set(self, name: str, on: bool) -> Style:
        if name not in self.option_names():
            raise ValueError(f"unknown rule-player option {name!r}: "
                             f"use one of {', '.join(self.option_names())}")
        return replace(self, **{name: on})


NULL_ORDER_RANKS = range(8)  # null order is rank order: 7 8 9 T J Q K A


def null_unsafe_suits(hand: int) -> list[int]:
    """The suits of ``hand`` the opponents can force a null declarer to win a trick in.

    A suit is safe when its lowest card is the 7 and each further card is at most two ranks
    above the one before (7 9 J K is safe; 7 T, or a blank 8, is not).

    >>> from engine.cards import parse_mask
    >>> null_unsafe_suits(parse_mask("C7 C9 CJ S8 H7 HT DA"))
    [1, 2, 3]
    """
    out = []
    for s in range(4):
        ranks = [r for r in NULL_ORDER_RANKS if hand >> (8 * s + r) & 1]
        if any(r > 2 * k for k, r in enumerate(ranks)):
            out.append(s)
    return out


def null_unsafe_cards(hand: int) -> int:
    """How many cards lie in the unsafe suits (what a discard would have to remove)."""
    return sum((hand & SUIT_MASKS[s]).bit_count() for s in null_unsafe_suits(hand))


def null_fixes(hand: int) -> int:
    """How many cards must go before every suit of ``hand`` is safe for null.

    In each suit the cards above the longest safe run from the bottom (the 7, then each
    card at most two ranks above the one before) must go: removing a low card would only
    leave the higher ones more exposed.

    >>> from engine.cards import parse_mask
    >>> null_fixes(parse_mask("C7 C9 CJ S7 S8 ST SA H8 D7 D9"))
    2
    """
    out = 0
    for s in range(4):
        ranks = [r for r in NULL_ORDER_RANKS if hand >> (8 * s + r) & 1]
        k = 0
        while k < len(ranks) and ranks[k] <= 2 * k:
            k += 1
        out += len(ranks) - k
    return out


# ``nullchance``: a null's chance by the unsafe suits left after the discard (0, 1, 2, 3+),
# measured on the rule player's nulls against XSkat's defence (307 nulls, seed 960)
NULL_CHANCE = (0.99, 0.45, 0.30, 0.05)


def null_score(hand: int) -> float:
    """The 2026 null score of ten cards: 10 when every suit is safe, 3 less per unsafe suit
    and 0.5 less per card in it; a void is worth a little (nothing can be forced in it)."""
    score = 10.0
    for s in null_unsafe_suits(hand):
        score -= 3.0 + 0.5 * (hand & SUIT_MASKS[s]).bit_count()
    score += 0.1 * sum(1 for s in range(4) if not hand & SUIT_MASKS[s])
    return score


def null_biddable(hand: int, forehand: bool = False) -> bool:
    """Is a null worth bidding with these ten cards? Every suit safe, or the unsafe ones
    small enough to discard (at most two cards, as the skat may bring more); in forehand the
    declarer leads, so he needs a suit whose lowest card is the 7."""
    if null_unsafe_cards(hand) > 2:
        return False
    return not forehand or any(hand >> (8 * s) & 1 for s in range(4))


def _standing(hand: int, s: int, grand: bool) -> tuple[int, int]:
    """(standing cards, losers) of side suit ``s``: the run from the ace down (A T K Q 9 8 7
    in side-suit order), all of a long suit headed by ace and ten."""
    order = (ACE, TEN, KING, QUEEN, 2, 1, 0)  # A T K Q 9 8 7 (the jack is a trump)
    cards = [r for r in order if hand >> (8 * s + r) & 1]
    n = len(cards)
    run = 0
    for want, have in zip(order, cards, strict=False):
        if want != have:
            break
        run += 1
    if run >= 2 and n >= 5:
        run = n  # A T and four more: the other 2 cards of the suit fall under ace and ten
    elif run >= 3 and n >= 4:
        run = n
    return run, n - run


GRAND_JACK_WORTH = {4: 2.5, 12: 2.0, 20: 1.75, 28: 1.5}  # CJ SJ HJ DJ


def grand_score(hand: int, forehand: bool = False, loser: float = 0.5) -> float:
    """The 2026 grand count of ten cards (the lead is worth 0.5).

    Jacks (the club jack most), standing side cards 1 each (ace, ace-ten, a long suit
    headed by them); a ten that can be caught costs 1.5 (its points go to the defenders),
    other losers 0.5; fewer than two jacks, or two without the club jack, rarely win.
    ``GRAND_NEED`` (6.0): from there a grand scored more than the best suit game on the
    same cards (4246 hands played both ways by the rule players).

    >>> from engine.cards import parse_mask
    >>> grand_score(parse_mask("CJ SJ HJ DJ CA CT CK C9 C8 S7")) >= GRAND_NEED
    True
    >>> grand_score(parse_mask("CJ DJ CA ST S9 HA H9 H8 DK D8")) < GRAND_NEED
    True
    """
    score = sum(w for c, w in GRAND_JACK_WORTH.items() if hand >> c & 1)
    jacks = (hand & JACKS).bit_count()
    if jacks < 2:
        score -= 10.0  # measured: grand with fewer than two jacks is lost far more than won
    elif jacks == 2 and not hand >> 4 & 1:
        score -= 1.0
    for s in range(4):
        run, losers = _standing(hand, s, True)
        score += run
        ten_loose = hand >> (8 * s + TEN) & 1 and not hand >> (8 * s + ACE) & 1
        score -= 1.5 * ten_loose + loser * (losers - ten_loose)
    return score + (0.5 if forehand else 0.0)


GRAND_NEED = 6.0


def grand_two_jacks_ok(hand: int, forehand: bool = False) -> bool:
    """May ten cards with two jacks be played as grand (the ``twojacks`` option)?

    With two jacks the defenders hold the other two, ruff the aces and catch the tens:
    only three aces and a ten, or the club jack in forehand (he leads) with four standing
    side cards, make it. Measured on the rule player's two-jack grands against XSkat's
    defence (seed 960): 137 such were won 89 %, the 171 others 51 %. Hands with three or
    four jacks always may.

    >>> from engine.cards import parse_mask
    >>> grand_two_jacks_ok(parse_mask("CJ SJ CA CT SA HA H9 D7 D8 D9"))
    True
    >>> grand_two_jacks_ok(parse_mask("SJ HJ CA CT CK SA ST S9 H7 D7"))
    False
    """
    jacks = (hand & JACKS).bit_count()
    if jacks != 2:
        return jacks > 2
    aces = sum(hand >> (8 * s + ACE) & 1 for s in range(4))
    tens = sum(hand >> (8 * s + TEN) & 1 for s in range(4))
    if aces >= 3 and tens:
        return True
    standing = sum(_standing(hand, s, True)[0] for s in range(4))
    return forehand and bool(hand >> 4 & 1) and standing >= 4


# ``grand3``: what a grand with three jacks (the club jack, or in forehand) or four needs
# on ``grand_score`` after the pick-up: XSkat declared and won such grands from there
GRAND3_NEED = 4.0


def grand_need(hand: int, forehand: bool = False) -> float:
    """The ``grand_score`` from which ten cards count a safe grand under ``grand3``: with
    three jacks (the club jack, or in forehand) or four, and tricks to take: the jacks
    and the standing side cards five or more, or a long side suit (five cards with the
    ace or ten, four with both). Measured on the rule player's grands against XSkat
    (seed 975): such grands counted 4 to 6 were won 86 to 100 %, the others about 45 %.

    >>> from engine.cards import parse_mask
    >>> grand_need(parse_mask("CJ SJ HJ CA CT C9 C8 S7 H7 D7")), GRAND_NEED
    (4.0, 6.0)
    >>> grand_need(parse_mask("CJ SJ HJ CA CK C9 S7 S8 H7 D7"))  # a trick short
    6.0
    >>> grand_need(parse_mask("SJ HJ DJ CA CT C9 C8 S7 H7 D7"))  # no club jack, not leading
    6.0
    """
    jacks = (hand & JACKS).bit_count()
    if not (jacks == 4 or (jacks == 3 and (forehand or hand >> 4 & 1))):
        return GRAND_NEED
    standing = sum(_standing(hand, s, True)[0] for s in range(4))
    long_suit = False
    for s in range(4):
        suit = hand & SUIT_MASKS[s] & ~JACKS
        ace, ten = suit >> (8 * s + ACE) & 1, suit >> (8 * s + TEN) & 1
        n = suit.bit_count()
        long_suit = long_suit or (n >= 5 and bool(ace or ten)) or (n >= 4 and bool(ace and ten))
    return GRAND3_NEED if jacks + standing >= 5 or long_suit else GRAND_NEED


def top_run(hand: int, s: int) -> int:
    """How many cards of side suit ``s`` take tricks in grand, counted from the ace down
    (A T K Q 9 8 7): a card the hand lacks ends the run unless the defenders hold too few
    of the suit to have a card below it left (with A T and three small of seven, the king
    and queen out fall under the ace and ten).

    >>> from engine.cards import parse_mask
    >>> top_run(parse_mask("CA CT C9 C8 C7"), 0), top_run(parse_mask("CA CT CK"), 0)
    (5, 3)
    >>> top_run(parse_mask("CA CK C9"), 0), top_run(parse_mask("CT C9 C8 C7 CQ"), 0)
    (1, 0)
    """
    order = (ACE, TEN, KING, QUEEN, 2, 1, 0)  # A T K Q 9 8 7
    n = sum(hand >> (8 * s + r) & 1 for r in order)
    run = 0
    for place, r in enumerate(order):
        if hand >> (8 * s + r) & 1:
            run += 1
        elif 7 - n > place + (1 if place >= 4 else 0):
            # the jack is the fifth place of the suit's natural order (A T K Q J 9 8 7)
            break
    return run


def grand_by_length(hand: int, forehand: bool = False) -> int:
    """A grand by the jacks, the aces and the long suits of ten cards, the way XSkat counts
    it (rewritten from its rules, not its code): 0 no grand, 1 a grand with the skat,
    2 a grand worth playing hand.

    Four aces and tens, or three aces and a ten with two jacks, make a grand; otherwise it
    needs three jacks (or two with the club jack and the lead), and then the jacks and the
    top runs (``top_run``) six, or four jacks and a suit of five (four with the ace or
    ten), or three jacks with the club jack or the lead and a long suit (five with the ace
    or ten, four with both); a hand with the club jack whose jacks and runs make five
    plays it with the skat. Not hand with a blank ten (it falls to the first ace) or with
    two jacks out of the lead.

    >>> from engine.cards import parse_mask
    >>> grand_by_length(parse_mask("CJ SJ HJ CA CT C9 C8 SA H7 D7"))
    2
    >>> grand_by_length(parse_mask("CJ SJ HJ CA CK C9 C8 ST H7 D7"))  # a blank ten
    0
    >>> grand_by_length(parse_mask("SJ HJ CA CK C9 S8 S7 H7 D7 D8"))
    0
    """
    jacks = (hand & JACKS).bit_count()
    club = bool(hand >> 4 & 1)
    aces = sum(hand >> (8 * s + ACE) & 1 for s in range(4))
    tens = sum(hand >> (8 * s + TEN) & 1 for s in range(4))
    kings = sum(hand >> (8 * s + KING) & 1 for s in range(4))
    blank_ten = any(hand >> (8 * s + TEN) & 1
                    and not hand & SUIT_MASKS[s] & ~JACKS & ~(1 << (8 * s + TEN))
                    for s in range(4))
    hand_ok = 1 if blank_ten or (jacks == 2 and not forehand) else 2
    if jacks == 2 and aces > 2 and tens:
        return hand_ok
    if jacks and aces > 2 and tens == 4:
        return hand_ok
    if aces == 4 and tens > 3 - jacks:
        return 2
    if aces == 4 and tens > 2 - jacks:
        return 1
    if jacks < 2 or (jacks == 2 and not (club and forehand)):
        return 0
    runs = sum(top_run(hand, s) for s in range(4))
    long4 = long3 = False
    for s in range(4):
        suit = hand & SUIT_MASKS[s] & ~JACKS
        n = suit.bit_count()
        ace, ten = bool(suit >> (8 * s + ACE) & 1), bool(suit >> (8 * s + TEN) & 1)
        long4 = long4 or n > 4 or (n > 3 and (ace or ten))
        long3 = long3 or (n > 4 and (ace or ten)) or (n > 3 and ace and ten)
    if runs + jacks > 5 or (jacks == 4 and long4) or (jacks == 3 and (club or forehand)
                                                        and long3):
        return hand_ok
    return int(runs + jacks > 4 and club and not (jacks + aces == 5 and not tens and not kings))


def longest_suit(cards: int, bid: int) -> int | None:
    """The ``longtrump`` trump suit of these cards: the most cards (jacks aside) among the
    suits whose game reaches ``bid``, of equal lengths the one of fewer card points (the
    aces and tens stay side cards that take tricks); None when no suit game reaches it.

    >>> from engine.cards import parse_mask
    >>> longest_suit(parse_mask("CJ C7 CA CT H7 H8 H9 HQ S7 SA D7 D8"), 18)  # hearts
    2
    >>> longest_suit(parse_mask("CJ SJ C7 C8 C9 HA HT HK S7 SA D7 D8"), 18)  # clubs
    0
    """
    best: tuple[int, int, int] | None = None
    for g in range(4):
        if game_value(cards, g) < bid:
            continue
        suit = cards & SUIT_MASKS[g] & ~JACKS
        key = (suit.bit_count(), -sum(RANK_POINTS[c & 7] for c in range(32) if suit >> c & 1), g)
        if best is None or key[:2] > best[:2]:
            best = key
    return None if best is None else best[2]


GRAND_SKAT_WORTH = 2.0  # two more cards and two losers put away


def grand_discard(cards: int, forehand: bool = False, loser: float = 0.5) -> int:
    """The cards (a mask) a grand declarer puts away so that ten remain: the set that
    leaves the best ``grand_score``, the points put away breaking ties (the
    ``granddiscard`` option). Jacks stay.

    >>> from engine.cards import parse_mask, mask_to_str
    >>> twelve = parse_mask("C8 CT CJ SJ SQ SK H8 H9 HJ D7 DJ DA")
    >>> mask_to_str(grand_discard(twelve))  # the blank-ish ten goes, not the spades
    'CT SK'
    """
    n = cards.bit_count() - 10
    if n <= 0:
        return 0
    side = [c for c in range(32) if cards >> c & 1 and not JACKS >> c & 1]
    if len(side) < n:
        side += [c for c in range(32) if cards >> c & 1 and JACKS >> c & 1][: n - len(side)]
    return _best_set(cards, side, n, lambda m: grand_score(m, forehand, loser))


def held_level(hand: int, game: int) -> int:
    """The game level (matadors + 1) the hand keeps whatever the skat holds.

    "With" m and "without 1" cannot lose levels; "without 2" or more drop to 2 when a
    missing higher jack is in the skat (the skat belongs to the declarer's cards).

    >>> from engine.cards import parse_mask
    >>> held_level(parse_mask("CJ SJ CA"), 0), held_level(parse_mask("SJ CA"), 0)
    (3, 2)
    >>> held_level(parse_mask("DJ CA"), 0), held_level(parse_mask("CA"), 4)
    (2, 2)
    """
    m = matadors(hand, game)
    return abs(m) + 1 if m > 0 or m == -1 else 2


JACKLESS_TRUMPS = 5  # the fewest trumps a jackless suit game is bid with


def club_level(hand: int, game: int, level: int) -> int:
    """The game level (matadors + 1) a club player bids a suit game or grand on with these
    ten cards, at most ``level``; 0 when he would not bid it at all.

    >>> from engine.cards import parse_mask
    >>> club_level(parse_mask("CT CA SQ SK H7 H9 HT HA D9 DA"), 2, 5)  # 4 hearts, no jack
    0
    >>> club_level(parse_mask("CA SA H7 H8 H9 HT HA D9 DA S7"), 2, 5)  # 5 hearts
    2
    >>> club_level(parse_mask("CA SA H7 H8 H9 HT HK HA DA S7"), 2, 5)  # 6 hearts
    3
    >>> club_level(parse_mask("DJ HA HK HQ H9 H8 H7 SA CA DA"), 2, 4)  # without 3
    3
    >>> club_level(parse_mask("CJ SJ HA HK HQ H9 H8 H7 SA CA"), 2, 3)  # with 2
    3
    """
    if game < GRAND and not hand & JACKS:
        trumps = (hand & trump_mask(game)).bit_count()
        if trumps < JACKLESS_TRUMPS:
            return 0
        return min(level, 2 if trumps == JACKLESS_TRUMPS else 3)
    if matadors(hand, game) <= -3:
        return min(level, 3)
    return level


def styled_bid_limit(hand: int, style: Style, forehand: bool = False,
                     bonus: float = 0.0, null: bool = True, cap_without: bool = False,
                     null_bonus: float | None = None) -> int:
    """The bid limit under ``style`` (``bid_limit`` itself when every option is off);
    ``null=False`` leaves null out (a searching player decides null itself);
    ``null_bonus``: the null count's own bonus (default ``bonus``);
    ``cap_without`` (the rule player's ``xbid``) bids a suit game without the club jack
    only to twice its base value, as if "without 1", whatever jacks are missing;
    ``style.xbid3`` the same for a suit game "without 3" or more only.

    >>> from engine.cards import parse_mask
    >>> null = parse_mask("C7 C9 CJ S7 SA H7 HA D7 D8 D9")  # spades and hearts unsafe
    >>> styled_bid_limit(null, Style.legacy()), styled_bid_limit(null, Style(null=True))
    (23, 0)
    >>> without3 = parse_mask("DJ HA HK HQ H9 H8 H7 SA CA DA")
    >>> styled_bid_limit(without3, Style(clubbid=False)), styled_bid_limit(without3, Style())
    (40, 30)
    >>> styled_bid_limit(without3, Style(bidding=True))
    20
    >>> without2 = parse_mask("DJ HJ HA HK HQ H9 H8 H7 SA CA")
    >>> styled_bid_limit(without3, Style(xbid3=True)), styled_bid_limit(without2, Style(xbid3=True))
    (20, 30)
    """
    if not (style.grand or style.null or style.bidding or style.nullsafe
            or cap_without or style.xbid3 or style.clubbid) and null \
            and null_bonus in (None, bonus):
        return bid_limit(hand, bonus)
    best = 0
    for g in range(5):
        if g == GRAND and style.grand:
            ok = grand_score(hand, forehand, style.grand_loser) + GRAND_SKAT_WORTH + bonus \
                >= GRAND_NEED
            if ok and style.twojacks and (hand & JACKS).bit_count() <= 2:
                ok = grand_two_jacks_ok(hand, forehand)
        else:
            ok = suit_strength(hand, g) + SKAT_WORTH + bonus >= 9.0
        if ok:
            level = held_level(hand, g) if style.bidding else abs(matadors(hand, g)) + 1
            if g < GRAND and ((cap_without and not hand >> 4 & 1)
                              or (style.xbid3 and matadors(hand, g) <= -3)):
                level = min(level, 2)
            if style.clubbid:
                level = club_level(hand, g, level)
            best = max(best, BASE_VALUES[g] * level)
    if not null:
        return best
    if style.nullsafe:
        if null_fixes(hand) <= 1:
            best = max(best, NULL_VALUES[(False, False)])
    elif style.null:
        if null_biddable(hand, forehand):
            best = max(best, NULL_VALUES[(False, False)])
    elif null_strength(hand) + SKAT_WORTH + (bonus if null_bonus is None else null_bonus) \
            >= 8.5:
        best = max(best, NULL_VALUES[(False, False)])
    return best
