"""The examples in the engine's docstrings are part of its documentation: they must hold."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "engine.cards", "engine.contract", "engine.deal", "engine.actions", "engine.trick",
    "engine.bidding", "engine.scoring", "engine.ramsch", "engine.game",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0, f"{name} has no examples"
    assert result.failed == 0
