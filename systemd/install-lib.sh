# The decisions of systemd/install.sh, as functions it sources (and tests call with a fake
# python, apt-cache or config.txt: tests/controller/test_ctl_install.py). POSIX sh.

# The Debian packages every table needs: building the Pi extras (spidev is always compiled,
# lgpio where no wheel fits) and what pygame-ce's KMSDRM video driver loads at run time.
# EGL needs Mesa's EGL and DRI driver (libegl-mesa0, libgl1-mesa-dri: v3d on a Pi 4/5,
# kms_swrast as the fallback): libegl1, libgbm1 and libgles2 depend on neither, and on
# Raspberry Pi OS Lite without them the kiosk cannot open the screen.
SKAT_APT_PACKAGES="python3-venv python3-dev gcc libgbm1 libegl1 libgles2 libegl-mesa0 libgl1-mesa-dri"

# skat_python_plan PYTHON: how this Python installs the table. Sets SKAT_PY_VERSION (3.13),
# SKAT_APT_EXTRA (Debian packages it needs besides SKAT_APT_PACKAGES) and SKAT_LGPIO_SOURCE
# (1: lgpio is built from its hash-pinned source, its C library linked in, as PYPI=1 asks of
# lgpio's setup.py), or says why not on stderr and returns 1.
#   3.11, 3.12  lgpio 0.2.2.0 has wheels (Raspberry Pi OS bookworm: 3.11)
#   3.13, 3.14  no lgpio wheel: built from its source with swig and gcc (trixie: 3.13;
#               Debian has no liblgpio package, so the library goes into the module)
#   otherwise   refused: older is too old, newer has no wheels of pygame-ce 2.5.8 or lgpio
skat_python_plan() {
    SKAT_APT_EXTRA=""
    SKAT_LGPIO_SOURCE=0
    SKAT_PY_VERSION=$("$1" -c 'import sys; print("%d.%d" % sys.version_info[:2])' 2>/dev/null) \
        || SKAT_PY_VERSION=""
    case "$SKAT_PY_VERSION" in
        3.11|3.12)
            ;;
        3.13|3.14)
            SKAT_APT_EXTRA="swig"
            SKAT_LGPIO_SOURCE=1
            ;;
        "")
            echo "install.sh: cannot run $1: install Python 3 (apt-get install python3)," \
                 "or name another with: sudo PYTHON=python3.11 systemd/install.sh" >&2
            return 1
            ;;
        *)
            echo "install.sh: skat-table installs with Python 3.11 to 3.14; $1 is" \
                 "$SKAT_PY_VERSION. Use Raspberry Pi OS bookworm (3.11) or trixie (3.13)," \
                 "or name another Python: sudo PYTHON=python3.11 systemd/install.sh" >&2
            return 1
            ;;
    esac
}

# skat_fingerprint DIR PYTHON: one SHA-256 over every file of DIR (its path and content) and
# PYTHON's version: what install.sh would install from DIR with PYTHON. What pip leaves in DIR
# when it builds the package (build/, *.egg-info) and byte code are left out.
skat_fingerprint() {
    (
        cd "$1" && find . -type f ! -path './build/*' ! -path '*.egg-info/*' \
            ! -path '*/__pycache__/*' ! -name '*.pyc' -print0 |
            LC_ALL=C sort -z | xargs -0 -r sha256sum --
        "$2" -c 'import sys; print(sys.version)' 2>/dev/null || echo "no python"
    ) | sha256sum | cut -d' ' -f1
}

# skat_system_user NAME HOME: the service's own system user and group, made once (no login,
# no home directory made: HOME is the state directory systemd makes).
skat_system_user() {
    if ! id "$1" >/dev/null 2>&1; then
        useradd --system --home-dir "$2" --no-create-home --shell /usr/sbin/nologin \
            --user-group "$1"
    fi
}

# skat_copy_source SRC DEST: the checkout SRC copied to DEST as it is (deleted files go too),
# without git's files, a virtual environment, what pip built, or the strength lab (lab/):
# neither the table nor the club server runs it.
skat_copy_source() {
    mkdir -p "$2"
    if command -v rsync >/dev/null 2>&1; then
        rsync -a --delete --exclude .git --exclude .venv --exclude '*.egg-info' --exclude /lab \
            "$1/" "$2/"
    else
        (cd "$1" && tar --exclude .git --exclude .venv --exclude '*.egg-info' --exclude ./lab \
            -cf - .) | (cd "$2" && tar -xf -)
    fi
}

