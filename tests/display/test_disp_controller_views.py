"""The views the controller really builds (a whole recorded series through its session) lay
out cleanly: texts fit, nothing overlaps, every screen draws. This is where a mismatch between
the view model and its producer would show (a contract string, a seat out of range)."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_disp_layout import check_layout

from display.render import Renderer

DATA = Path(__file__).resolve().parents[1] / "data"
CASES = [("three-series.toml", "series-three.jsonl"), ("four-sf.toml", "series-four-sf.jsonl")]


def controller_views(config_name: str, script_name: str, simulator: bool) -> list:
    config_mod = pytest.importorskip("firmware_host.config")
    session_mod = pytest.importorskip("firmware_host.series.session")
    viewmodel = pytest.importorskip("firmware_host.screen.viewmodel")
    config = config_mod.load_config(DATA / "configs" / config_name)
    session = session_mod.Session(config, None)
    views = []

    def listen(session, inp, out) -> None:
        views.append(viewmodel.build_view(session, out.refusal, simulator=simulator))

    session.listeners.append(listen)
    lines = (DATA / "scripts" / script_name).read_text(encoding="utf-8").splitlines()
    for number, text in enumerate(lines, start=1):
        if text.strip():
            session.submit_text(text, line=number)
    return views


@pytest.mark.parametrize(("config_name", "script_name"), CASES)
@pytest.mark.parametrize("simulator", [False, True])
def test_controller_views_lay_out(renderer: Renderer, config_name: str, script_name: str,
                                  simulator: bool) -> None:
    try:
        views = controller_views(config_name, script_name, simulator)
    except (ImportError, AttributeError, TypeError) as exc:  # the controller moved on
        pytest.skip(f"controller API not as expected: {exc}")
    assert views, "the script produced no views"
    scenes = {v.scene for v in views}
    assert {"deal", "bidding", "play", "result"} <= scenes
    problems = []
    for i, view in enumerate(dict.fromkeys(views)):
        problems += [f"view {i} ({view.scene}): {p}"
                     for p in check_layout(renderer.layout(view, (800, 480)), (800, 480))]
    assert not problems, "\n".join(problems[:30])
