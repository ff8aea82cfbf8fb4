"""Translations: gettext catalogs per language, and the Skat words the screens are built from.

The catalogs live in ``display/locale/<lang>/LC_MESSAGES/skat_table.po``; the compiled ``.mo``
files are committed next to them (a Pi has no ``msgfmt``), and a test checks that every ``.mo``
says what its ``.po`` says and that no catalog lacks a message. Message ids are English.

>>> t = translator("de")
>>> t("Bidding")
'Reizen'
>>> t.suit("H"), t.role("forehand")
('Herz', 'Vorhand')
>>> translator("en")("Bidding")
'Bidding'
"""

from __future__ import annotations

import gettext
from functools import cached_property
from pathlib import Path

from engine.cards import Card

DOMAIN = "skat_table"
LOCALE_DIR = Path(__file__).with_name("locale")
LANGUAGE_NAMES = {
    "de": "Deutsch", "en": "English", "fr": "Français", "es": "Español", "nb": "Norsk",
    "cs": "Čeština", "nl": "Nederlands", "pl": "Polski",
}

# Words that are looked up by key, so that extraction sees every one of them as a literal.
SUIT_WORDS = {"C": "clubs", "S": "spades", "H": "hearts", "D": "diamonds", "T": "trump"}
GERMAN_SUIT_WORDS = {"C": "acorns", "S": "leaves", "H": "hearts (German suit)",
                     "D": "bells"}
GAME_WORDS = {"C": "Clubs", "S": "Spades", "H": "Hearts", "D": "Diamonds", "G": "Grand",
              "N": "Null", "R": "Ramsch"}
GERMAN_GAME_WORDS = {"C": "Acorns", "S": "Leaves", "H": "Hearts (German suit)", "D": "Bells"}
ROLE_WORDS = {"forehand": "Forehand", "middlehand": "Middlehand", "rearhand": "Rearhand"}
# Rank indices on the card faces: French-suited decks carry the language's letters.
RANK_INDEX_MSG = ("Jack index letter", "Queen index letter", "King index letter",
                  "Ace index letter")


def _n(text: str) -> str:
    """Mark a literal for extraction without translating it here."""
    return text


_EXTRACT = (
    _n("clubs"), _n("spades"), _n("hearts"), _n("diamonds"), _n("trump"),
    _n("acorns"), _n("leaves"), _n("hearts (German suit)"), _n("bells"),
    _n("Clubs"), _n("Spades"), _n("Hearts"), _n("Diamonds"), _n("Grand"), _n("Null"),
    _n("Ramsch"), _n("Acorns"), _n("Leaves"), _n("Hearts (German suit)"), _n("Bells"),
    _n("Forehand"), _n("Middlehand"), _n("Rearhand"),
    _n("Jack index letter"), _n("Queen index letter"), _n("King index letter"),
    _n("Ace index letter"), _n("jack"), _n("queen"), _n("king"), _n("ace"),
    _n("{rank} of {suit}"), _n("Hand"), _n("Schneider announced"), _n("Schwarz announced"),
    _n("Schneider"), _n("Schwarz"),
)
RANK_WORD_MSG = ("jack", "queen", "king", "ace")


class Translator:
    """The table's language: ``t("Bidding")`` and Skat words by key."""

    def __init__(self, code: str, german_suits: bool = False) -> None:
        self.code = code
        self.german_suits = german_suits
        self._tr = _load(code)

    def __call__(self, message: str) -> str:
        return self._tr.gettext(message)

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        """The form for ``n`` by the language's plural rule (Polish and Czech have three:
        ``1 karta``, ``3 karty``, ``5 kart``)."""
        return self._tr.ngettext(singular, plural, n)

    def suit(self, letter: str) -> str:
        """A suit as a noun (``"H"`` -> ``"Herz"``); ``"T"`` is trump."""
        if self.german_suits and letter in GERMAN_SUIT_WORDS:
            return self(GERMAN_SUIT_WORDS[letter])
        return self(SUIT_WORDS[letter])

    def game(self, letter: str) -> str:
        """A game type's name (``"C"`` -> ``"Kreuz"``, ``"G"`` -> ``"Grand"``)."""
        if self.german_suits and letter in GERMAN_GAME_WORDS:
            return self(GERMAN_GAME_WORDS[letter])
        return self(GAME_WORDS[letter])

    def role(self, role: str) -> str:
        return self(ROLE_WORDS[role])

    @cached_property
    def rank_letters(self) -> tuple[str, ...]:
        """Index letters for 7 8 9 10 J Q K A in this language (``de``: B D K A)."""
        if self.german_suits:
            return ("7", "8", "9", "10", "U", "O", "K", "A")
        return ("7", "8", "9", "10", *(self(m) for m in RANK_INDEX_MSG))

    def card(self, card: Card) -> str:
        """A card in words: ``Herz 10``, ``Kreuz Bube``, ``ace of spades``."""
        rank = card.rank
        word = str(rank + 7) if rank < 4 else self(RANK_WORD_MSG[rank - 4])
        return self("{rank} of {suit}").format(rank=word, suit=self.suit(card.name[0]))

    def contract(self, text: str, short: bool = False) -> str:
        """An ISS contract in words: ``"CHS"`` -> ``"Kreuz Hand Schneider angesagt"``
        (``short``: ``"Kreuz Hand Schneider"``, for the score sheet)."""
        if not text:
            return ""
        words = [self.game(text[0])]
        mods = text[1:]
        if "O" in mods:
            words.append(self("Hand") if "H" in mods else "")
            words.append(self("Ouvert"))
        else:
            if "H" in mods:
                words.append(self("Hand"))
            if "Z" in mods:
                words.append(self("Schwarz") if short else self("Schwarz announced"))
            elif "S" in mods:
                words.append(self("Schneider") if short else self("Schneider announced"))
        return " ".join(w for w in words if w)


def _load(code: str) -> gettext.NullTranslations:
    return gettext.translation(DOMAIN, localedir=str(LOCALE_DIR), languages=[code])


def translator(code: str, german_suits: bool = False) -> Translator:
    return Translator(code, german_suits)
