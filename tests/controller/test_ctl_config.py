"""The config: every key checked, and a wrong one is one clear line naming it, exit status 2."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from engine.cards import Card
from firmware_host.config import ConfigError, load_config

ROOT = Path(__file__).resolve().parents[2]
GOOD = (ROOT / "tests" / "data" / "configs" / "three.toml").read_text(encoding="utf-8")
TABLE, DECK = GOOD.split("[deck]")


def write(tmp_path: Path, text: str) -> Path:
    p = tmp_path / "table.toml"
    p.write_text(text, encoding="utf-8")
    return p


def test_the_test_config_loads(tmp_path: Path) -> None:
    cfg = load_config(write(tmp_path, GOOD))
    assert cfg.table.players == ("Anna", "Ben", "Carla")
    assert cfg.table.first_dealer == 2 and cfg.table.rules == "isko"
    assert cfg.table.scoring == "standard" and len(cfg.deck) == 32
    assert sorted(cfg.deck.values()) == list(Card)


def test_full_config_with_every_section(tmp_path: Path) -> None:
    text = TABLE.replace("first_dealer = 2", """first_dealer = 1
rules = "pub"
scoring = "seeger-fabian"
language = "en"
deal_mode = "seats"
series_length = 36
""") + """
[house]
kontra_re = true
ramsch = true
bock = ["sixty", "value:100"]

[[readers]]
kind = "mfrc522"
zone = "centre"
chip_select = 0

[[readers]]
kind = "serial"
zone = "deal"
port = "/dev/serial/by-path/usb-0"

[gpio]
buzzer = 18
led = 23
[gpio.seat0]
bid = 5
pass = 6

[computer]
seats = [2]
player = "rule"
budget_ms = 200
seed = 4

[journal]
data_dir = "data"

[display]
size = [800, 480]
fullscreen = true

