"""Reading a gettext catalog's source (``.po``) in the tests: the kiosk's and the club's
catalogs are checked for completeness and against each other."""

from __future__ import annotations

from pathlib import Path


def read_po(path: Path) -> dict[str | tuple[str, int], str]:
    """The msgid -> msgstr pairs of a ``.po`` file (the subset of the format the catalogs use:
    no contexts; continuation lines joined); a plural entry gives ``(msgid, i)`` -> form ``i``,
    as ``gettext`` keeps them. The header entry is left out."""
    entries: dict[str | tuple[str, int], str] = {}
    key: str | None = None
    current: list[str] = []
    msgid = ""

    def unquote(s: str) -> str:
        s = s.strip()
        if not (s.startswith('"') and s.endswith('"')):
            raise ValueError(f"{path}: expected a quoted string, got {s!r}")
        return bytes(s[1:-1], "utf-8").decode("unicode_escape").encode("latin-1").decode(
            "utf-8")

    def flush() -> None:
        nonlocal msgid
        if key == "msgid":
            msgid = "".join(current)
        elif key == "msgstr" and msgid:
            entries[msgid] = "".join(current)
        elif key is not None and key.startswith("msgstr[") and msgid:
            entries[(msgid, int(key[7:-1]))] = "".join(current)

    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        word, _, rest = line.partition(" ")
        if word == "msgid":
            flush()
            key, current = "msgid", [unquote(rest)]
        elif word == "msgid_plural":
            flush()
            key, current = "msgid_plural", [unquote(rest)]
        elif word == "msgstr" or (word.startswith("msgstr[") and word.endswith("]")):
            flush()
            key, current = word, [unquote(rest)]
        elif line.startswith('"'):
            current.append(unquote(line))
        else:
            raise ValueError(f"{path}: cannot read line {raw!r}")
    flush()
    return entries
