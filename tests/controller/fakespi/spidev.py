"""Stands in for the Pi's ``spidev`` where docs/bring-up.md's commands run off the Pi
(tests/controller/test_ctl_bringup.py): the five chip selects of docs/hardware.md, each an
emulated MFRC522 with a card lying on it."""

from drivers.clock import RealClock
from drivers.mfrc522_emu import EmulatedRig, EmulatedTag

_rig = EmulatedRig(RealClock(), seed=1)
for _i, (_bus, _device) in enumerate(((0, 0), (0, 1), (1, 0), (1, 1), (1, 2))):
    _uid = bytes([0x04, 0xA2, 0x24, 0xB2, 0xC9, 0x4F, 0x80 + _i])
    _rig.add_reader(_bus, _device).lay(EmulatedTag(_uid))


def SpiDev():  # spidev's own name
    return _rig.spidev()
