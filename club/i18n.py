"""The club's language: gettext catalogs for the pages, the PDFs and the ISS comments.

The catalogs live in ``club/locale/<lang>/LC_MESSAGES/club.po``; the compiled ``.mo`` files are
committed next to them (as the kiosk's are: a club laptop need not have ``msgfmt``), and
``tests/club/test_club_language.py`` checks that every ``.mo`` says what its ``.po`` says and
that no catalog lacks a message of the templates or the code. Message ids are English.

One language per server, ``[club] language`` (German unless set): the projector, every
spectator's phone, the director's pages and the printed lists say the same words, and the
ranking's HTML is rendered once per change for all of them.

>>> t = translator("de")
>>> t("Ranking"), t.contract("CH"), t.contract(None)
('Rangliste', 'Kreuz Hand', 'eingepasst')
>>> translator("en").contract("GHZ"), translator("pl").contract("NO")
('Grand Hand Schwarz announced', 'Null Ouvert')
>>> translator("cs").ngettext("%(num)s game counted", "%(num)s games counted", 3) % {"num": 3}
'3 hry započteny'
"""

from __future__ import annotations

import gettext
import re
from functools import cache
from pathlib import Path

DOMAIN = "club"
LOCALE_DIR = Path(__file__).with_name("locale")
LANGUAGES = ("de", "en", "fr", "es", "nb", "cs", "nl", "pl")
LANGUAGE_NAMES = {
    "de": "Deutsch", "en": "English", "fr": "Français", "es": "Español", "nb": "Norsk",
    "cs": "Čeština", "nl": "Nederlands", "pl": "Polski",
}


def N_(text: str) -> str:
    """Mark a literal for the catalogs without translating it here (it is looked up later)."""
    return text


# The Skat words a contract is written with, looked up by its ISS letters (the kiosk's
# glossary, display/locale/GLOSSARY.md, gives each language's word).
GAME_WORDS = {"C": N_("Clubs"), "S": N_("Spades"), "H": N_("Hearts"), "D": N_("Diamonds"),
              "G": N_("Grand"), "N": N_("Null")}
_MORE_WORDS = (N_("Hand"), N_("Ouvert"), N_("Schneider announced"), N_("Schwarz announced"),
               N_("passed in"))


# Words the pages look up by a stored key: a table's state, a series' state and seating.
STATE_WORDS = {"idle": N_("idle"), "playing": N_("playing"), "offline": N_("offline"),
               "unknown": N_("unknown"), "running": N_("running"), "closed": N_("closed"),
               "draw": N_("drawn by lots"), "standing": N_("by standing"),
               "counted": N_("counted"), "held": N_("held")}

# The director reads the server's own sentences too: why a game is held or was refused, what
# became of a refused message, why a form was refused. The server writes them in English (its
# log's language); these are their shapes, so that the pages can show them in the club's
# language. A sentence of no known shape is shown as written. A ``reason`` or ``what`` part is
# itself looked up again ("game 4: 47 is no game value ...").
MESSAGE_SHAPES = (
    N_("game %(game)s is ahead of table %(table)s's list: it counts once game %(waiting)s is "
       "there"),
    N_("%(game_id)s revision %(revision)s was received before with other content: the "
       "director can choose one version on the game's page"),
    N_("%(game_id)s: series %(series)s is closed (Reopen counts it)"),
    N_("%(game_id)s: series %(series)s has not been drawn"),
    N_("%(game_id)s: there is no table %(table)s in series %(series)s"),
    N_("chosen by director at %(at)s"),
    N_("revision %(revision)s as received at %(at)s"),
    N_("refused message %(seq)s as received at %(at)s"),
    N_("checked again when series %(series)s was reopened (%(at)s): %(outcome)s"),
    N_("close the running series before drawing the next one"),
    N_("the tournament has %(series)s series"),
    N_("%(players)s players cannot sit at tables of three and four: register or remove a "
       "player"),
    N_("a player needs a name"),
    N_("say why: a correction needs a reason"),
    N_("say why: games entered from paper need a reason"),
    N_("say why: choosing a version needs a reason"),
    N_("no game was filled in"),
    N_("game %(game)s is filled in twice"),
    N_("game %(game)s has arrived from the table: correct it on its own page"),
    N_("the dealer sits out at a four-player table and cannot declare"),
    N_("%(value)s is no game value a declarer can win"),
    N_("%(value)s is no game value: a lost game counts twice a game's value"),
    N_("a passed-in game has no value, not %(value)s"),
    N_("%(text)s is not a value as on the list (+24, -96)"),
    N_("game %(game)s: a value without a declarer: pick the declarer, or nobody for a "
       "passed-in game"),
    N_("the Seeger-Fabian sums do not agree (a line typed wrong?): %(sums)s"),
    N_("the Seeger-Fabian sum: %(reason)s"),
    N_("game %(game)s: %(reason)s"),
    # the directors, and drawing a series again
    N_("a director's name has 1..%(max)s letters, digits or spaces"),
    N_("a director's password needs at least %(min)s characters"),
    N_("that password is too long (1024 characters at most)"),
    N_("there is a director named %(name)s already"),
    N_("%(name)s is set up in club.toml: change it there"),
    N_("a director cannot remove themself: ask another director"),
    N_("there is no director named %(name)s"),
    N_("%(name)s's password is set in club.toml: change it there"),
    N_("say why: drawing a series again needs a reason"),
    N_("series %(series)s has not been drawn"),
    N_("series %(series)s is drawn already: only the last series can be drawn again"),
    N_("series %(series)s is closed: it cannot be drawn again"),
    N_("series %(series)s has started (games of table %(tables)s are in): it cannot be drawn "
       "again; seat a late arrival in the next series"),
    # what the directors did (the audit), as the server records it; the longest shapes first:
    # a drawing again names who is seated now, who no longer, and why
    N_("%(what)s; why: %(why)s"),
    N_("%(what)s; no longer seated: %(ids)s"),
    N_("%(what)s; seated now: %(ids)s"),
    N_("series %(series)s drawn again (%(method)s, seed %(seed)s): %(players)s players at "
       "%(tables)s tables"),
    N_("series %(series)s drawn (%(method)s, seed %(seed)s): %(players)s players at "
       "%(tables)s tables"),
    N_("series %(series)s closed"),
    N_("series %(series)s reopened"),
    N_("registered %(id)s"),
    N_("imported %(players)s players"),
    N_("%(id)s marked present"),
    N_("%(id)s marked absent"),
    N_("added director %(name)s"),
    N_("removed director %(name)s"),
    N_("%(name)s changed their password"),
    # teams, prizes and the season
    N_("line %(line)s: %(reason)s"),
    N_("team name %(name)s... is longer than %(max)s characters"),
    N_("there is no special prize %(prize)s to award by hand"),
    N_("player %(player)s does not take part in the evening"),
    N_("no series has been drawn: there is nothing to import"),
    N_("series %(series)s is still running: close it first (the season counts finished "
       "evenings only)"),
    N_("%(name)s (%(date)s) imported into season %(season)s: %(count)s players, %(new)s new "
       "members"),
    N_("%(name)s (%(date)s) imported again into season %(season)s: %(count)s players, "
       "%(new)s new members"),
)
# the fields that hold a sentence of their own, looked up again
_NESTED = ("reason", "what")
_FIELD = re.compile(r"%\((\w+)\)s")


