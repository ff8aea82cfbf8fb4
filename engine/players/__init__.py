"""Computer players: a seat's view, the player interface, and the players themselves.

- :class:`SeatView` / :class:`Player` (``engine.players.base``): what a seat may see, and
  ``choose(view) -> Action``.
- ``random``: a uniformly random legal action (the floor).
- ``rule``: hand evaluation for bidding and contract, standard card-play heuristics;
  ``rule-2025`` is the rule player before the rework that added the :class:`Style` options
  (all of them off), and ``rule-no-OPTION`` / ``rule+OPTION`` / ``rule-2025+OPTION`` switch
  single options (ablations).
- ``pimc``: Perfect-Information Monte Carlo card play on a double-dummy solver, under a time
  budget (seconds per decision); bidding and contract by search. ``pimc-2025`` keeps the
  earlier bidding and contract choice (the evaluation's), for comparison; ``pimc+infer``
  (strength harness) adds the card-play inference of :mod:`engine.players.clues`;
  ``pimc+discard`` (strength harness) a defender's inference from the declarer's discard
  (:func:`engine.players.clues.repick_skat`); ``pimc+longace`` (strength harness) PIMC
  before its defender's opening lead left out the ace of a side suit of four or more cards
  (:func:`engine.players.pimc.long_ace_lead`); ``pimc+race`` (strength harness) PIMC
  whose cards race at a time budget (a card clearly behind after a few worlds is not
  solved in the later ones, :func:`engine.players.pimc.race_margin`; measured, not the
  default); ``pimc+rollout`` (strength harness) PIMC whose first trick's cards tied on the
  double-dummy goal are told apart by playouts of the same worlds with the rule players
  (:mod:`engine.players.rollout`, ``PimcPlayer(rollout="ties")``; measured, not the
  default).
- ``oracle`` (strength harness only, not in ``PLAYER_NAMES``): sees every card.
- ``pimc+nullcheck`` (strength harness only): ``pimc`` with null judged by one line of play
  in its choices before play (``Declaring(honest=True)``, :mod:`engine.players.nullcheck`)
  instead of double-dummy; measured against XSkat it gave up nulls that win there, so it
  is not the default (docs/players.md, "What was learned").
- ``pimc+rulechoices``, ``pimc+rulediscard``, ``pimc+nodes1500k`` (strength harness only,
  and combinations such as ``pimc+rulediscard+nodes1500k``): PIMC's card play after the
  rule player's choices before play (:class:`~engine.players.declaring.RuleChoices`); the
  search's discards the rule player's (``Declaring(rule_discard=True)``: voids and
  keepaces); its solver's node budget at 1.5 million instead of 400 000; ``pimc+allsuits``:
  every suit game among the contract search's candidates (``Declaring(onesuit=False)``,
  ``pimc`` before the search kept one); ``pimc+countdiscard``: the count's discard
  (``Declaring(xdiscard=False)``, ``pimc`` before it took the rule player's own);
  ``pimc+bold``: the suit and grand bid limit with the rule player's ``bold`` bonus;
  ``pimc+rulebid``: the rule player bids (``pimc`` when timed below 10 s a decision;
  ``pimc+searchbid``: the search bids at every budget, as ``pimc`` did at 1 s before);
  ``pimc+quick``: a cheaper timed contract search after the pick-up (goal only, smaller
  node budget, plays far behind pruned) (docs/players.md, "What was learned");
  ``pimc+nullgate``: the contract search after a pick-up switches from the rule player's
  suit game or grand only to a null with every suit safe, ``pimc+nullgatebid`` the same in
  the bidding search's pick-ups (docs/players.md, "What was learned").
  ``pimc+nocalib``: the contract search scores a candidate with its mean over the
  double-dummy worlds, not (as ``pimc`` does) with the chance at the table of its win share
  (``Declaring(calib=False)``, docs/players.md, "The PIMC player";
  ``pimc+calib`` is ``pimc``). ``pimc+plainbid``: the rule player that bids for a timed PIMC
  without its ``bolder`` option (``pimc`` before it was on there);
  ``pimc+bolder``, ``pimc+last18``, ``pimc+timid``: that rule player with ``bolder`` (whatever
  the budget) or ``last18``, or a quarter trick more timid than ``plainbid``;
  ``pimc+boldest``: ``bolder`` and a quarter trick more;
  ``pimc+boldsuit``: with ``bolder`` or ``boldest``, the null count stays the rule
  player's default (``pimc+plainbid``'s); ``pimc+keepnull``: with ``boldest`` or
  ``timid``, the null count stays ``pimc``'s (``bolder``); ``pimc+heldbid``: the bidding
  rule player bids a suit game only to the level its ten cards keep whatever the skat
  holds (its ``bidding`` option: "without 2" or more counts as 2); ``pimc+xbid3``: it
  bids a suit game "without 3" or more only to twice its base value (its ``xbid3``);
  ``pimc+oldbid``: the bidding rule player without the club player's limits (its
  ``clubbid`` off: ``pimc`` before them); ``pimc+schneiderhope``: after a pick-up the
  contract search may declare a game that reaches the bid only with schneider while
  another reaches it without (``Declaring(coverbid=False)``: ``pimc`` before);
  ``pimc+nullstop``: no null with an unsafe suit as the first
  choice after a pick-up the ten cards bid on a suit or grand count (measured:
  lab/experiments.csv, pimc+bolder+nullstop vs pimc).

The controller builds players from the config with :func:`make_player`:

>>> p = make_player("rule", seed=7)
>>> p.name
'rule'
>>> make_player("kermit")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
engine.players.base.PlayerError: unknown computer player 'kermit': use one of pimc, ...
"""

