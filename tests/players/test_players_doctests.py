"""The examples in the players' docstrings are part of their documentation: they must hold."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "engine.players", "engine.players.base", "engine.players.evaluate",
    "engine.players.solver", "engine.players.rule", "engine.players.table",
    "engine.players.pimc", "engine.players.strength", "engine.players.analysis",
    "engine.players.hints", "engine.players.declaring", "engine.players.oracle",
    "engine.players.clues", "engine.players.decisions", "engine.players.nullcheck",
    "engine.players.ddshare", "engine.players.rollout", "engine.players.bench",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0, f"{name} has no examples"
    assert result.failed == 0