# what each field of a shape may hold: numbers are numbers, a table or a game id one word
_FIELD_TEXT = {"game": r"\d+", "waiting": r"\d+", "series": r"\d+", "revision": r"\d+",
               "seq": r"\d+", "players": r"\d+", "value": r"[-+]?\d+", "table": r"[^\s:']+",
               "game_id": r"[^\s:]+", "line": r"\d+", "count": r"\d+", "new": r"\d+",
               "id": r"\S+"}


def _shape(template: str) -> re.Pattern[str]:
    parts = _FIELD.split(template)
    pattern = "".join(re.escape(p) if i % 2 == 0 else f"(?P<{p}>{_FIELD_TEXT.get(p, '.+?')})"
                      for i, p in enumerate(parts))
    return re.compile(f"^{pattern}$", re.S)


_SHAPES = tuple((t, _shape(t)) for t in MESSAGE_SHAPES)


class Translator:
    """One language: ``t("Ranking")``, plurals, and contracts in words."""

    def __init__(self, code: str) -> None:
        self.code = code
        with (LOCALE_DIR / code / "LC_MESSAGES" / f"{DOMAIN}.mo").open("rb") as fh:
            self._tr = gettext.GNUTranslations(fh)

    def __call__(self, message: str) -> str:
        return self._tr.gettext(message)

    def gettext(self, message: str) -> str:
        return self._tr.gettext(message)

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        """The form for ``n`` by the language's plural rule (Czech and Polish have three)."""
        return self._tr.ngettext(singular, plural, n)

    def message(self, text: str) -> str:
        """One of the server's own sentences (:data:`MESSAGE_SHAPES`) in this language; any
        other text as it is.

        >>> translator("de").message("game 10 is ahead of table 3's list: it counts once "
        ...                          "game 6 is there")
        'Spiel 10 ist der Liste von Tisch 3 voraus: es zählt, sobald Spiel 6 da ist'
        """
        if not text:
            return text
        for template, shape in _SHAPES:
            m = shape.match(text)
            if m is not None:
                parts = {k: self.message(v) if k in _NESTED else v
                         for k, v in m.groupdict().items()}
                return self(template) % parts
        return text

    def contract(self, contract: str | None, passed_in: bool | None = None) -> str:
        """A contract in ISS notation in words: ``"CH"`` -> ``"Kreuz Hand"``. No contract is
        a passed-in game, unless ``passed_in`` is False: a game typed from a paper list that
        does not say what was played (``–``)."""
        if not contract:
            return "–" if passed_in is False else self("passed in")
        word = GAME_WORDS.get(contract[0])
        words = [self(word) if word else contract[0]]
        mods = contract[1:]
        if "H" in mods:
            words.append(self("Hand"))
        if "Z" in mods:
            words.append(self("Schwarz announced"))
        elif "S" in mods:
            words.append(self("Schneider announced"))
        if "O" in mods:
            words.append(self("Ouvert"))
        return " ".join(words)


@cache
def translator(code: str) -> Translator:
    """The catalog of ``code`` (one of :data:`LANGUAGES`), read once."""
    if code not in LANGUAGES:
        raise ValueError(f"no catalog for language {code!r}; use one of {', '.join(LANGUAGES)}")
    return Translator(code)
