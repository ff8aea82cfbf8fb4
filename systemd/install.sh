#!/bin/sh
# Install skat-table as a service on a Raspberry Pi (Raspberry Pi OS 64-bit, Python 3.11 to 3.14).
#
#   sudo systemd/install.sh            # from a checkout of the repository
#
# What it does (again and again without harm):
#   0. the Debian packages it needs (apt-get update first), the USB serial drivers loaded
#   1. a system user "skat" in the groups the hardware needs (video render input spi gpio dialout)
#   2. the source under /opt/skat-table/src and a virtual environment /opt/skat-table/venv with
#      the package and its Raspberry Pi extras (.[pi]: spidev, lgpio), and the command
#      /usr/local/bin/skat-table; the touchscreen's udev rule
#   3. /etc/skat-table/config.toml (an example, only if there is none) and /var/lib/skat-table
#   4. the unit /etc/systemd/system/skat-table.service, enabled and started; restarted only
#      when the package, the unit or its drop-ins changed (a second run changes nothing)
#   5. the club link's unit skat-table-link.service, enabled and started when the config has
#      a [club] section (docs/club-link.md)
# and it says what /boot/firmware/config.txt still needs for the config's readers (SPI).
# PYTHON=python3.x picks the Python (3.11 to 3.14; the decisions: systemd/install-lib.sh).
set -eu

PREFIX=/opt/skat-table
SRC="$(cd "$(dirname "$0")/.." && pwd)"
USER_NAME=skat
PYTHON="${PYTHON:-python3}"
. "$SRC/systemd/install-lib.sh"

if [ "$(id -u)" -ne 0 ]; then
    echo "install.sh: run me as root (sudo $0)" >&2
    exit 1
fi
skat_python_plan "$PYTHON" || exit 1

# 0. What building the Pi extras needs (spidev is compiled on the Pi; lgpio too where no wheel
# fits this Python: then swig), and what pygame-ce's KMSDRM video driver loads at run time,
# Mesa's EGL and DRI driver included (SKAT_APT_PACKAGES). A fresh image has no package lists:
# update them first.
if command -v apt-get >/dev/null 2>&1; then
    apt-get update -q >/dev/null || echo "install.sh: apt-get update failed;" \
        "installing from the package lists there are" >&2
    apt-get install -y --no-install-recommends $SKAT_APT_PACKAGES $SKAT_APT_EXTRA >/dev/null
fi

# The USB serial drivers of reader boards, loaded at every boot and now: the unit's device list
# (DeviceAllow=char-ttyUSB/char-ttyACM) is computed when it starts, from the drivers loaded then.
printf 'usbserial\ncdc_acm\n' > /etc/modules-load.d/skat-table.conf
if command -v modprobe >/dev/null 2>&1; then
    modprobe -a usbserial cdc_acm || echo "install.sh: cannot load usbserial and cdc_acm now:" \
        "reader boards on USB work after a reboot" >&2
fi

# 1. The user and its groups (a group the system lacks is created, so the unit can name it).
for group in video render input spi gpio dialout; do
    getent group "$group" >/dev/null || groupadd --system "$group"
done
skat_system_user "$USER_NAME" /var/lib/skat-table
usermod -a -G video,render,input,spi,gpio,dialout "$USER_NAME"

# 2. Source and virtual environment.
skat_copy_source "$SRC" "$PREFIX/src"
[ -x "$PREFIX/venv/bin/python" ] || "$PYTHON" -m venv "$PREFIX/venv"
# What is installed is the copy, its pinned requirements and this Python: when that is what
# was installed last time (the stamp), pip is not run again (it would compile the C core and
# spidev anew, minutes on a Pi) and the running table is not restarted.
CHANGED=0
INSTALLED="$(skat_fingerprint "$PREFIX/src" "$PREFIX/venv/bin/python")"
STAMP="$PREFIX/installed.sha256"
if [ -x "$PREFIX/venv/bin/skat-table" ] && [ -f "$STAMP" ] && [ "$(cat "$STAMP")" = "$INSTALLED" ]; then
    echo "install.sh: the package is installed as it is in $SRC (nothing to build)"