# skat_install_file FROM TO: install FROM as TO (mode 0644) when TO differs, and then set
# CHANGED=1 (install.sh restarts the running table only when something it runs changed).
skat_install_file() {
    if ! cmp -s "$1" "$2"; then
        install -m 0644 "$1" "$2"
        CHANGED=1
    fi
}

# skat_spi_state CONFIG_TXT: what a config.txt turns on, as "SPI0 SPI1CS": SPI0 1 or 0 (dtparam
# spi=on, or an spi0-Ncs overlay), SPI1CS the chip selects of an spi1-Ncs overlay (0: none).
# Comment lines and parameters after a comma are understood; the last setting counts;
# conditional sections ([pi4], [all]) are not told apart.
skat_spi_state() {
    awk '
        { sub(/\r$/, ""); sub(/^[ \t]+/, "") }
        /^#/ { next }
        /^dtparam=/ {
            n = split(substr($0, 9), items, ",")
            for (i = 1; i <= n; i++) {
                item = items[i]; gsub(/[ \t]/, "", item)
                if (item == "spi" || item == "spi=on" || item == "spi=true" || item == "spi=1" || item == "spi=yes") spi0 = 1
                else if (item == "spi=off" || item == "spi=false" || item == "spi=0" || item == "spi=no") spi0 = 0
            }
        }
        /^dtoverlay=/ {
            name = substr($0, 11); sub(/[,:].*/, "", name); gsub(/[ \t]/, "", name)
            if (name ~ /^spi0-[12]cs$/) spi0 = 1
            if (name ~ /^spi1-[123]cs$/) spi1 = substr(name, 6, 1) + 0
        }
        END { printf "%d %d\n", spi0 + 0, spi1 + 0 }
    ' "$1"
}

# skat_spi_report CONFIG_TXT NEEDS: says what the readers still need in CONFIG_TXT (and returns
# 1), or that SPI is on. NEEDS is "SPI0 SPI1CS" as the table's readers need them (the readers
# of docs/hardware.md: "1 3").
skat_spi_report() {
    set -- "$1" $2
    txt=$1
    need0=$2
    need1=$3
    if [ -e "$txt" ]; then
        set -- $(skat_spi_state "$txt")
    else
        set -- 0 0
    fi
    have0=$1
    have1=$2
    missing=""
    if [ "$need0" -gt "$have0" ]; then
        missing="    dtparam=spi=on
"
    fi
    if [ "$need1" -gt "$have1" ]; then
        missing="$missing    dtoverlay=spi1-3cs      # SPI1 with chip selects GPIO 18, 17, 16 (readers 3-5)
"
    fi
    if [ -z "$missing" ]; then
        echo "install.sh: SPI is on in $txt for the readers (SPI0: $have0, SPI1 chip selects: $have1)"
        return 0
    fi
    printf 'install.sh: the MFRC522 readers need SPI. Add to %s and reboot:\n\n%s\n' \
        "$txt" "$missing"
    if [ "$have1" -gt 0 ] && [ "$need1" -gt "$have1" ]; then
        echo "install.sh: (instead of the dtoverlay=spi1-${have1}cs there: the config has readers on SPI1 chip select $((need1 - 1)))"
    fi
    return 1
}

# skat_spi_needs PYTHON CONFIG_TOML: "SPI0 SPI1CS" as the MFRC522 readers of the config need
# them (type "mfrc522": spi_bus/spi_device or chip_select 0..4); "1 3", the readers of
# docs/hardware.md, when the config cannot be read.
skat_spi_needs() {
    "$1" - "$2" 2>/dev/null <<'PY' || echo "1 3"
import sys
import tomllib

FLAT = ((0, 0), (0, 1), (1, 0), (1, 1), (1, 2))
with open(sys.argv[1], "rb") as f:
    readers = tomllib.load(f).get("readers", [])
need = [0, 0]
for r in readers:
    if r.get("type", r.get("kind", "mfrc522")) != "mfrc522":
        continue
    if "chip_select" in r:
        bus, device = FLAT[r["chip_select"]]
    else:
        bus, device = r.get("spi_bus", 0), r.get("spi_device", 0)
    need[bus] = max(need[bus], device + 1)
print(min(need[0], 1), need[1])
PY
}
