"""The examples in the docstrings are part of the documentation: they must hold, in every
package. The modules are found by their source (a module that is given examples later is
not forgotten, as ``engine.iss``, ``engine.players.house`` and all of ``drivers``,
``display`` and ``club`` once were by hand-kept lists)."""

from __future__ import annotations

import doctest
import importlib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("engine", "drivers", "display", "firmware_host", "club", "lab")
MODULES = sorted(
    ".".join(p.relative_to(ROOT).with_suffix("").parts)
    for package in PACKAGES for p in (ROOT / package).rglob("*.py")
    if ">>>" in p.read_text(encoding="utf-8"))


def test_the_modules_with_examples_are_found() -> None:
    assert {"engine.cards", "engine.players.pimc", "drivers.mfrc522", "display.view",
            "lab.duelgames", "firmware_host.clubside.link.ledger", "club.scoring"
            } <= set(MODULES)


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")  # display modules, without a screen
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0, f"{name} has no examples"
    assert result.failed == 0
