"""The "journal" bench group: what a long series costs the table, by the series' length.

For each length N (games in one open series, played by the computer on simulated hands into
a journal in a temporary directory), in a child process of its own so that its memory is its
own:

- ``journal_open_N_s``: opening the journal, both copies verified record by record;
- ``journal_resume_N_s``: opening it and replaying the series into a fresh controller, as
  after a power cut (what ``skat-table run`` does before READY); ``journal_replay_N_s`` the
  replay alone (from the journal's checkpoint a few deals back);
- ``journal_undo_across_deal_N_s``: one undo that crosses into the previous deal (the next
  deal's first card laid, taken back, then the previous deal's last input taken back);
- ``journal_card_N_ms``: a card laid (dealt) at the end of the series, journal included, the
  median over the next deal's cards; ``journal_deal_start_N_ms`` the first of them, which
  starts the deal (the controller keeps the state at a deal's start for undo);
- ``journal_rss_N_mb``: the peak resident memory of the process that did all of that (the
  series is built by another).

The lengths are 100 and 1,000 games (``quick``: 20); ``SKAT_BENCH_JOURNAL_GAMES=100,10000``
chooses others. Building a long series takes a while: the journal is written in one batch
(one commit), the way a played series is not, but the records are the same.
"""

from __future__ import annotations

import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

LENGTHS = (100, 1000)
QUICK_LENGTHS = (20,)


def _lengths(quick: bool) -> tuple[int, ...]:
    chosen = os.environ.get("SKAT_BENCH_JOURNAL_GAMES", "").strip()
    if chosen:
        return tuple(int(x) for x in chosen.split(",") if x.strip())
    return QUICK_LENGTHS if quick else LENGTHS


def measure(path: Path, games: int, seed: int = 36) -> dict[str, float]:
    """The figures of one length, on the open series of ``games`` games at ``path`` (played
    by :func:`~firmware_host.series.latency.journal_of_series`; run in a child)."""
    import resource

    from engine.deal import Deal
    from firmware_host.config import simulated_config
    from firmware_host.series.journal import Journal
    from firmware_host.series.session import Session
    from firmware_host.table.inputs import Press, TagLaid

    cfg = simulated_config(series_length=None, seed=seed)
    t0 = time.perf_counter()
    journal = Journal.open(path)
    opened = time.perf_counter() - t0
    records = journal.records
    journal.close()

    t0 = time.perf_counter()
    journal = Journal.open(path)
    t1 = time.perf_counter()
    session = Session(cfg, journal, computer_seats=cfg.computer.seats)
    session.resume()
    resumed = time.perf_counter() - t0
    replayed = time.perf_counter() - t1
    assert len(session.table.finished_deals) == games, len(session.table.finished_deals)

    # the next deal, card by card over the deal reader, as a dealer lays them
    tags = cfg.card_tags()
    cards = list(Deal.random(random.Random(seed + games)).dealt_order())
    took = []
    for card in cards:
        t0 = time.perf_counter()
        out = session.submit(TagLaid("deal", tags[card]), "table")
        took.append(time.perf_counter() - t0)
        assert out.status == "accepted", out
    # back over the whole deal and one input further, into the previous deal
    for _ in cards:
        session.submit(Press(0, "undo"), "table")
    t0 = time.perf_counter()
    out = session.submit(Press(0, "undo"), "table")
    undone = time.perf_counter() - t0
    assert out.status == "accepted", out
    journal.close()
    rss_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return {
        f"journal_open_{games}_s": round(opened, 4),
        f"journal_resume_{games}_s": round(resumed, 4),
        f"journal_replay_{games}_s": round(replayed, 4),
        f"journal_undo_across_deal_{games}_s": round(undone, 4),
        f"journal_card_{games}_ms": round(1000 * statistics.median(took), 3),
        f"journal_deal_start_{games}_ms": round(1000 * took[0], 3),
        f"journal_rss_{games}_mb": round(rss_kb / 1024, 1),
        f"journal_records_{games}": float(records),
    }


def _in_child(code: str, games: int) -> Any:
    """Run ``code`` in a fresh interpreter; the JSON of its last line of output."""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=False, cwd=Path(__file__).resolve().parents[2])
    if done.returncode != 0:
        raise RuntimeError(f"journal bench at {games} games failed: {done.stderr[-2000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def _length(games: int, tmp: str) -> dict[str, float]:
    path = Path(tmp) / f"journal-{games}.sqlite"
    head = ("import json\nfrom pathlib import Path\n"
            "from firmware_host.series.journalbench import measure\n"
            "from firmware_host.series.latency import journal_of_series\n")
    _in_child(head + f"print(journal_of_series(Path({str(path)!r}), {games}, "
              "open_series=True))", games)
    figures: dict[str, float] = _in_child(
        head + f"print(json.dumps(measure(Path({str(path)!r}), {games})))", games)
    return figures


def bench(quick: bool = False) -> dict[str, Any]:
    figures: dict[str, Any] = {}
    with tempfile.TemporaryDirectory(prefix="skat-bench-journal-") as tmp:
        for games in _lengths(quick):
            figures.update(_length(games, tmp))
    return figures
