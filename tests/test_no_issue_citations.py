"""Code, tests and docs name what they do: none of them cites a tracker's issue number, which a
reader of the project cannot look up ("before issue N" says nothing; "the 2025 rule player"
does)."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# Built from parts so that this file does not cite itself.
CITATION = re.compile(r"(?i)\b" + "issue" + r"s?\s*(?:#\s*)?\d+")
TEXT = (".py", ".md", ".c", ".toml", ".txt", ".sh", ".service", ".in", ".html", ".js", ".css",
        ".po", ".csv", "")


def _tracked_text_files() -> list[Path]:
    out = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True,
                         timeout=60)
    if out.returncode != 0:  # an exported tree without git: every file under the root
        return [p for p in ROOT.rglob("*") if p.is_file() and ".git" not in p.parts
                and ".venv" not in p.parts]
    return [ROOT / name for name in out.stdout.splitlines()]


def test_no_file_cites_an_issue_number() -> None:
    found = []
    for path in _tracked_text_files():
        if path.suffix not in TEXT or not path.is_file():
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        for number, line in enumerate(text.splitlines(), 1):
            if CITATION.search(line):
                found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()[:100]}")
    assert not found, f"{len(found)} citations of issue numbers:\n" + "\n".join(found)


def test_the_check_sees_a_citation() -> None:
    word = "Iss" + "ue"  # not written whole, so that this file does not cite itself
    assert CITATION.search(f"the rule player before {word} 12")
    assert CITATION.search(f"({word.lower()}s #3")
    assert not CITATION.search("a known issue with 2 readers")
