#!/usr/bin/env bash
# The Debian packages the test suite needs besides .venv, in one place: `make test`,
# `make test-full` and .ci/run call this first.
#
#   mosquitto        the club and link tests' broker (tests/brokers.py)
#   chromium         the club pages in a headless browser (tests/club/test_club_browser.py)
#   chromium-driver  Selenium's driver for it
#   poppler-utils    pdftotext, to read the club's PDF lists
#   gcc              the solver's C core (engine/players/_dds.c) and the XSkat anchor's build
#   systemd          systemd-analyze verify of the unit files (tests/controller/test_ctl_systemd.py)
#   libegl1 libegl-mesa0 libgles2 libgl1-mesa-dri
#                    Mesa's EGL and software renderers, drawn with under the unit's
#                    MemoryDenyWriteExecute (tests/controller/test_ctl_mesa.py)
#   xvfb, xskat      only with XSKAT_SRC set: Debian's XSkat beside our build of it
#
# Missing ones are installed where that is possible (root and apt-get: `apt-get update` first);
# elsewhere one line says which are missing and how to get them, and the exit status is 1.
set -euo pipefail

have() { command -v "$1" >/dev/null 2>&1 || [ -x "/usr/sbin/$1" ] || [ -x "/sbin/$1" ]; }

missing=()
have mosquitto && have mosquitto_passwd || missing+=(mosquitto)
[ -x /usr/bin/chromium ] || missing+=(chromium)
[ -x /usr/bin/chromedriver ] || missing+=(chromium-driver)
have pdftotext || missing+=(poppler-utils)
have cc || have gcc || missing+=(gcc)
have systemd-analyze || missing+=(systemd)
lib() { compgen -G "/usr/lib/*/$1" >/dev/null; }
lib libEGL.so.1 || missing+=(libegl1)
lib libEGL_mesa.so.0 || missing+=(libegl-mesa0)
lib libGLESv2.so.2 || missing+=(libgles2)
lib dri/swrast_dri.so || missing+=(libgl1-mesa-dri)
if [ -n "${XSKAT_SRC:-}" ]; then
    have Xvfb || missing+=(xvfb)
    [ -x /usr/games/xskat ] || missing+=(xskat)
fi
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "tests/system-packages.sh: installing ${missing[*]}" >&2
    export DEBIAN_FRONTEND=noninteractive
    if apt-get update -qq </dev/null \
        && apt-get install -y -qq --no-install-recommends "${missing[@]}" </dev/null >/dev/null
    then
        exit 0
    fi
    echo "tests/system-packages.sh: apt-get could not install ${missing[*]}" >&2
fi
echo "missing Debian packages for the tests: ${missing[*]}; install them with:" \
     "sudo apt-get install ${missing[*]}" >&2
exit 1
