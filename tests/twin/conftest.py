"""The twin's tests (docs/twin.md). The fast part (the twin's own modules, its config against
the real config loader, the frame check against the project's screenshots) runs in
``make test``. The VM tests are marked ``twin``: left out unless ``SKAT_TEST_TWIN=1``, which
``make twin`` sets (they boot QEMU, need root for the image build and take most of an hour
the first time). ``make twin`` with ``SKAT_TEST_FULL=1`` cuts the power 30 times instead of
once (``fullrun.size``)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

TWIN = os.environ.get("SKAT_TEST_TWIN", "") not in ("", "0")
RUNS: list = []  # the Twin objects of this session, for the table of figures
FAILED: list[str] = []  # the VM steps that failed: the later ones are skipped


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "twin: boots the twin VM: only with SKAT_TEST_TWIN=1 "
                                       "(make twin)")
    config.addinivalue_line("markers", "twin_check: a twin step the later ones do not build on "
                                       "(its failure skips none of them)")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if TWIN:
        return
    left = [item for item in items if item.get_closest_marker("twin")]
    if left:
        config.hook.pytest_deselected(items=left)
        items[:] = [item for item in items if not item.get_closest_marker("twin")]


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):  # type: ignore[no-untyped-def]
    outcome = yield
    rep = outcome.get_result()
    if rep.when == "call" and rep.failed and item.get_closest_marker("twin") \
            and not item.get_closest_marker("twin_check"):
        FAILED.append(item.name)


def pytest_terminal_summary(terminalreporter) -> None:  # type: ignore[no-untyped-def]
    from twin.run import figures_table

    for twin in RUNS:
        terminalreporter.write_sep("=", f"skat-table twin ({twin.arch}): figures")
        terminalreporter.write_line(figures_table(twin.figures))
        terminalreporter.write_line(f"  work directory: {twin.work}")
        for f in twin.findings:
            terminalreporter.write_line("  finding: " + f.splitlines()[0])
