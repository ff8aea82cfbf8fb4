"""The table's results as JSON: the object ``replay --json`` prints (DESIGN.md, "Contracts"),
one finished deal as its ``games`` entry (also the club's game message carries it), and the
money of a series with a stake.
"""

from __future__ import annotations

from typing import Any


def result_json(session: Any) -> dict[str, Any]:
    """The replay result as DESIGN.md fixes it."""
    table = session.table
    games = [deal_json(d) for d in table.finished_deals]
    out: dict[str, Any] = {"games": games, "totals": table.totals()}
    if table.config.table.scoring == "seeger-fabian":
        out["seeger_fabian"] = table.seeger_fabian()
    out["rejected"] = [{"line": r.line, "reason": r.reason} for r in session.rejected]
    out["phase"] = table.phase
    settled = table.settlement()
    if settled is not None:  # only when the config sets a stake: DESIGN's keys stay as they are
        out["settlement"] = settlement_json(settled, table.series.cap)
    return out


def deal_json(d: Any) -> dict[str, Any]:
    """One finished deal as a ``games`` entry of the result."""
    entry = d.entry.to_json()
    if not d.result.passed_in and d.declared is not None:
        entry["contract"] = d.declared  # as declared: "GHZ" stays "GHZ"
    return entry


def settlement_json(settled: Any, cap: int | None) -> dict[str, Any]:
    """The money as exact decimal text: ``amounts`` per seat (+ receives), ``payments``."""
    from firmware_host.table.gamelog import money_text

    return {
        "stake": str(settled.stake), "cap": cap, "points": list(settled.points),
        "amounts": [money_text(a) for a in settled.amounts],
        "payments": [{"payer": p.payer, "payee": p.payee, "amount": money_text(p.amount)}
                     for p in settled.payments],
    }
