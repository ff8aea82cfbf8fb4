"""A value as an error message quotes it: its ``repr``, cut short when long.

Config files are written by people and read from disk: a value may be 10 kB (a pasted file, a
runaway editor macro). An error line that repeated it in full would be unreadable on the
screen and in the journal, so every message that quotes a value the user gave goes through
:func:`quoted`.

>>> quoted("kitchen")
"'kitchen'"
>>> quoted("a" * 10_000)
"'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa…' (10,000 characters)"
>>> quoted(list(range(1000)))
'[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16,…] (1,000 items)'
"""

from __future__ import annotations

from collections.abc import Sized

QUOTED_LENGTH = 60  # characters of a value shown in an error message (before its length)


def quoted(value: object, limit: int = QUOTED_LENGTH) -> str:
    """``repr(value)``, or if longer than ``limit``: its start, an ellipsis and the length."""
    text = repr(value)
    if len(text) <= limit:
        return text
    if isinstance(value, str):
        # repr's own quote character, so the cut value still reads as text
        return f"{text[:limit - 2]}…{text[0]} ({len(value):,} characters)"
    if isinstance(value, bytes):
        return f"{text[:limit - 2]}…{text[-1]} ({len(value):,} bytes)"
    if isinstance(value, Sized) and text[-1] in ")]}":
        try:
            return f"{text[:limit - 2]}…{text[-1]} ({len(value):,} items)"
        except TypeError:  # a __len__ that fails: show the characters instead
            pass
    return f"{text[:limit - 1]}… ({len(text):,} characters)"


def cut(text: str, limit: int, *, middle: bool = False) -> str:
    """``text``, or if longer than ``limit``: its start, an ellipsis and the length, in
    ``limit`` characters in all; with ``middle``, its start and end (a path's name is at its
    end).

    >>> cut("[table] " + "k" * 500, 40)
    '[table] kkkkkkkkkkkkkk… (508 characters)'
    >>> cut("/home/" + "d/" * 100 + "table.toml", 50, middle=True)
    '/home/d/d/d/d/d/…d/d/d/table.toml (216 characters)'
    """
    if len(text) <= limit:
        return text
    suffix = f" ({len(text):,} characters)"
    keep = max(limit - len(suffix) - 1, 2)
    if middle:
        head = keep // 2
        return f"{text[:head]}…{text[len(text) - (keep - head):]}{suffix}"
    return f"{text[:keep]}…{suffix}"