from __future__ import annotations

from engine.players.base import DuelPartner, Player, PlayerError, RandomPlayer, SeatView
from engine.players.evaluate import Style
from engine.players.levels import LEVEL_NAMES, Level, parse_level
from engine.players.rule import BOLDER, RulePlayer

PLAYER_NAMES = ("pimc", "pimc-2025", "random", "rule", "rule-2025")
# Players only the strength harness may seat: they see cards no seat may see, or are kept
# only to measure a change against.
HARNESS_NAMES = ("oracle", "pimc+nullcheck", "pimc+rulechoices", "pimc+rulediscard",
                 "pimc+nodes1500k", "pimc+allsuits", "pimc+discard", "pimc+longace",
                 "pimc+race", "pimc+rollout")
# ``pimc+A+B``: PIMC with these harness options (``pimc_options``)
PIMC_OPTIONS = ("allsuits", "bold", "bolder", "boldest", "boldsuit", "calib", "countdiscard",
                "discard", "heldbid", "infer", "keepnull", "last18", "longace", "nocalib",
                "nodes1500k", "nullcheck", "nullgate", "nullgatebid", "nullstop", "oldbid",
                "plainbid",
                "quick", "race", "rollout", "rulebid", "rulechoices", "rulediscard",
                "schneiderhope", "searchbid", "timid", "xbid3")


def pimc_options(name: str) -> frozenset[str] | None:
    """The harness options of a PIMC player's name (``pimc``: none), None when the name is
    not one.

    >>> sorted(pimc_options("pimc+rulediscard+nodes1500k"))
    ['nodes1500k', 'rulediscard']
    >>> pimc_options("pimc+kermit") is None
    True
    """
    if name == "pimc":
        return frozenset()
    if not name.startswith("pimc+"):
        return None
    parts = frozenset(name.removeprefix("pimc+").split("+"))
    return parts if parts <= set(PIMC_OPTIONS) else None


def _bid_style(options: frozenset[str]) -> Style | None:
    """The style of the rule player that bids for PIMC, as harness options ask for it
    (None: ``Declaring``'s default, ``pimc``'s).

    >>> _bid_style(frozenset({"heldbid"})).bidding, _bid_style(frozenset({"plainbid"})).bolder
    (True, False)
    >>> _bid_style(frozenset({"calib"})) is None
    True
    """
    last18 = "last18" in options
    if "oldbid" in options:
        # ``pimc``'s bidding before the club player's limits (``clubbid`` off)
        return Style(bolder=not options & {"plainbid", "timid"}, last18=last18, clubbid=False)
    if "heldbid" in options:
        # ``pimc``'s bidding (``bolder`` unless plainbid or timid) to the level the ten
        # cards keep whatever the skat holds
        return Style(bolder=not options & {"plainbid", "timid"}, last18=last18, bidding=True,
                     clubbid=False)
    if options & {"bolder", "boldest", "last18", "plainbid", "timid", "xbid3"}:
        # the bidding variants measured before the club player's limits, as they were
        bolder = bool({"bolder", "boldest"} & options) or (
            "xbid3" in options and not options & {"plainbid", "timid"})
        return Style(bolder=bolder, last18=last18, xbid3="xbid3" in options, clubbid=False)
    return None


def rule_style(name: str) -> Style | None:
    """The style of a rule player's name: ``rule`` (the defaults), ``rule-2025`` (none),
    ``rule-no-A-no-B`` (all but A and B), ``rule+A`` (the defaults and A),
    ``rule-2025+A+B`` (only A and B); None when the
    name is not a rule player's.

    >>> rule_style("rule-2025+grand") == Style.legacy().with_("grand")
    True
    >>> rule_style("rule-no-null-no-play") == Style().without("null").without("play")
    True
    """
    if name == "rule":
        return Style()
    try:
        if name.startswith("rule-2025"):
            style = Style.legacy()
            for part in filter(None, name.removeprefix("rule-2025").split("+")):
                style = style.with_(part)
            return style if name == "rule-2025" or "+" in name else None
        if name.startswith("rule+"):
            style = Style()
            for part in name.removeprefix("rule+").split("+"):
                style = style.with_(part)
            return style
        if name.startswith("rule-no-"):
            style = Style()
            for part in name.removeprefix("rule-no-").split("-no-"):
                style = style.without(part)
            return style
    except ValueError:
        return None
    return None


