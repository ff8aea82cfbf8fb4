"""The twin's fast part, in ``make test``: its modules' examples, the config it writes read by
the table's own config loader, the kiosk check against the project's screenshots, QEMU's
command line. No VM is started."""

from __future__ import annotations

import doctest
import importlib
from pathlib import Path

import pytest

from firmware_host.config import load_config
from twin.board import ZONES
from twin.frames import SHOTS, is_kiosk
from twin.image import input_hash
from twin.table import config_toml, deck, replay_config, shuffled_order
from twin.vm import VM


@pytest.mark.parametrize("name", ["twin.image", "twin.table", "twin.frames"])
def test_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name))
    assert result.attempted > 0 and result.failed == 0


def test_the_twin_config_is_a_table_config(tmp_path: Path) -> None:
    port = "/dev/serial/by-path/platform-4c00000000.pcie-pci-0000:00:02.0-usb-0:1:1.0-port0"
    path = tmp_path / "config.toml"
    path.write_text(config_toml(port))
    config = load_config(path)
    assert config.computer.seats == (0, 1, 2)
    (reader,) = config.readers
    assert reader["type"] == "serial" and reader["port"] == port
    assert set(config.card_tags().values()) == set(deck().values())
    path.write_text(replay_config())
    assert load_config(path).computer.seats == ()  # replay: the presses are script lines


def test_the_board_zones_are_the_configs() -> None:
    assert config_toml("/dev/x").count('0 = "deal", 1 = "centre", 2 = "skat"') == 1
    assert ZONES == {0: "deal", 1: "centre", 2: "skat"}


def test_a_deal_order_is_32_cards_and_reproducible() -> None:
    order = shuffled_order(1)
    assert len(set(order)) == 32 and order == shuffled_order(1) != shuffled_order(2)


def test_screenshots_are_kiosk_frames_and_web_pages_are_not() -> None:
    assert is_kiosk(SHOTS / "result-de.png")
    assert is_kiosk(SHOTS / "play-simulator-de.png")
    assert not is_kiosk(SHOTS / "club-ranking.png")


def test_a_blank_or_console_frame_is_not_the_kiosk(tmp_path: Path) -> None:
    import pygame

    s = pygame.Surface((800, 480))
    s.fill((0, 0, 0))
    pygame.image.save(s, str(tmp_path / "black.png"))
    assert not is_kiosk(tmp_path / "black.png")
    s.fill((0, 32, 16))
    pygame.image.save(s, str(tmp_path / "felt.png"))
    assert not is_kiosk(tmp_path / "felt.png")  # one colour: nothing drawn on it


def test_image_hash_follows_the_script_not_its_comments() -> None:
    assert input_hash("arm64", "a\n# x\n") == input_hash("arm64", "a\n")
    assert input_hash("arm64", "a\n") != input_hash("arm64", "b\n")


def test_qemu_command_line(tmp_path: Path) -> None:
    image = tmp_path / "image"
    image.mkdir()
    (image / "cmdline").write_text("root=/dev/vda rw console=ttyAMA0\n")
    vm = VM(image, tmp_path / "vm", board_tty="/dev/pts/9", ssh_port=2222, revision=None)
    cmd = " ".join(vm.command())
    assert cmd.startswith("qemu-system-aarch64 -M virt")
    assert "-accel tcg" in cmd and "kvm" not in cmd
    assert "usb-serial,chardev=board0" in cmd and "path=/dev/pts/9" in cmd
    assert "virtio-gpu-pci" in cmd and "hostfwd=tcp:127.0.0.1:2222-:22" in cmd
    vm.display = False
    assert "virtio-gpu" not in " ".join(vm.command())


def test_the_disk_is_a_chain_a_worn_card_can_be_put_into(tmp_path: Path) -> None:
    """wear() and mend() name the nodes of the command line's -blockdev chain."""
    import inspect

    from twin.vm import VM

    image = tmp_path / "image"
    image.mkdir()
    (image / "cmdline").write_text("root=/dev/vda rw\n")
    cmd = VM(image, tmp_path / "vm", revision=None).command()
    nodes = [a for a in cmd if a.startswith("driver=")]
    assert any("node-name=root-file" in n for n in nodes)
    assert any(n == "driver=qcow2,node-name=root,file=root-file,backing=base" for n in nodes)
    assert "-drive" not in cmd
    source = inspect.getsource(VM.wear) + inspect.getsource(VM.mend)
    for name in ("root-file", '"root"', "base"):
        assert name in source


