"""The examples in the controller's docstrings are true."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = ["config", "inputs", "controller", "journal", "session", "sdnotify"]


@pytest.mark.parametrize("name", MODULES)
def test_doctests(name: str) -> None:
    module = importlib.import_module(f"firmware_host.{name}")
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0, f"firmware_host.{name} has no examples"
    assert result.failed == 0
