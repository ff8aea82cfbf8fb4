"""The deck registry: which tag UID is which card, for every deck the table knows, saved as TOML.

A deck file (what ``skat-table enroll`` writes; the config's ``[deck]`` table has the same
form, the name then being optional)::

    [deck]
    name = "blue"
    CJ = "04a224b2c94f80"
    SJ = "04a224b2c94f81"
    # ... all 32 cards

>>> deck = Deck.from_table({"name": "demo", **{str(c): f"04a224b2c94f{c.value:02x}" for c in Card}})
>>> deck.card_for("04a224b2c94f04")
<Card.CJ: 4>
>>> registry = DeckRegistry([deck])
>>> registry.card_for("04a224b2c94f1f")[1]
<Card.DA: 31>
>>> registry.card_for("deadbeef")
Traceback (most recent call last):
...
drivers.decks.UnknownTagError: tag deadbeef belongs to no enrolled deck
"""

from __future__ import annotations

import json
import os
import tomllib
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from drivers.uids import UidError, normalize_uid
from engine.cards import Card, CardError

DECK_SIZE = len(Card)
ENROL_ORDER: tuple[Card, ...] = tuple(Card)  # suit by suit, 7 to ace, as a sorted deck lies


class DeckError(ValueError):
    """A deck (file) that is wrong; the message names the deck and what is wrong."""


class UnknownTagError(ValueError):
    """A tag that is in no registered deck."""


class WrongDeckError(ValueError):
    """A card of another registered deck than the one in play."""

    def __init__(self, message: str, deck: Deck, card: Card) -> None:
        super().__init__(message)
        self.deck = deck
        self.card = card


class EnrolmentError(ValueError):
    """A tag refused during enrolment; the message says why in the user's words."""


class Deck:
    """One deck's cards and their tag UIDs (complete: all 32; partial: during enrolment)."""

    def __init__(self, name: str, cards: Mapping[Card, str], *, complete: bool = True) -> None:
        self.name = name
        self._uid_of: dict[Card, str] = {}
        self._card_of: dict[str, Card] = {}
        for card, uid in cards.items():
            if uid in self._card_of:
                raise DeckError(
                    f"deck {name!r}: {self._card_of[uid]} and {card} have the same tag {uid}"
                )
            self._uid_of[card] = uid
            self._card_of[uid] = card
        if complete and len(self._uid_of) != DECK_SIZE:
            missing = " ".join(str(c) for c in Card if c not in self._uid_of)
            raise DeckError(
                f"deck {name!r} has {len(self._uid_of)} cards, not 32: missing {missing}"
            )

    @classmethod
    def from_table(cls, table: Mapping[str, Any], name: str | None = None, *,
                   complete: bool = True) -> Deck:
        """A deck from a TOML table: card keys (``CJ``) to UID strings, plus optional ``name``."""
        deck_name = str(table.get("name") or name or "deck")
        cards: dict[Card, str] = {}
        for key, value in table.items():
            if key == "name":
                continue
            try:
                card = Card.parse(key)
            except CardError:
                raise DeckError(
                    f"deck {deck_name!r}: {key!r} is not a card (write e.g. CJ, HT, D7)"
                ) from None
            if card in cards:
                raise DeckError(f"deck {deck_name!r}: {card} is listed twice")
            if not isinstance(value, str):
                raise DeckError(f"deck {deck_name!r}: the tag of {card} must be a hex string")
            try:
                cards[card] = normalize_uid(value)
            except UidError as exc:
                raise DeckError(f"deck {deck_name!r}, {card}: {exc}") from None
        return cls(deck_name, cards, complete=complete)

    def card_for(self, uid: str) -> Card | None:
        return self._card_of.get(uid)

    def uid_for(self, card: Card) -> str | None:
        return self._uid_of.get(card)

    @property
    def cards(self) -> dict[Card, str]:
        return dict(self._uid_of)

    @property
    def complete(self) -> bool:
        return len(self._uid_of) == DECK_SIZE

    def __len__(self) -> int:
        return len(self._uid_of)

    def __repr__(self) -> str:
        return f"Deck({self.name!r}, {len(self)} cards)"

    def to_toml(self) -> str:
        lines = ["[deck]", f"name = {json.dumps(self.name, ensure_ascii=False)}"]
        lines += [f'{card} = "{uid}"' for card, uid in sorted(self._uid_of.items())]
        return "\n".join(lines) + "\n"


