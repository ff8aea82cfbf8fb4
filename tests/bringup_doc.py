"""The commands of docs/bring-up.md, in the order a person runs them.

A command is a line of an indented block (four spaces, after a blank line); ``#`` after a
space, outside quotes, starts a comment. Each carries the step it stands in. ``where`` says
where it can run: ``here`` (the probe, over emulated readers; the PC soak in a checkout) or
``pi`` (systemd, journald, /proc and /run of a running table: a Pi, or the twin's VM).

    python3 tests/bringup_doc.py [--here | --pi] [--quick] [FILE]

prints one ``STEP<TAB>WHERE<TAB>COMMAND`` line per command (``--quick``: with the cuts the
test makes: ``--passes`` 3, ``--watch`` 1 s, ``--deals`` 2). tests/controller/test_ctl_bringup.py
runs the ``here`` ones in order, exactly as written but for those cuts.
"""

from __future__ import annotations

import argparse
import re
import shlex
import sys
from dataclasses import dataclass
from pathlib import Path

DOC = Path(__file__).resolve().parents[1] / "docs" / "bring-up.md"
HERE_PROGRAMS = ("skat-table", ".venv/bin/python")
QUICK = {"--passes": "3", "--watch": "1", "--deals": "2"}


@dataclass(frozen=True)
class Command:
    step: str      # "2" for "## 2. Every reader answers ..."
    text: str      # the command as written, its comment cut off
    line: int      # 1-based line of the file

    @property
    def sudo(self) -> bool:
        return self.words[0] == "sudo"

    @property
    def words(self) -> list[str]:
        return shlex.split(self.text)

    @property
    def program(self) -> str:
        words = self.words
        return words[1] if words[0] == "sudo" else words[0]

    @property
    def where(self) -> str:
        return "here" if self.program in HERE_PROGRAMS else "pi"

    def quick(self) -> str:
        """The command with fewer passes, seconds and deals (the values after those options)."""
        text = self.text
        for option, value in QUICK.items():
            text = re.sub(rf"(?<=\s){re.escape(option)}\s+\d+", f"{option} {value}", text)
        return text


def cut_comment(line: str) -> str:
    """``line`` without a ``#`` comment (a ``#`` after whitespace, outside quotes).

    >>> cut_comment('grep -v "a # b" file   # why')
    'grep -v "a # b" file'
    """
    quote = ""
    for i, char in enumerate(line):
        if quote:
            if char == quote:
                quote = ""
        elif char in "'\"":
            quote = char
        elif char == "#" and (i == 0 or line[i - 1].isspace()):
            return line[:i].rstrip()
    return line.rstrip()


def commands(text: str) -> list[Command]:
    """Every command of a bring-up document, in order."""
    out: list[Command] = []
    step = ""
    previous_blank = True
    in_block = False
    for number, raw in enumerate(text.splitlines(), 1):
        heading = re.match(r"## (\d+)\. ", raw)
        if heading:
            step = heading.group(1)
        if raw.startswith("    ") and (in_block or previous_blank):
            in_block = True
            command = cut_comment(raw.strip())
            if command:
                out.append(Command(step, command, number))
        else:
            in_block = False
        previous_blank = not raw.strip()
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="tests/bringup_doc.py", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    which = parser.add_mutually_exclusive_group()
    which.add_argument("--here", action="store_true", help="only those that need no Pi")
    which.add_argument("--pi", action="store_true", help="only those that need a Pi (or the twin)")
    parser.add_argument("--quick", action="store_true", help="with the test's cuts")
    parser.add_argument("file", nargs="?", default=str(DOC))
    args = parser.parse_args(argv)
    for command in commands(Path(args.file).read_text(encoding="utf-8")):
        if (args.here and command.where != "here") or (args.pi and command.where != "pi"):
            continue
        text = command.quick() if args.quick else command.text
        print(f"{command.step}\t{command.where}\t{text}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
