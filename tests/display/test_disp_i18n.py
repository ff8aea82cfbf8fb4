"""The catalogs: every message of the source in every language, compiled files that say what
their sources say, placeholders kept, and the Skat words of each language."""

from __future__ import annotations

import ast
import gettext
import re
from pathlib import Path

import pytest
from pofile import read_po

from display.i18n import DOMAIN, LOCALE_DIR, translator
from display.view import LANGUAGES

ROOT = Path(__file__).resolve().parents[2]
PLACEHOLDER = re.compile(r"\{[a-z_]*\}")


def literal(node: ast.AST) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def source_messages() -> set[str]:
    """Every literal passed to ``_()`` or ``_n()``, and the singular of every ``ngettext``
    call, in display/."""
    found: set[str] = set()
    for path in (ROOT / "display").glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call) or not node.args:
                continue
            name = node.func.id if isinstance(node.func, ast.Name) else (
                node.func.attr if isinstance(node.func, ast.Attribute) else "")
            if name in ("_", "_n", "ngettext") and literal(node.args[0]) is not None:
                found.add(literal(node.args[0]))  # type: ignore[arg-type]
    return found


def plural_messages() -> dict[str, str]:
    """singular -> plural of every ``ngettext`` call in display/."""
    found: dict[str, str] = {}
    for path in (ROOT / "display").glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and node.func.attr == "ngettext" and len(node.args) == 3
                    and literal(node.args[0]) is not None):
                found[literal(node.args[0])] = literal(node.args[1])  # type: ignore[index]
    return found


