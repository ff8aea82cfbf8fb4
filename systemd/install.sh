#!/bin/sh
# Install skat-table as a service on a Raspberry Pi (Raspberry Pi OS 64-bit, Python 3.11+).
#
#   sudo systemd/install.sh            # from a checkout of the repository
#
# What it does (again and again without harm):
#   1. a system user "skat" in the groups the hardware needs (video render input spi gpio dialout)
#   2. the source under /opt/skat-table/src and a virtual environment /opt/skat-table/venv with
#      the package and its Raspberry Pi extras (.[pi]: spidev, lgpio)
#   3. /etc/skat-table/config.toml (an example, only if there is none) and /var/lib/skat-table
#   4. the unit /etc/systemd/system/skat-table.service, enabled and (re)started
#   5. the club link's unit skat-table-link.service, enabled and started when the config has
#      a [club] section (docs/club-link.md)
# and it says what /boot/firmware/config.txt needs for the readers (SPI).
set -eu

PREFIX=/opt/skat-table
SRC="$(cd "$(dirname "$0")/.." && pwd)"
USER_NAME=skat
PYTHON="${PYTHON:-python3}"

if [ "$(id -u)" -ne 0 ]; then
    echo "install.sh: run me as root (sudo $0)" >&2
    exit 1
fi
"$PYTHON" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else 1)' || {
    echo "install.sh: skat-table needs Python 3.11 or newer ($PYTHON is older)" >&2
    exit 1
}

# What building the Pi extras needs (spidev is compiled on the Pi), and the libraries that
# pygame-ce's KMSDRM video driver loads at run time (without them the kiosk cannot open the
# screen when no desktop runs: "kmsdrm not available").
if command -v apt-get >/dev/null 2>&1; then
    apt-get install -y --no-install-recommends python3-venv python3-dev gcc \
        libgbm1 libegl1 libgles2 >/dev/null
fi

# The USB serial drivers of reader boards, loaded at boot: the unit's device list
# (DeviceAllow=char-ttyUSB/char-ttyACM) is computed when it starts, from the drivers loaded then.
printf 'usbserial\ncdc_acm\n' > /etc/modules-load.d/skat-table.conf

# 1. The user and its groups (a group the system lacks is created, so the unit can name it).
for group in video render input spi gpio dialout; do
    getent group "$group" >/dev/null || groupadd --system "$group"
done
if ! id "$USER_NAME" >/dev/null 2>&1; then
    useradd --system --home-dir /var/lib/skat-table --no-create-home \
        --shell /usr/sbin/nologin --user-group "$USER_NAME"
fi
usermod -a -G video,render,input,spi,gpio,dialout "$USER_NAME"

# 2. Source and virtual environment.
# The strength lab (lab/) stays in the checkout: the table never runs it.
mkdir -p "$PREFIX/src"
if command -v rsync >/dev/null 2>&1; then
    rsync -a --delete --exclude .git --exclude .venv --exclude '*.egg-info' --exclude /lab "$SRC/" "$PREFIX/src/"
else
    (cd "$SRC" && tar --exclude .git --exclude .venv --exclude ./lab -cf - .) | (cd "$PREFIX/src" && tar -xf -)
fi
[ -x "$PREFIX/venv/bin/python" ] || "$PYTHON" -m venv "$PREFIX/venv"
# Every dependency pinned to a version and its files' SHA-256 (systemd/requirements-*.txt,
# made by pip-compile --generate-hashes from the .in files beside them): root installs
# nothing unreviewed. The build tools first, then the rest without build isolation (an
# isolated build would fetch unpinned tools), then the package itself from the copy.
PIP="$PREFIX/venv/bin/python -m pip install --quiet --require-hashes --no-build-isolation"
$PIP -r "$PREFIX/src/systemd/requirements-build.txt"
$PIP -r "$PREFIX/src/systemd/requirements-pi.txt"
"$PREFIX/venv/bin/python" -m pip install --quiet --no-deps --no-build-isolation "$PREFIX/src"

# The touchscreen gets a stable name, the only input device the unit may read
# (DeviceAllow=/dev/skat-table/touch): udev marks touchscreens ID_INPUT_TOUCHSCREEN=1.
cat > /etc/udev/rules.d/70-skat-table.rules <<'RULES'
SUBSYSTEM=="input", KERNEL=="event*", ENV{ID_INPUT_TOUCHSCREEN}=="1", SYMLINK+="skat-table/touch"
RULES
if command -v udevadm >/dev/null 2>&1; then
    udevadm control --reload || true
    udevadm trigger --subsystem-match=input || true
fi

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
install -m 0644 "$PREFIX/src/systemd/skat-table.service" /etc/systemd/system/skat-table.service
if command -v systemd-analyze >/dev/null 2>&1; then
    systemd-analyze verify /etc/systemd/system/skat-table.service
fi
systemctl daemon-reload
systemctl enable skat-table.service
systemctl restart skat-table.service || true
systemctl --no-pager status skat-table.service || true

# SPI for the MFRC522 readers.
CONFIG_TXT=/boot/firmware/config.txt
[ -e "$CONFIG_TXT" ] || CONFIG_TXT=/boot/config.txt
if [ -e "$CONFIG_TXT" ] && grep -q '^dtparam=spi=on' "$CONFIG_TXT"; then
    echo "install.sh: SPI is on in $CONFIG_TXT"
else
    cat <<'TXT'
install.sh: the MFRC522 readers need SPI. Add to /boot/firmware/config.txt and reboot:

    dtparam=spi=on
    # up to 3 readers on SPI1 (chip selects GPIO 18, 17, 16), in addition to SPI0's two:
    dtoverlay=spi1-3cs

TXT
fi

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
