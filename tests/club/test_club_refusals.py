"""No message can stop the club server: whatever a table publishes is counted, held or refused
(kept in the refused list with its reason), in process, never an exception. Only a failing
store raises (then nothing is acknowledged and the broker keeps the message).

The shapes are the ones a real evening produced (a 60 KB nest of brackets, a revision of 5,000
digits, ``"game": "²"``, ``result.scores: 5``) and every field of a game message replaced by
values of the wrong type or out of range; hypothesis then tries arbitrary JSON in each place.
"""

from __future__ import annotations

import copy
import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from test_club_core import make_service

from club.service import ClubService
from club.simtables import SimTable, encode, topic


def first_game(tmp_path: Path) -> tuple[ClubService, str, dict[str, Any]]:
    svc = make_service(tmp_path, players=3)
    svc.draw_series()
    (tid, pids), = svc.store.seating(1).items()
    return svc, tid, SimTable("herbst", 1, tid, pids, seed=3).play_one()


def refused(svc: ClubService, top: str, payload: bytes) -> str:
    before = svc.store.rejected_count()
    out = svc.handle(top, payload)
    assert out.kind == "rejected", (out, payload[:200])
    assert svc.store.rejected_count() == before + 1
    assert svc.store.rejected(1)[0]["reason"] == out.reason
    return out.reason


def test_the_evenings_messages_are_refused_with_reasons(tmp_path: Path) -> None:
    svc, tid, m = first_game(tmp_path)
    t = topic("skc", tid)
    reason = refused(svc, t, b"[" * 30000 + b"]" * 30000)
    assert "nested too deeply" in reason
    # a revision of 5,000 digits: Python refuses to read (and to print) such a number
    text = encode(m).decode().replace('"revision": 1', '"revision": 1' + "0" * 4999)
    assert refused(svc, t, text.encode())
    text = encode(m).decode().replace('"revision": 1', '"revision": 1' + "0" * 4000)
    assert "revision" in refused(svc, t, text.encode())
    assert "game" in refused(svc, t, encode(dict(m, game="²")))
    assert "scores" in refused(svc, t, encode(dict(m, result=dict(m["result"], scores=5))))
    # a lone surrogate escape is valid JSON but no character: SQLite cannot store it as text
    assert "surrogate" in refused(svc, t, encode(m).replace(b'"at": ""', b'"at": "\\ud800"'))
    assert svc.games() == []
    # and the table's real game still counts afterwards
    assert svc.handle(t, encode(m)).kind == "counted"


def _bad_values() -> list[Any]:
    return [None, True, -1, 0, 10**30, 1.5, float("nan"), "", "²", "x" * 10_000, [],
            [1, [2, [3, [4, [5]]]]], {}, {"a": {"b": {"c": {}}}}, "\ud800"]


def test_every_field_of_a_game_is_typed_and_ranged(tmp_path: Path) -> None:
    """Each field of the message and of its result, replaced by each wrong value: refused
    (or, where that value is what the field may hold, not counted twice), never raised."""
    svc, tid, m = first_game(tmp_path)
    t = topic("skc", tid)
    fields = [(k, None) for k in m] + [("result", k) for k in m["result"]]
    seen = 0
    for key, sub in fields:
        for bad in _bad_values():
            d = copy.deepcopy(m)
            if sub is None:
                d[key] = bad
            else:
                d[key][sub] = bad
            try:
                payload = json.dumps(d, ensure_ascii=True).encode()
            except ValueError:
                continue
            out = svc.handle(t, payload)
            seen += 1
            if out.kind != "rejected":
                # a value the field may hold: "at" may be empty, "contract" of a passed-in
                # game null, ... but never a second counted version of the game
                assert out.kind in ("counted", "duplicate", "kept"), (key, sub, bad, out)
    assert seen > 300
    assert len(svc.games()) <= 1
    assert svc.store.rejected_count() > 250


@settings(max_examples=150, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(place=st.sampled_from(["id", "revision", "tournament", "series", "table", "game",
                              "players", "dealer", "result", "iss", "at", "extra",
                              "result.scores", "result.value", "result.declarer",
                              "result.contract", "result.extra"]),
       value=st.recursive(
           st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=50),
           lambda kids: st.lists(kids, max_size=4) | st.dictionaries(st.text(max_size=5), kids,
                                                                     max_size=4),
           max_leaves=20))
@example(place="result.scores", value=5)
@example(place="game", value="²")
@example(place="result.value", value=[])
def test_arbitrary_json_in_any_field_never_raises(tmp_path_factory: Any, place: str,
                                                  value: Any) -> None:
    svc, tid, m = _shared(tmp_path_factory)
    d = copy.deepcopy(m)
    if place.startswith("result."):
        d["result"][place[7:]] = value
    else:
        d[place] = value
    try:
        payload = json.dumps(d).encode()
    except ValueError:       # numbers too long to write, NaN: nothing a table can send either
        return
    out = svc.handle(topic("skc", tid), payload)
    assert out.kind in ("rejected", "counted", "duplicate", "kept", "held")
    assert len(svc.games()) <= 1


_SHARED: dict[str, Any] = {}


def _shared(factory: Any) -> tuple[ClubService, str, dict[str, Any]]:
    if "svc" not in _SHARED:
        _SHARED["svc"] = first_game(factory.mktemp("fuzz"))
    return _SHARED["svc"]


def test_statuses_are_typed(tmp_path: Path) -> None:
    svc, tid, _ = first_game(tmp_path)
    t = topic("skc", tid, "status")
    good = {"table": tid, "state": "playing", "tournament": "herbst", "series": "1",
            "game": 3, "at": "2026-11-28T19:00:00Z"}
    assert svc.handle(t, json.dumps(good).encode()).kind == "status"
    for key in good:
        for bad in ([1], {"x": 1}, "x" * 500, 10**30):
            refused(svc, t, json.dumps(dict(good, **{key: bad})).encode())
    refused(svc, t, json.dumps(dict(good, extra=[1])).encode())
    refused(svc, t, json.dumps(good).encode().replace(b'"at": "2', b'"at": "\\udc00'))
    assert svc.store.statuses()[tid]["game"] == 3


def test_a_failing_check_is_a_refusal_and_undoes_its_writes(tmp_path: Path,
                                                           monkeypatch: Any) -> None:
    """A check that raises in a way nobody foresaw refuses the message (with the exception's
    name) and leaves nothing half-counted, in the store or in memory."""
    svc, tid, m = first_game(tmp_path)
    t = topic("skc", tid)
    import club.service

    def broken(*args: Any) -> Any:
        raise KeyError("unforeseen")

    monkeypatch.setattr(club.service.Standings, "count", broken)
    out = svc.handle(t, encode(m))
    assert out.kind == "rejected" and "KeyError" in out.reason
    assert svc.store.revisions() == [] and svc.games() == []
    monkeypatch.undo()
    assert svc.handle(t, encode(m)).kind == "counted"


def test_a_failing_store_raises_so_nothing_is_acknowledged(tmp_path: Path,
                                                           monkeypatch: Any) -> None:
    svc, tid, m = first_game(tmp_path)

    def disk_gone(*args: Any, **kwargs: Any) -> Any:
        raise sqlite3.OperationalError("disk I/O error")

    monkeypatch.setattr(svc.store, "add_revision", disk_gone)
    with pytest.raises(sqlite3.OperationalError):
        svc.handle_batch([(topic("skc", tid), encode(m))])
    assert svc.games() == [] and svc.store.rejected_count() == 0
