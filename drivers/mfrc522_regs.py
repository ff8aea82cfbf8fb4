"""MFRC522 registers, commands and bits (NXP MFRC522 datasheet rev. 3.9, section 9), and the
ISO/IEC 14443-3 type A commands and CRC_A shared by the driver and the emulated chip.

>>> crc_a(bytes([0x50, 0x00])).hex()
'57cd'
"""

from __future__ import annotations

# Registers (page 0-3 addresses).
COMMAND = 0x01
COM_IEN = 0x02
DIV_IEN = 0x03
COM_IRQ = 0x04
DIV_IRQ = 0x05
ERROR = 0x06
STATUS1 = 0x07
STATUS2 = 0x08
FIFO_DATA = 0x09
FIFO_LEVEL = 0x0A
WATER_LEVEL = 0x0B
CONTROL = 0x0C
BIT_FRAMING = 0x0D
COLL = 0x0E
MODE = 0x11
TX_MODE = 0x12
RX_MODE = 0x13
TX_CONTROL = 0x14
TX_ASK = 0x15
CRC_RESULT_H = 0x21
CRC_RESULT_L = 0x22
MOD_WIDTH = 0x24
RF_CFG = 0x26
T_MODE = 0x2A
T_PRESCALER = 0x2B
T_RELOAD_H = 0x2C
T_RELOAD_L = 0x2D
T_COUNTER_H = 0x2E
T_COUNTER_L = 0x2F
VERSION = 0x37

# Commands (CommandReg bits 3..0).
CMD_IDLE = 0x00
CMD_MEM = 0x01
CMD_CALC_CRC = 0x03
CMD_TRANSMIT = 0x04
CMD_RECEIVE = 0x08
CMD_TRANSCEIVE = 0x0C
CMD_SOFT_RESET = 0x0F
COMMAND_POWER_DOWN = 0x10

# ComIrqReg bits.
IRQ_SET1 = 0x80
IRQ_TX = 0x40
IRQ_RX = 0x20
IRQ_IDLE = 0x10
IRQ_HI_ALERT = 0x08
IRQ_LO_ALERT = 0x04
IRQ_ERR = 0x02
IRQ_TIMER = 0x01
# DivIrqReg bits.
DIV_SET2 = 0x80
DIV_CRC = 0x04

# ErrorReg bits.
ERR_WR = 0x80
ERR_TEMP = 0x40
ERR_BUFFER_OVFL = 0x10
ERR_COLL = 0x08
ERR_CRC = 0x04
ERR_PARITY = 0x02
ERR_PROTOCOL = 0x01

FIFO_FLUSH = 0x80
FIFO_SIZE = 64
BIT_FRAMING_START_SEND = 0x80
CONTROL_TSTOP_NOW = 0x80
CONTROL_TSTART_NOW = 0x40
COLL_POS_NOT_VALID = 0x20
T_MODE_TAUTO = 0x80
TX_CONTROL_RF = 0x03  # Tx1RFEn | Tx2RFEn: the antenna drivers
TX_ASK_FORCE_100 = 0x40
CRC_ENABLE = 0x80  # TxModeReg / RxModeReg bit 7

# RFCfgReg RxGain field (bits 6..4): 0b100 = 33 dB ... 0b111 = 48 dB.
RX_GAIN_DB = {18: 0x00, 23: 0x10, 33: 0x40, 38: 0x50, 43: 0x60, 48: 0x70}

# VersionReg values of genuine chips and of the common clones on breakout boards.
KNOWN_VERSIONS = {
    0x88: "FM17522 clone",
    0x89: "FM17522E clone",
    0x90: "MFRC522 v0.0",
    0x91: "MFRC522 v1.0",
    0x92: "MFRC522 v2.0",
    0xB2: "FM17522 clone",
    0x12: "counterfeit MFRC522",
}

CHIP_CLOCK_HZ = 13_560_000
# One bit at 106 kbit/s (128 carrier periods).
BIT_TIME = 128 / CHIP_CLOCK_HZ

# ISO/IEC 14443-3 type A.
PICC_REQA = 0x26
PICC_WUPA = 0x52
PICC_HLTA = 0x50
PICC_SEL_CL = (0x93, 0x95, 0x97)
PICC_CASCADE_TAG = 0x88
NVB_SELECT = 0x70
SAK_CASCADE = 0x04


def crc_a(data: bytes) -> bytes:
    """CRC_A of ISO/IEC 14443-3 (preset 0x6363), low byte first as sent on air."""
    crc = 0x6363
    for byte in data:
        b = (byte ^ crc) & 0xFF
        b = (b ^ (b << 4)) & 0xFF
        crc = ((crc >> 8) ^ (b << 8) ^ (b << 3) ^ (b >> 4)) & 0xFFFF
    return bytes([crc & 0xFF, crc >> 8])


def bcc(data: bytes) -> int:
    """The block check character of a UID part: the XOR of its bytes."""
    out = 0
    for byte in data:
        out ^= byte
    return out
