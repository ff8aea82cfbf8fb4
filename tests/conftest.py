"""Fixtures shared by every test folder: the real MQTT broker of ``brokers.py``.

``mqtt_broker``, ``broker_factory`` and ``broker_kind`` are documented at the top of
``tests/brokers.py``. The run's last lines say which broker the tests used.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from brokers import Broker, BrokerSpec, BrokerUnavailable, chosen_kind, club_spec, describe_kind
from brokers import new_broker as _new_broker
from fullrun import FULL

PROPERTY = "mqtt_broker"
# ``make test-full`` (SKAT_TEST_FULL=1, ``fullrun.py``): the tests marked ``full`` run too, and
# sized tests take their full size. ``make test`` leaves them out (deselected, said below).


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if FULL:
        return
    left = [item for item in items if item.get_closest_marker("full")]
    if left:
        config.hook.pytest_deselected(items=left)
        items[:] = [item for item in items if not item.get_closest_marker("full")]


@pytest.fixture(scope="session")
def broker_kind() -> str:
    """``mosquitto`` (or ``amqtt`` if asked for); without it the test fails, never skipped."""
    try:
        return chosen_kind()
    except BrokerUnavailable as exc:
        pytest.fail(str(exc), pytrace=False)


@pytest.fixture
def broker_factory(tmp_path: Path, broker_kind: str, request: pytest.FixtureRequest
                   ) -> Iterator[Callable[..., Broker]]:
    started: list[Broker] = []

    def make(spec: BrokerSpec | None = None, *, tls: bool = False) -> Broker:
        spec = spec or club_spec("c1", ("t1", "t2", "t3"))
        try:
            broker = _new_broker(broker_kind, spec, tmp_path / f"broker{len(started)}", tls)
        except BrokerUnavailable as exc:
            pytest.fail(str(exc), pytrace=False)
        started.append(broker)
        request.node.user_properties.append((PROPERTY, broker.describe()))
        return broker

    yield make
    for broker in started:
        broker.kill()


@pytest.fixture
def mqtt_broker(broker_factory: Callable[..., Broker]) -> Broker:
    return broker_factory()


def pytest_report_header(config: pytest.Config) -> str:
    try:
        return f"MQTT broker for the club tests: {describe_kind(chosen_kind())}"
    except BrokerUnavailable as exc:
        return f"MQTT broker for the club tests: NONE ({exc})"


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """One line per broker that tests ran against (shown with -q too, and under xdist)."""
    if not FULL:
        terminalreporter.write_line("The long runs (marker full) were left out: make test-full "
                                    "runs them (SKAT_TEST_FULL=1).")
    used: dict[str, int] = {}
    for reports in terminalreporter.stats.values():
        for report in reports:
            if getattr(report, "when", None) != "call":
                continue
            for key, value in getattr(report, "user_properties", ()):
                if key == PROPERTY:
                    kind = str(value).split(" at ")[0]
                    used[kind] = used.get(kind, 0) + 1
    for kind, n in sorted(used.items()):
        terminalreporter.write_line(f"MQTT broker used: {kind} ({n} broker starts in tests)")
    # Tables a test wants in the log (the journal corruption suite's outcomes): a test adds
    # ("report", text) to its user_properties; they travel from xdist's workers too.
    for reports in terminalreporter.stats.values():
        for report in reports:
            if getattr(report, "when", None) == "call":
                for key, value in getattr(report, "user_properties", ()):
                    if key == "report":
                        terminalreporter.write_line(str(value))


@pytest.fixture(autouse=True)
def _analyses_in_one_thread(monkeypatch: pytest.MonkeyPatch) -> None:
    """The open-card analysis in one thread unless a test asks for more (``workers=``):
    ``make test`` already runs two test processes on two cores, and the analysis' threads
    cost about a third more CPU in all (they are tested on their own)."""
    import engine.players.analysis as analysis

    monkeypatch.setattr(analysis, "default_workers", lambda: 1)