def test_the_tap_target_is_the_kiosks_own_button() -> None:
    from twin.frames import tap_target

    x, y = tap_target("language")
    assert 800 // 2 < x < 800 and 0 < y < 480 // 4  # the top bar's right end


def test_the_board_says_it_is_a_pi_4_in_its_device_tree(tmp_path: Path) -> None:
    """gpiozero reads the board revision where a Pi's firmware writes it; the twin's device
    tree is QEMU's own for the machine with that node added."""
    import shutil
    import subprocess

    from twin.vm import VM

    if not (shutil.which("qemu-system-aarch64") and shutil.which("dtc")):
        pytest.skip("needs qemu-system-aarch64 and dtc (twin/packages.sh)")
    image = tmp_path / "image"
    image.mkdir()
    (image / "cmdline").write_text("root=/dev/vda rw\n")
    vm = VM(image, tmp_path / "vm")
    cmd = vm.command()
    dtb = Path(cmd[cmd.index("-dtb") + 1])
    dts = subprocess.run(["dtc", "-q", "-I", "dtb", "-O", "dts", str(dtb)], check=True,
                         capture_output=True, text=True).stdout
    assert "linux,revision = <0xc03114>;" in dts
    assert "virtio_mmio" in dts and "pl031" in dts  # the machine's own tree, not another
    # A Pi has no PL061: left in, it took gpiochip0 and the header came up as gpiochip1
    assert "pl061" not in dts and "gpio-keys" not in dts


def test_device_tree_nodes_are_found_by_what_they_are() -> None:
    from twin.vm import dt_nodes

    dts = ('/ {\n\tpl061@9030000 {\n\t\tcompatible = "arm,pl061\\0arm,primecell";\n'
           '\t};\n\tpsci {\n\t\tcompatible = "arm,psci-1.0";\n\t};\n'
           '\tgpio-keys {\n\t\tcompatible = "gpio-keys";\n\n\t\tpoweroff {\n'
           '\t\t\tcompatible = "arm,pl061";\n\t\t};\n\t};\n};\n')
    assert dt_nodes(dts, "arm,pl061") == ["pl061@9030000"]
    assert dt_nodes(dts, "gpio-keys") == ["gpio-keys"]
    assert dt_nodes(dts, "arm,psci") == ["psci"]
    assert dt_nodes(dts, "arm,gic") == []


def test_the_dealer_goes_by_the_journal_when_the_status_line_lags() -> None:
    """The status line is sent after the computers moved, so it may show the moment before:
    "dealing" after the last card was dealt and the bidding began, "scored" after the next
    deal's first card. The twin's dealer must not start a new deck then (it did: a card
    laid on the deal reader during the play, refused as the computer's)."""
    from twin.table import TableDriver, shuffled_order

    drv = TableDriver(vm=None, board=None)
    order = shuffled_order(1)
    drv.order, drv.orders, drv.order_started = order, 1, True
    tags = drv.tags
    records = [(i, "input", {"input": {"zone": "deal", "tag": tags[c]}, "status": "accepted"})
               for i, c in enumerate(order)]
    records.append((40, "input", {"input": {"press": "pass", "seat": 0}, "status": "accepted"}))
    drv.watch.records = records
    drv.watch.status = "deal 1, Carla deals: dealing (31/32 cards)"  # before the last card
    assert drv.next_card() is None and drv.orders == 1
    drv.watch.records = records[:5]
    assert drv.next_card() == ("deal", order[5])
    # the next deal's first card taken while the status line still says scored
    played = [(50, "input", {"input": {"zone": "centre", "tag": tags[order[0]]},
                             "status": "accepted"})]
    drv.watch.records = records + played
    drv.watch.status = "deal 1, Carla deals: scored"
    first = drv.next_card()
    assert drv.orders == 2 and first == ("deal", shuffled_order(2)[0])
    drv.order_started = True
    drv.watch.records = [*records, *played, (51, "input", {"input": {
        "zone": "deal", "tag": tags[first[1]]}, "status": "accepted"})]
    assert drv.next_card() == ("deal", shuffled_order(2)[1]) and drv.orders == 2