def load_deck(path: str | os.PathLike[str], *, complete: bool = True,
              follow: bool = True) -> Deck:
    """Read a deck file; the name defaults to the file's stem. Raises :class:`DeckError`."""
    path = Path(path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise DeckError(f"deck file {path} does not exist") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise DeckError(f"deck file {path} is not valid TOML: {exc}") from None
    table = data.get("deck", data)
    if not isinstance(table, Mapping):
        raise DeckError(f"deck file {path}: [deck] must be a table of card = \"uid\" lines")
    if set(table) == {"deck"} and isinstance(table["deck"], str):
        # The config's other form, ``[deck] deck = "enrolled.toml"``: followed once only.
        if not follow:
            raise DeckError(f"deck file {path} names yet another deck file")
        return load_deck(path.parent / table["deck"], complete=complete, follow=False)
    return Deck.from_table(table, path.stem, complete=complete)


def save_deck(deck: Deck, path: str | os.PathLike[str]) -> None:
    """Write a deck file atomically (a power cut leaves the old file or the new one)."""
    path = Path(path)
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(deck.to_toml())
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


class DeckRegistry:
    """Every deck the table knows; a UID belongs to at most one of them."""

    def __init__(self, decks: Iterable[Deck] = ()) -> None:
        self._decks: dict[str, Deck] = {}
        for deck in decks:
            self.add(deck)

    def add(self, deck: Deck) -> None:
        if deck.name in self._decks:
            raise DeckError(f"there are two decks named {deck.name!r}")
        for other in self._decks.values():
            for uid, card in ((u, c) for c, u in deck.cards.items()):
                if other.card_for(uid) is not None:
                    raise DeckError(
                        f"tag {uid} is {card} of deck {deck.name!r} and "
                        f"{other.card_for(uid)} of deck {other.name!r}"
                    )
        self._decks[deck.name] = deck

    def remove(self, name: str) -> None:
        self._decks.pop(name, None)

    @classmethod
    def load_dir(cls, directory: str | os.PathLike[str]) -> DeckRegistry:
        """All complete decks in ``directory`` (``*.toml``)."""
        return cls(load_deck(p) for p in sorted(Path(directory).glob("*.toml")))

    @property
    def decks(self) -> list[Deck]:
        return list(self._decks.values())

    def get(self, name: str) -> Deck:
        try:
            return self._decks[name]
        except KeyError:
            known = ", ".join(self._decks) or "none"
            raise DeckError(f"no deck named {name!r} (known: {known})") from None

    def card_for(self, uid: str) -> tuple[Deck, Card]:
        """The deck and card of a tag, or :class:`UnknownTagError`."""
        for deck in self._decks.values():
            card = deck.card_for(uid)
            if card is not None:
                return deck, card
        raise UnknownTagError(f"tag {uid} belongs to no enrolled deck")

    def card_in(self, uid: str, deck_name: str) -> Card:
        """The card of a tag of the deck in play; :class:`WrongDeckError` names another deck's
        card as such, :class:`UnknownTagError` a tag of no deck."""
        deck, card = self.card_for(uid)
        if deck.name != deck_name:
            raise WrongDeckError(
                f"this is the {card} of deck {deck.name!r}, not a card of deck {deck_name!r}",
                deck, card,
            )
        return card


class EnrolmentSession:
    """Enrol one deck card by card; saved after every step, so it can be resumed.

    >>> import tempfile, os
    >>> s = EnrolmentSession("blue", os.path.join(tempfile.mkdtemp(), "blue.toml"))
    >>> s.next_card, s.offer("04a224b2c94f80"), s.next_card
    (<Card.C7: 0>, <Card.C7: 0>, <Card.C8: 1>)
    >>> s.offer("04a224b2c94f80")
    Traceback (most recent call last):
    ...
    drivers.decks.EnrolmentError: this tag is already enrolled as C7: lay the C8
    """

    def __init__(self, name: str, path: str | os.PathLike[str],
                 registry: DeckRegistry | None = None,
                 order: Iterable[Card] = ENROL_ORDER) -> None:
        self.path = Path(path)
        self.registry = registry or DeckRegistry()
        self.order = tuple(order)
        if sorted(self.order) != list(Card):
            raise ValueError("the enrolment order must list each of the 32 cards once")
        self._cards: dict[Card, str] = {}
        self._history: list[Card] = []
        self.name = name
        if self.path.exists():
            partial = load_deck(self.path, complete=False)
            self.name = partial.name
            for card in self.order:  # resume in enrolment order, so undo goes backwards
                uid = partial.uid_for(card)
                if uid is not None:
                    self._cards[card] = uid
                    self._history.append(card)

    @property
    def next_card(self) -> Card | None:
        return next((c for c in self.order if c not in self._cards), None)

    @property
    def done(self) -> bool:
        return len(self._cards) == DECK_SIZE

    @property
    def count(self) -> int:
        return len(self._cards)

    def offer(self, uid: str) -> Card:
        """Enrol ``uid`` as the next card; refuse a duplicate or a tag of another deck."""
        card = self.next_card
        if card is None:
            raise EnrolmentError(f"deck {self.name!r} is complete: all 32 cards are enrolled")
        try:
            uid = normalize_uid(uid)
        except UidError as exc:
            raise EnrolmentError(str(exc)) from None
        for have, have_uid in self._cards.items():
            if have_uid == uid:
                raise EnrolmentError(f"this tag is already enrolled as {have}: lay the {card}")
        try:
            deck, other = self.registry.card_for(uid)
        except UnknownTagError:
            pass
        else:
            if deck.name != self.name:
                raise EnrolmentError(
                    f"this tag is the {other} of deck {deck.name!r}: lay the {card} of this deck"
                )
        self._cards[card] = uid
        self._history.append(card)
        self.save()
        return card

    def undo(self) -> Card | None:
        """Forget the last enrolled card (it is next again); None if nothing was enrolled."""
        if not self._history:
            return None
        card = self._history.pop()
        del self._cards[card]
        self.save()
        return card

    def save(self) -> None:
        save_deck(Deck(self.name, self._cards, complete=False), self.path)

    def deck(self) -> Deck:
        """The finished deck (:class:`DeckError` if cards are missing)."""
        return Deck(self.name, self._cards, complete=True)