[deck]""" + DECK
    cfg = load_config(write(tmp_path, text))
    assert cfg.table.series_length == 36 and cfg.table.deal_mode == "seats"
    assert cfg.house["kontra_re"] is True and cfg.house["bock"] == ("sixty", "value:100")
    assert [r["zone"] for r in cfg.readers] == ["centre", "deal"]
    assert cfg.gpio["seat0"] == {"bid": 5, "pass": 6} and cfg.gpio["buzzer"] == 18
    assert cfg.computer.seats == (2,) and cfg.data_dir == tmp_path / "data"


BAD = [
    (TABLE.replace('["Anna", "Ben", "Carla"]', '["Anna", "Ben"]') + "[deck]" + DECK,
     "[table] players", "3 or 4"),
    (TABLE.replace('["Anna", "Ben", "Carla"]', '["Anna", "Anna", "Ben"]') + "[deck]" + DECK,
     "[table] players", "same name"),
    (TABLE.replace("first_dealer = 2", "first_dealer = 3") + "[deck]" + DECK,
     "[table] first_dealer", "0..2"),
    (TABLE.replace("first_dealer = 2", 'first_dealer = "2"') + "[deck]" + DECK,
     "[table] first_dealer", "whole number"),
    (TABLE + 'rules = "casino"\n[deck]' + DECK, "[table] rules", "'isko'"),
    (TABLE + 'scoring = "golf"\n[deck]' + DECK, "[table] scoring", "seeger-fabian"),
    (TABLE + 'violations = "strict"\n[deck]' + DECK, "[table] violations", "'isko'"),
    (TABLE + 'colour = "red"\n[deck]' + DECK, "[table] colour", "unknown key"),
    (TABLE + "series_length = 0\n[deck]" + DECK, "[table] series_length", "deals from 1 to 1000"),
    (TABLE + "[house]\nkontra_re = true\n[deck]" + DECK, "[house] kontra_re", "pub"),
    (TABLE + 'stake = "five cents"\n[deck]' + DECK, "[table] stake", 'stake = "0.05"'),
    (TABLE + 'stake = "-0.05"\n[deck]' + DECK, "[table] stake", "from 0 to 1000"),
    (TABLE + 'stake = "NaN"\n[deck]' + DECK, "[table] stake", "from 0 to 1000"),
    (TABLE + "stake = true\n[deck]" + DECK, "[table] stake", "amount of money"),
    (TABLE + 'stake = "0.05"\ncap = 0\n[deck]' + DECK, "[table] cap", "points from 1 to 100000"),
    (TABLE + 'stake = "0.05"\ncap = "200"\n[deck]' + DECK, "[table] cap", "whole number"),
    (TABLE + "cap = 200\n[deck]" + DECK, "[table] cap", "set a stake"),
    (TABLE + '[house]\nbock = ["sixty"]\n[deck]' + DECK, "[house] bock", 'rules = "pub"'),
    (TABLE + 'rules = "pub"\n[house]\nbock = ["sixty-sixty"]\n[deck]' + DECK,
     "[house] bock", "unknown Bock trigger"),
    (TABLE + 'rules = "pub"\n[house]\nbock = "sixty"\n[deck]' + DECK, "[house] bock",
     "list of triggers"),
    (TABLE + "[deck]" + DECK.replace('CJ = "', 'XJ = "'), "[deck] XJ", "not a card"),
    (TABLE + "[deck]" + DECK.replace('CJ = "04', 'CJ = "zz'), "[deck] CJ", "tag UID"),
    (TABLE + "[deck]" + "\n".join(DECK.splitlines()[:-1]), "[deck]", "missing DA"),
    (TABLE + '[deck]\ndeck = "nowhere.toml"\n', "[deck] deck", "no such deck file"),
    (TABLE + "[computer]\nseats = [5]\n[deck]" + DECK, "[computer] seats", "does not exist"),
    (TABLE + "[gpio]\nbuzzer = 40\n[deck]" + DECK, "[gpio.buzzer]", "40 is not a valid pin"),
    (TABLE + "[gpio.seat0]\nbid = 5\npass = 5\n[deck]" + DECK, "[gpio.seats[0].pass]",
     "already used"),
    (TABLE + "[gpio.seat3]\nbid = 5\n[deck]" + DECK, "[gpio.seat3]", "no seat 3"),
    (TABLE + '[[readers]]\nkind = "mfrc522"\nzone = "centre"\n[[readers]]\nkind = "mfrc522"'
     '\nzone = "deal"\n[deck]' + DECK, "[readers[1]]", "already used"),
    (TABLE + '[[readers]]\nkind = "nfc"\nzone = "centre"\n[deck]' + DECK,
     "[readers[0]]", "type must be"),
    (TABLE + '[[readers]]\nkind = "mfrc522"\nzone = "kitchen"\n[deck]' + DECK,
     "[readers[0]]", "no zone 'kitchen'"),
    (TABLE + "[bogus]\n[deck]" + DECK, "[bogus]", "unknown section"),
    (TABLE + "[display]\nsize = [800]\n[deck]" + DECK, "[display] size", "[width, height]"),
    (TABLE + "[display]\nrotate = 45\n[deck]" + DECK, "[display] rotate", "0, 90, 180 or 270"),
    (TABLE + '[display]\ndeck_style = "tarot"\n[deck]' + DECK, "[display] deck_style",
     "'german'"),
    (TABLE + '[computer]\nplayer = "kermit"\n[deck]' + DECK, "[computer] player", "'rule'"),
    (TABLE + '[computer]\nlevel = "grandmaster"\n[deck]' + DECK, "[computer] level",
     "'beginner', 'club', 'expert'"),
    (TABLE + '[computer]\nlevel = 2\n[deck]' + DECK, "[computer] level", "not one of"),
    (TABLE + '[computer]\nlevel = "expert"\nplayer = "pimc"\n[deck]' + DECK,
     "[computer] level", "not both"),
    (TABLE + '[computer]\nlevel = "expert"\nbudget_ms = 900\n[deck]' + DECK,
     "[computer] level", "not both"),
    ("[table\nplayers = 3", "table.toml", "not valid TOML"),
    ("[deck]" + DECK, "[table]", "missing"),
]


@pytest.mark.parametrize(("text", "key", "words"), BAD)
def test_a_wrong_config_names_the_key(tmp_path: Path, text: str, key: str, words: str) -> None:
    with pytest.raises(ConfigError) as err:
        load_config(write(tmp_path, text))
    message = str(err.value)
    assert key in message and words in message, message


def test_the_computer_plays_at_the_level_the_config_names(tmp_path: Path) -> None:
    from firmware_host.table.computers import make_player

    assert load_config(write(tmp_path, TABLE + "[deck]" + DECK)).computer.player == "club"
    for level in ("beginner", "club", "Expert"):
        cfg = load_config(write(tmp_path, TABLE + f'[computer]\nseats = [1]\nlevel = "{level}"'
                                '\n[deck]' + DECK))
        assert cfg.computer.player == level.lower()
        player = make_player(cfg.computer.player, cfg.computer.seed, cfg.computer.budget_ms)
        assert player.name == level.lower()
    # a player by name keeps working, with its own thinking time
    cfg = load_config(write(tmp_path, TABLE + '[computer]\nplayer = "pimc"\nbudget_ms = 900'
                            '\n[deck]' + DECK))
    assert (cfg.computer.player, cfg.computer.budget_ms) == ("pimc", 900)


def test_stake_cap_and_bock_reach_the_series(tmp_path: Path) -> None:
    from decimal import Decimal

    from firmware_host.table.controller import Table

    text = TABLE + 'rules = "pub"\nstake = "0.1"\ncap = 200\n[house]\n' \
        'bock = ["sixty", "value:100"]\n[deck]' + DECK
    cfg = load_config(write(tmp_path, text))
    assert cfg.table.stake == Decimal("0.1") and cfg.table.cap == 200
    series = Table(cfg).series
    assert (series.stake, series.cap) == (Decimal("0.1"), 200)
    assert series.bock.triggers == ("sixty", "value:100")
    # A TOML number is read as written (0.1 stays exactly 0.1); no stake: no settlement.
    assert load_config(write(tmp_path, TABLE + "stake = 0.1\n[deck]" + DECK)).table.stake \
        == Decimal("0.1")
    assert Table(load_config(write(tmp_path, GOOD))).settlement() is None


def test_a_second_deck_file_is_read_relative_to_the_config(tmp_path: Path) -> None:
    (tmp_path / "deck.toml").write_text("[deck]" + DECK, encoding="utf-8")
    cfg = load_config(write(tmp_path, TABLE + '[deck]\ndeck = "deck.toml"\n'))
    assert len(cfg.deck) == 32


@pytest.mark.parametrize(("command", "key", "bad"), [
    ("replay", "[table] first_dealer", "first_dealer = 9"),
    ("run", "[table] first_dealer", "first_dealer = 9"),
    ("replay", "[table] stake", 'first_dealer = 2\nstake = "a lot"'),
])
def test_cli_exit_status_2_one_line_no_traceback(tmp_path: Path, command: str, key: str,
                                                 bad: str) -> None:
    cfg = write(tmp_path, TABLE.replace("first_dealer = 2", bad) + "[deck]" + DECK)
    script = tmp_path / "s.jsonl"
    script.write_text("", encoding="utf-8")
    args = [str(cfg), str(script)] if command == "replay" else ["--config", str(cfg)]
    proc = subprocess.run([sys.executable, "-m", "firmware_host", command, *args],
                          capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert proc.returncode == 2
    assert proc.stdout == ""
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and key in lines[0]
    assert "Traceback" not in proc.stderr


def test_enrolment_reads_the_config_without_its_deck(tmp_path: Path) -> None:
    # The example config names the deck file that enrolment is about to write.
    path = write(tmp_path, TABLE + '[deck]\ndeck = "not-yet.toml"\n')
    with pytest.raises(ConfigError):
        load_config(path)
    cfg = load_config(path, without_deck=True)
    assert cfg.deck == {} and cfg.table.players == ("Anna", "Ben", "Carla")


def test_violations_isko_reaches_the_engine_and_the_journal_fingerprint(tmp_path: Path) -> None:
    from firmware_host.config import config_from_fingerprint
    from firmware_host.series.session import Session
    from firmware_host.table.controller import engine_rules

    path = tmp_path / "t.toml"
    path.write_text(TABLE + 'violations = "isko"\n[deck]' + DECK)
    cfg = load_config(path)
    assert cfg.table.violations == "isko" and engine_rules(cfg).isko_violations
    fp = Session(cfg, None).fingerprint()
    assert fp["violations"] == "isko"
    assert config_from_fingerprint(fp).table.violations == "isko"
    path.write_text(TABLE + "[deck]" + DECK)
    plain = load_config(path)
    assert plain.table.violations == "refuse" and not engine_rules(plain).isko_violations
    assert "violations" not in Session(plain, None).fingerprint()  # old journals still match


# ---- a long value in any key: the error line quotes it cut short, and still names the key ----

LONG_TEXT = "a" * 10_000
LONG_LIST = ["abcdefghi"] * 1_000  # about 13 kB written out
SHORT_ENOUGH = 200  # characters of an error line, whatever the value


def _base() -> dict:
    import tomllib

    raw = tomllib.loads(GOOD)
    raw["table"]["rules"] = "pub"  # the house rules need it
    return raw


def _known_keys(section: str) -> list[str]:
    """The keys a section knows, as its own "unknown key" error lists them."""
    from firmware_host.config import parse_config

    raw = _base()
    raw[section] = {**(CLUB if section == "club" else {}), "zz-unknown": 1}
    with pytest.raises(ConfigError) as err:
        parse_config(raw)
    return str(err.value).split("known: ", 1)[1].split(", ")


CLUB = {"broker": "mqtt://club.local:1883", "club": "skc", "table": "7", "password_file": "pw"}
SERIAL = {"type": "serial", "port": "/dev/serial/by-path/usb-0", "zone": "deal"}
SPI = {"type": "mfrc522", "zone": "centre"}
READER_KEYS = ["type", "kind", "zone", "port", "readers", "reader", "name", "baudrate",
               "heartbeat_timeout", "spi_bus", "spi_device", "chip_select", "reset_pin",
               "gain_db", "speed_hz"]
GPIO_KEYS = ["buzzer", "led", "seats", "seat0", "bounce_time", "hold_time", "seat0.bid",
             "seat0.pass", "seat0.light", "seat0.undo"]


def _long_value_cases() -> list[tuple[str, str, str]]:
    """(section, key, "text" or "list") for every key the config has."""
    keys = [(s, k) for s in ("table", "house", "computer", "journal", "display", "club")
            for k in _known_keys(s)]
    keys += [("readers.serial", k) for k in READER_KEYS] + [("readers.spi", k)
                                                              for k in READER_KEYS]
    keys += [("gpio", k) for k in GPIO_KEYS]
    keys += [("deck", k) for k in ("CJ", "deck", "XJ")]
    return [(s, k, kind) for s, k in keys for kind in ("text", "list")]


def _with_long_value(section: str, key: str, value: object) -> dict:
    raw = _base()
    if section == "club":
        raw["club"] = {**CLUB, key: value}
    elif section.startswith("readers."):
        raw["readers"] = [{**(SERIAL if section.endswith("serial") else SPI), key: value}]
    elif section == "gpio":
        if key.startswith("seat0."):
            raw["gpio"] = {"seat0": {"bid": 5, "pass": 6, key[6:]: value}}
        else:
            raw["gpio"] = {"buzzer": 27, key: value}
    elif section == "deck":
        if key == "deck":
            raw["deck"] = {"deck": value}
        else:
            raw["deck"][key] = value
    else:
        raw.setdefault(section, {})[key] = value
    return raw


@pytest.mark.parametrize(("section", "key", "kind"), _long_value_cases())
def test_a_long_value_gives_a_short_error_line_naming_the_key(
        tmp_path: Path, section: str, key: str, kind: str) -> None:
    from firmware_host.config import parse_config

    raw = _with_long_value(section, key, LONG_TEXT if kind == "text" else LONG_LIST)
    try:
        parse_config(raw, base_dir=tmp_path)
    except ConfigError as exc:
        message = str(exc)
    else:
        return  # a key that takes any text (a name, a directory): nothing to show
    assert "\n" not in message
    assert len(message) <= SHORT_ENOUGH, message[:300]
    assert key.split(".")[-1] in message, message[:300]
    # The value, if shown, is cut with its length said.
    assert "aaaaaaaaaa" * 7 not in message and "abcdefghi', 'abcdefghi', " * 7 not in message


def test_long_values_are_shown_cut_with_their_length() -> None:
    from firmware_host.config import parse_config

    raw = _with_long_value("table", "rules", LONG_TEXT)
    with pytest.raises(ConfigError) as err:
        parse_config(raw)
    assert "'aaaa" in str(err.value) and "…' (10,000 characters)" in str(err.value)


def test_a_long_key_or_section_name_is_cut_too() -> None:
    from firmware_host.config import parse_config

    for where in ("table", None):
        raw = _base()
        if where:
            raw[where]["k" * 10_000] = 1
        else:
            raw["s" * 10_000] = {}
        with pytest.raises(ConfigError) as err:
            parse_config(raw)
        assert len(str(err.value)) <= 80 + 2 + 160, str(err.value)[:300]  # the caps
