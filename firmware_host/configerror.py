"""The one error of a config that the table cannot use: it names the key and says what is wrong.

It sits below :mod:`firmware_host.config` and the ``[club]`` section's
:mod:`firmware_host.clubside.clubconfig`, which both raise it; the command line prints its one
line and exits with status 2.

>>> raise ConfigError("[table] first_dealer", "must be a seat 0..2, not 9")
Traceback (most recent call last):
...
firmware_host.configerror.ConfigError: [table] first_dealer: must be a seat 0..2, not 9

A value the message quotes goes through :func:`quoted` (cut to 60 characters, its length
said). Key and problem are cut too, as a last resort for text quoted elsewhere (a driver's
check, a library's message): the line stays short whatever the config holds.
"""

from __future__ import annotations

from drivers.quoting import cut

MAX_KEY = 80  # characters of the key in the message: a section or key name may be user text
MAX_PROBLEM = 160


class ConfigError(ValueError):
    """A config value that the table cannot use; the message starts with the key."""

    def __init__(self, key: str, problem: str) -> None:
        key, problem = cut(key, MAX_KEY, middle=True), cut(problem, MAX_PROBLEM)
        super().__init__(f"{key}: {problem}")
        self.key = key
        self.problem = problem
