"""Tag UIDs as the table writes them: lower-case hex of the 4, 7 or 10 UID bytes.

>>> normalize_uid("04:A2:24:B2:C9:4F:80")
'04a224b2c94f80'
>>> normalize_uid("xyz")
Traceback (most recent call last):
...
drivers.uids.UidError: 'xyz' is not a tag UID: write it as hex digits, e.g. 04a224b2c94f80
"""

from __future__ import annotations

import string

from drivers.quoting import quoted

UID_LENGTHS = (4, 7, 10)


class UidError(ValueError):
    """A UID written wrongly."""


def normalize_uid(text: str) -> str:
    """Lower-case hex without separators; accepts ``:``, ``-`` and spaces between bytes."""
    cleaned = "".join(ch for ch in str(text).strip() if ch not in ": -").lower()
    if not cleaned or any(ch not in string.hexdigits for ch in cleaned) or len(cleaned) % 2:
        raise UidError(
            f"{quoted(text)} is not a tag UID: write it as hex digits, e.g. 04a224b2c94f80"
        )
    if len(cleaned) // 2 not in UID_LENGTHS:
        raise UidError(
            f"{quoted(text)} has {len(cleaned) // 2} bytes: a tag UID has 4, 7 or 10 bytes"
        )
    return cleaned


def uid_hex(uid: bytes) -> str:
    """The table's spelling of a UID read from a tag.

    >>> uid_hex(bytes([4, 0xA2, 0x24, 0xB2]))
    '04a224b2'
    """
    return uid.hex()