def po(lang: str) -> dict:
    return read_po(LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po")


def msgids(catalog: dict) -> set[str]:
    return {k if isinstance(k, str) else k[0] for k in catalog}


def test_source_has_messages() -> None:
    assert len(source_messages()) > 100
    assert len(plural_messages()) >= 4


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_message_missing_or_empty(lang: str) -> None:
    catalog = po(lang)
    missing = sorted(source_messages() - msgids(catalog))
    assert not missing, f"{lang}: missing {missing}"
    empty = sorted(str(k) for k, v in catalog.items() if not v.strip())
    assert not empty, f"{lang}: empty translations {empty}"
    unused = sorted(msgids(catalog) - source_messages())
    assert not unused, f"{lang}: messages no longer in the source {unused}"
    plurals = {k[0] for k in catalog if isinstance(k, tuple)}
    assert plurals == set(plural_messages()), f"{lang}: plural entries {plurals}"


# How many plural forms each language has, and a number for each form.
PLURAL_FORMS = {"de": (1, 2), "en": (1, 2), "fr": (1, 2), "es": (1, 2), "nb": (1, 2),
                "nl": (1, 2), "cs": (1, 3, 5), "pl": (1, 3, 5)}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_plural_forms(lang: str) -> None:
    """Every plural message has the language's number of forms, each different, and
    gettext picks the right one: "1 card", "2 cards"; Polish "1 karta", "3 karty", "5 kart"."""
    catalog = po(lang)
    t = translator(lang)
    for singular, plural in plural_messages().items():
        forms = [catalog[(singular, i)] for i in range(len(PLURAL_FORMS[lang]))]
        assert (singular, len(forms)) not in catalog, (lang, singular)
        for n, form in zip(PLURAL_FORMS[lang], forms, strict=True):
            assert t.ngettext(singular, plural, n) == form
        assert len(set(forms)) == len(forms) or lang in ("nb",) or not any(
            ch.isalpha() for ch in PLACEHOLDER.sub("", singular)), (lang, forms)
    one = t.ngettext("{n} card", "{n} cards", 1).format(n=1)
    assert "cards" not in one and "kart " not in one + " "


def test_polish_and_czech_card_counts() -> None:
    pl, cs = translator("pl"), translator("cs")
    assert [pl.ngettext("{n} card", "{n} cards", n).format(n=n) for n in (1, 3, 5, 22)] == [
        "1 karta", "3 karty", "5 kart", "22 karty"]
    assert [cs.ngettext("{n} card", "{n} cards", n).format(n=n) for n in (1, 3, 5)] == [
        "1 karta", "3 karty", "5 karet"]
    assert translator("en").ngettext("{n} card", "{n} cards", 1).format(n=1) == "1 card"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_placeholders_kept(lang: str) -> None:
    plurals = plural_messages()
    bad = []
    for k, v in po(lang).items():
        source = k if isinstance(k, str) else k[0]
        names = sorted(PLACEHOLDER.findall(source))
        if isinstance(k, tuple):  # a form for one number may leave the number out
            if not set(PLACEHOLDER.findall(v)) <= set(names + PLACEHOLDER.findall(
                    plurals.get(source, ""))):
                bad.append((k, v))
        elif names != sorted(PLACEHOLDER.findall(v)):
            bad.append((k, v))
    assert not bad, bad


def test_no_double_colon() -> None:
    """A sentence has at most one colon (the Czech computer prompt had two)."""
    for lang in LANGUAGES:
        for k, v in po(lang).items():
            assert v.count(":") <= 1, (lang, k, v)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_compiled_catalog_matches_source(lang: str) -> None:
    """The committed .mo says exactly what the .po says (recompile with msgfmt if not)."""
    mo = LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.mo"
    with mo.open("rb") as fh:
        compiled = gettext.GNUTranslations(fh)
    catalog = {k: v for k, v in compiled._catalog.items() if k}  # type: ignore[attr-defined]
    assert catalog == po(lang)


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
def test_translated_not_copied(lang: str) -> None:
    """Most messages differ from English (Skat terms like Grand, Null, Hand may not)."""
    catalog = po(lang)
    same = [k for k, v in catalog.items() if k == v and PLACEHOLDER.sub("", str(k)).strip()]
    assert len(same) < 0.2 * len(catalog), same


# A Skat glossary: the words players of each language use.
GLOSSARY = {
    "de": {"Bidding": "Reizen", "Forehand": "Vorhand", "Middlehand": "Mittelhand",
           "Rearhand": "Hinterhand", "trump": "Trumpf", "Pass": "Passe", "clubs": "Kreuz",
           "spades": "Pik", "hearts": "Herz", "diamonds": "Karo", "Take the skat":
           "Skat aufnehmen", "Kontra": "Kontra", "acorns": "Eichel", "bells": "Schellen",
           "Jack index letter": "B", "Score sheet": "Spielliste", "declarer": "Alleinspieler"},
    "en": {"Bidding": "Bidding", "trump": "trump", "Jack index letter": "J"},
    "fr": {"Bidding": "Enchères", "trump": "atout", "clubs": "trèfle", "spades": "pique",
           "hearts": "cœur", "diamonds": "carreau", "Jack index letter": "V",
           "Last trick": "Dernier pli", "Kontra": "Contre"},
    "es": {"Bidding": "Subasta", "trump": "triunfo", "clubs": "tréboles", "spades": "picas",
           "Last trick": "Última baza", "Forehand": "Mano", "Pass": "Paso"},
    "nb": {"trump": "trumf", "clubs": "kløver", "spades": "spar", "hearts": "hjerter",
           "diamonds": "ruter", "Forehand": "Forhånd", "Last trick": "Siste stikk"},
    "cs": {"Bidding": "Licitace", "trump": "trumf", "Forehand": "Forhont", "Pass": "Pas",
           "Last trick": "Poslední štych", "Kontra": "Flek"},
    "nl": {"Bidding": "Bieden", "trump": "troef", "clubs": "klaveren", "spades": "schoppen",
           "hearts": "harten", "diamonds": "ruiten", "Forehand": "Voorhand",
           "Jack index letter": "B", "Queen index letter": "V", "King index letter": "H"},
    "pl": {"Bidding": "Licytacja", "trump": "atut", "clubs": "trefl", "spades": "pik",
           "hearts": "kier", "diamonds": "karo", "Jack index letter": "W",
           "Last trick": "Ostatnia lewa"},
}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_skat_glossary(lang: str) -> None:
    t = translator(lang)
    wrong = {k: (t(k), v) for k, v in GLOSSARY[lang].items() if t(k) != v}
    assert not wrong, wrong


def test_contract_and_card_words() -> None:
    from engine.cards import Card
    de = translator("de")
    assert de.contract("CHS") == "Kreuz Hand Schneider angesagt"
    assert de.contract("GO") == "Grand Ouvert"
    assert de.contract("NOH") == "Null Hand Ouvert"
    assert de.card(Card.SA) == "Pik Ass"
    assert translator("de", german_suits=True).card(Card.DK) == "Schellen König"
    assert translator("en").card(Card.HT) == "10 of hearts"
    assert translator("fr").card(Card.CJ) == "valet de trèfle"
    assert translator("de", german_suits=True).rank_letters[4:] == ("U", "O", "K", "A")


def test_unknown_language_is_refused() -> None:
    with pytest.raises(OSError):
        translator("xx")


def test_glossary_document_matches_catalogs() -> None:
    """display/locale/GLOSSARY.md lists the Skat words per language as the catalogs say them."""
    lines = (LOCALE_DIR / "GLOSSARY.md").read_text(encoding="utf-8").splitlines()
    header = next(line for line in lines if line.startswith("| message id"))
    cells = header.strip("|").split("|")[1:]
    codes = [cell.strip().rsplit("(", 1)[1].rstrip(")") for cell in cells]
    assert codes == list(LANGUAGES)
    rows = [line for line in lines if line.startswith("| ") and not line.startswith(
        ("| message id", "| ---"))]
    assert len(rows) > 30
    for row in rows:
        cells = [c.strip() for c in row.strip().strip("|").split("|")]
        msgid, words = cells[0], cells[1:]
        for lang, word in zip(codes, words, strict=True):
            assert translator(lang)(msgid) == word, (msgid, lang)


def controller_refusals() -> list:
    """Refusals as the controller words them (English), made by real inputs."""
    from engine.deal import Deal
    from firmware_host.config import simulated_config
    from firmware_host.screen.viewmodel import fault_of
    from firmware_host.series.session import Session
    from firmware_host.table.inputs import Press, TagLaid

    session = Session(simulated_config(computer_seats=()))
    tags = session.config.card_tags()
    out = [session.submit(Press(0, "undo")).refusal,               # nothing to undo
           session.submit(Press(0, "bid")).refusal]                # still being dealt
    order = Deal.shuffled(3).dealt_order()
    out.append(session.submit(TagLaid("centre", tags[order[0]])).refusal)  # deal over deal
    for card in order:
        session.submit(TagLaid("deal", tags[card]))
    out.append(session.submit(TagLaid("centre", tags[order[0]])).refusal)  # bidding is on
    out.append(session.submit(Press(0, "skat")).refusal)           # the bidding is not over
    out.append(session.submit(Press(0, "concede")).refusal)        # only during play
    return [fault_of(r) for r in out if r is not None]


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
def test_refusal_details_in_the_tables_language(lang: str) -> None:
    """The controller's reasons are said in the table's language, never in English under
    another language's sentence; unknown ones are left out rather than shown in English."""
    from display.view import Fault
    from display.wording import fault_sentence, refusal_detail

    t, en = translator(lang), translator("en")
    faults = controller_refusals()
    assert len(faults) == 6
    for fault in faults:
        said = fault_sentence(fault, t, ("Anna", "Ben", "Carla"))
        detail = refusal_detail(fault, t)
        english = fault_sentence(fault, en, ("Anna", "Ben", "Carla"))
        assert said and said != english and said != fault.detail, (lang, fault.detail, said)
        assert detail != fault.detail
    unknown = Fault("contract-refused", detail="a reason no catalog has words for")
    assert refusal_detail(unknown, t) == ""
    assert refusal_detail(unknown, en) == "a reason no catalog has words for"
    played = Fault("not-in-hand", seat=1, card=None, detail="SA has already been played in trick 3")
    assert "3" in refusal_detail(played, t) and "played" not in refusal_detail(played, t)
