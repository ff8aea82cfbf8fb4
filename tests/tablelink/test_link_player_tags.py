"""`skat-table enroll --players`: a tag per player id; a card's tag is never a player tag."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from engine.cards import Card
from firmware_host.clubside.playertags import PlayerTagError, PlayerTags, load_player_tags
from firmware_host.config import load_config

ROOT = Path(__file__).resolve().parents[2]
CONFIG = ROOT / "tests" / "data" / "configs" / "three.toml"


def test_enroll_players_from_a_uid_file(tmp_path) -> None:
    card_uid = load_config(CONFIG).card_tags()[Card.CJ]
    uids = tmp_path / "uids.txt"
    uids.write_text(f"04d0a0000000aa\n{card_uid}\n04d0a0000000aa\n04e0a0000000bb\n")
    out = tmp_path / "players.toml"
    proc = subprocess.run(
        [sys.executable, "-m", "firmware_host", "enroll", "--players", "p17", "p4",
         "--config", str(CONFIG), "--uids", str(uids), "--out", str(out)],
        cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert f"refused: tag {card_uid} is a card of a deck" in proc.stderr
    assert "already p17's player tag" in proc.stderr
    tags = load_player_tags(out)
    assert tags.by_player == {"p17": "04d0a0000000aa", "p4": "04e0a0000000bb"}


def test_player_tag_files_are_checked() -> None:
    with pytest.raises(PlayerTagError, match="not a tag UID"):
        PlayerTags({"p1": "xyz"})
    with pytest.raises(PlayerTagError, match="not a player id"):
        PlayerTags({"a b": "04d0a0000000aa"})
    with pytest.raises(PlayerTagError, match="already"):
        PlayerTags({"p1": "04d0a0000000aa", "p2": "04D0A0000000AA"})