else
    # Every dependency pinned to a version and its files' SHA-256 (systemd/requirements-*.txt,
    # made by pip-compile --generate-hashes from the .in files beside them): root installs
    # nothing unreviewed. The build tools first, then the rest without build isolation (an
    # isolated build would fetch unpinned tools), then the package itself from the copy.
    # Where lgpio has no wheel for this Python (3.13+), its pinned source is built with its C
    # library linked in (PYPI=1, lgpio's own switch): Debian has no liblgpio package.
    CHANGED=1
    PIP="$PREFIX/venv/bin/python -m pip install --quiet --require-hashes --no-build-isolation"
    $PIP -r "$PREFIX/src/systemd/requirements-build.txt"
    if [ "$SKAT_LGPIO_SOURCE" = 1 ]; then
        export PYPI=1
    fi
    $PIP -r "$PREFIX/src/systemd/requirements-pi.txt"
    unset PYPI
    "$PREFIX/venv/bin/python" -m pip install --quiet --no-deps --no-build-isolation "$PREFIX/src"
    # pip builds the package inside the copy: its build/ and .egg-info are not the table's
    # (and the next run's rsync would delete them), so they go now.
    rm -rf "$PREFIX/src/build" "$PREFIX/src"/*.egg-info
    echo "$INSTALLED" > "$STAMP"
fi
# The command on root's and everyone's PATH (sudo skat-table probe ..., docs/bring-up.md).
ln -sfn "$PREFIX/venv/bin/skat-table" /usr/local/bin/skat-table

# The touchscreen gets a stable name, the only input device the unit may read
# (DeviceAllow=/dev/skat-table/touch), and a device unit (systemd/70-skat-table.rules).
install -d -m 0755 /etc/udev/rules.d
install -m 0644 "$PREFIX/src/systemd/70-skat-table.rules" /etc/udev/rules.d/70-skat-table.rules
if command -v udevadm >/dev/null 2>&1; then
    udevadm control --reload || true
    udevadm trigger --subsystem-match=input --subsystem-match=gpio \
        --subsystem-match=spidev --action=change || true
    # The unit below resolves /dev/skat-table/touch when it starts: wait until udev made it.
    udevadm settle --timeout=30 || echo "install.sh: udev is still busy after 30 s" >&2
fi
# Where there is a touchscreen, the table waits for it at boot (at most 15 s): udev names it
# during the boot's coldplug, maybe after the unit would have started.
TOUCH_UNIT='dev-skat\x2dtable-touch.device'
if [ -e /dev/skat-table/touch ]; then
    install -d -m 0755 /etc/systemd/system/skat-table.service.d "/etc/systemd/system/$TOUCH_UNIT.d"
    skat_install_file "$PREFIX/src/systemd/skat-table-touch.conf" \
        /etc/systemd/system/skat-table.service.d/touch.conf
    skat_install_file "$PREFIX/src/systemd/touch-device-timeout.conf" \
        "/etc/systemd/system/$TOUCH_UNIT.d/timeout.conf"
    echo "install.sh: touchscreen $(readlink -f /dev/skat-table/touch): the table waits for it at boot"
else
    for f in /etc/systemd/system/skat-table.service.d/touch.conf \
             "/etc/systemd/system/$TOUCH_UNIT.d/timeout.conf"; do
        if [ -e "$f" ]; then rm -f "$f"; CHANGED=1; fi
    done
    echo "install.sh: no touchscreen found (/dev/skat-table/touch): the kiosk takes no touch" \
         "until one is plugged in (the table restarts then to read it)"
fi
# A touchscreen plugged in after the table started: the unit's DeviceAllow was resolved without
# it, so the table is restarted to read it (the journal keeps the game; the rule's SYSTEMD_WANTS).
skat_install_file "$PREFIX/src/systemd/skat-table-touch-plugged.service" \
    /etc/systemd/system/skat-table-touch-plugged.service

# 3. Config and data directory.
install -d -m 0750 -o root -g "$USER_NAME" /etc/skat-table
if [ ! -e /etc/skat-table/config.toml ]; then
    install -m 0640 -o root -g "$USER_NAME" "$PREFIX/src/systemd/config.example.toml" \
        /etc/skat-table/config.toml
    echo "install.sh: wrote /etc/skat-table/config.toml: put in the players and the deck" \
         "(skat-table enroll --config /etc/skat-table/config.toml --out /etc/skat-table/deck.toml)"
fi
install -d -m 0750 -o "$USER_NAME" -g "$USER_NAME" /var/lib/skat-table

# 4. The unit.
skat_install_file "$PREFIX/src/systemd/skat-table.service" /etc/systemd/system/skat-table.service
if command -v systemd-analyze >/dev/null 2>&1; then
    systemd-analyze verify /etc/systemd/system/skat-table.service
fi
systemctl daemon-reload
systemctl enable skat-table.service
if [ "$CHANGED" = 1 ]; then
    systemctl restart skat-table.service || true
else
    echo "install.sh: nothing changed: the table runs on as it is"
    systemctl start skat-table.service || true
fi
systemctl --no-pager status skat-table.service || true

# SPI for the config's MFRC522 readers: SPI0 (dtparam=spi=on) for chip selects 0-1 of bus 0,
# SPI1 with three chip selects (dtoverlay=spi1-3cs) for bus 1, as docs/hardware.md wires them.
CONFIG_TXT=/boot/firmware/config.txt
[ -e "$CONFIG_TXT" ] || [ ! -e /boot/config.txt ] || CONFIG_TXT=/boot/config.txt
skat_spi_report "$CONFIG_TXT" \
    "$(skat_spi_needs "$PREFIX/venv/bin/python" /etc/skat-table/config.toml)" || true

# 5. The club link: only for a table that belongs to a club ([club] in its config).
install -m 0644 "$PREFIX/src/systemd/skat-table-link.service" \
    /etc/systemd/system/skat-table-link.service
if command -v systemd-analyze >/dev/null 2>&1; then
    systemd-analyze verify /etc/systemd/system/skat-table-link.service
fi
systemctl daemon-reload
if grep -q '^\[club\]' /etc/skat-table/config.toml; then
    systemctl enable skat-table-link.service
    systemctl restart skat-table-link.service || true
else
    systemctl disable skat-table-link.service 2>/dev/null || true
    echo "install.sh: no [club] in the config: the club link stays off (docs/club-link.md)"
fi