def _level_player(name: str, level: Level, share: float, seed: int,
                  workers: int | None) -> Player:
    """The player of a level at ``share`` of its budget (``name``: as the lab names it)."""
    if level.player == "beginner":
        from engine.players.beginner import BeginnerPlayer

        p: Player = BeginnerPlayer(seed)
    else:
        p = make_player(level.player, seed=seed, budget=max(0.01, level.budget_s * share),
                        workers=workers)
    p.name = name  # type: ignore[misc]
    return p


def make_player(
    name: str, seed: int = 0, budget: float = 1.0, worlds: int | None = None,
    workers: int | None = None, never_declare: bool = False,
) -> Player:
    """A computer player by its config name (``random``, ``rule``, ``pimc``, ...) or its
    level (``beginner``, ``club``, ``expert``: :mod:`engine.players.levels`, whose budget
    is the level's own: ``budget`` and ``worlds`` do not apply).

    ``budget`` is the PIMC player's time per decision in seconds; ``worlds`` fixes the
    number of sampled deals instead (reproducible); ``workers`` the processes it uses.
    ``never_declare`` makes it the duel-mode partner: it passes in every bidding and so
    always defends (see :class:`~engine.players.base.DuelPartner`).
    """
    if never_declare:
        return DuelPartner(make_player(name, seed, budget, worlds, workers))
    key = name.strip().lower()
    level = parse_level(key)
    if level is not None:
        return _level_player(key, level[0], level[1], seed, workers)
    if key == "random":
        return RandomPlayer(seed)
    style = rule_style(key)
    if style is not None:
        return RulePlayer(seed, style=style, name=key)
    if key == "oracle":
        from engine.players.oracle import OraclePlayer

        return OraclePlayer(seed)
    if key == "pimc-2025":
        from engine.players.pimc import PimcPlayer

        return PimcPlayer(seed=seed, budget=budget, worlds=worlds, workers=workers,
                          searched_contracts=False)
    options = pimc_options(key)
    if options is not None:
        from engine.players.declaring import MAX_NODES_C, Declaring, RuleChoices
        from engine.players.pimc import ROLLOUT_MODE, PimcPlayer

        p = PimcPlayer(seed=seed, budget=budget, worlds=worlds, workers=workers,
                       inference="infer" in options, discard="discard" in options,
                       long_ace="longace" in options, race="race" in options,
                       rollout=ROLLOUT_MODE if "rollout" in options else None)
        bolder = bool({"bolder", "boldest"} & options)
        extra = 0.25 if "boldest" in options else -0.25 if "timid" in options else 0.0
        if "rulechoices" in options:
            p.declaring = RuleChoices(seed)  # type: ignore[assignment]
        elif options - {"infer", "discard", "longace", "race", "rollout"}:
            p.declaring = Declaring(
                seed, budget, worlds, honest="nullcheck" in options,
                rule_discard="rulediscard" in options,
                max_nodes=1_500_000 if "nodes1500k" in options else MAX_NODES_C,
                onesuit="allsuits" not in options, xdiscard="countdiscard" not in options,
                bold="bold" in options,
                rulebid=True if "rulebid" in options else False if "searchbid" in options
                else None,
                quick="quick" in options, nullgate="nullgate" in options,
                calib="nocalib" not in options, nullgatebid="nullgatebid" in options,
                bid_style=_bid_style(options),
                boldness=extra, nullstop="nullstop" in options,
                # ``boldsuit``: the null count without what ``bolder``/``boldest`` add;
                # ``keepnull``: without what ``boldest`` or ``timid`` change (``pimc``'s)
                null_boldness=-(BOLDER * bolder + extra) if "boldsuit" in options
                else -extra if "keepnull" in options else 0.0,
                coverbid="schneiderhope" not in options)
        p.name = key
        return p
    options = ", ".join(Style.option_names())
    raise PlayerError(f"unknown computer player {name!r}: use one of {', '.join(PLAYER_NAMES)} "
                      f"or a level ({', '.join(LEVEL_NAMES)}) "
                      f"(or rule-no-OPTION, rule+OPTION, rule-2025+OPTION; "
                      f"OPTION one of {options})")


__all__ = [
    "HARNESS_NAMES", "LEVEL_NAMES", "PIMC_OPTIONS", "PLAYER_NAMES", "DuelPartner", "Player",
    "PlayerError", "RandomPlayer", "RulePlayer", "SeatView", "make_player", "pimc_options",
    "rule_style",
]
