"""The one error of a config that the table cannot use: it names the key and says what is wrong.

It sits below :mod:`firmware_host.config` and the ``[club]`` section's
:mod:`firmware_host.clubside.clubconfig`, which both raise it; the command line prints its one
line and exits with status 2.

>>> raise ConfigError("[table] first_dealer", "must be a seat 0..2, not 9")
Traceback (most recent call last):
...
firmware_host.configerror.ConfigError: [table] first_dealer: must be a seat 0..2, not 9
"""

from __future__ import annotations


class ConfigError(ValueError):
    """A config value that the table cannot use; the message starts with the key."""

    def __init__(self, key: str, problem: str) -> None:
        super().__init__(f"{key}: {problem}")
        self.key = key
        self.problem = problem
