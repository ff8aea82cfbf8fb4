"""The twin end to end (``make twin``): a new Pi in QEMU, the table installed by install.sh,
booted, played over the USB serial board, its power cut. One VM for the whole module, the
steps in order; a step whose predecessor failed is skipped. Marked ``twin`` (conftest.py)."""

from __future__ import annotations

import os

import pytest
from conftest import FAILED, RUNS
from fullrun import size

from twin.run import Twin

pytestmark = [pytest.mark.twin, pytest.mark.timeout(7200)]
CUTS = size(1, 30)


@pytest.fixture(scope="module")
def twin():  # type: ignore[no-untyped-def]
    if os.geteuid() != 0 and not os.environ.get("TWIN_CACHE"):
        pytest.fail("make twin needs root for the image build (or TWIN_CACHE with an image)")
    t = Twin()
    RUNS.append(t)
    yield t
    t.close()


@pytest.fixture(autouse=True)
def in_order() -> None:
    if FAILED:
        pytest.skip(f"an earlier step failed: {FAILED[0]}")


def test_1_image(twin: Twin) -> None:
    folder = twin.image()
    assert (folder / "rootfs.img").exists() and (folder / "vmlinuz").exists()


def test_2_a_new_pi_boots_to_a_login(twin: Twin) -> None:
    assert twin.boot() > 0
    assert "bookworm" in twin.vm.out("cat /etc/os-release")
    assert twin.vm.out("sudo -n true && echo ok").strip() == "ok"


def test_3_install_as_the_readme_says(twin: Twin) -> None:
    twin.install()
    assert twin.vm.out("systemctl is-enabled skat-table.service").strip() == "enabled"


def test_4_a_second_install_changes_no_file(twin: Twin) -> None:
    changes = twin.install_again()
    files = [c for c in changes if c.startswith(("+", "-"))]
    others = [c for c in changes if not c.startswith(("+", "-"))]
    if others:
        twin.finding("a second install.sh: " + "; ".join(others))
    assert files == [], "\n".join(files)


def test_5_boot_to_ready_and_the_first_frame(twin: Twin) -> None:
    twin.configure()
    unit = twin.ready()
    assert unit["ActiveState"] == "active" and unit["NRestarts"] == "0"
    assert "READER DOWN" not in unit["StatusText"], unit["StatusText"]


def test_6_a_deal_over_the_serial_board_matches_the_host(twin: Twin) -> None:
    twin.play_deal(seed=1)
    out = twin.compare_with_host()
    assert out["games"] == 1
    assert out["guest replay == host replay"] and out["ISS twin == ISS host"]
    assert out["cards laid == cards in the journal"]


def test_7_power_cuts_lose_nothing_shown(twin: Twin) -> None:
    res = twin.power_cuts(CUTS)
    assert res["lost"] == 0 and res["survived"] == CUTS, res["results"]
    out = twin.compare_with_host()
    assert out["games"] == 1 + CUTS
    assert out["guest replay == host replay"] and out["ISS twin == ISS host"]
