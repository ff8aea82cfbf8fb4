#!/usr/bin/env bash
# The Debian packages the twin needs on the host (`make twin` calls this first), as
# tests/system-packages.sh does for the suite: installed where root and apt-get can, else one
# line says what is missing and the exit status is 1.
#
#   mmdebstrap        builds the image (Debian bookworm) without a running Debian installer
#   qemu-system-arm   qemu-system-aarch64: the VM (virt machine, the Pi's architecture)
#   qemu-system-x86   qemu-system-x86_64: the amd64 VM (TWIN_ARCH=amd64)
#   qemu-utils        qemu-img: the disk overlays
#   qemu-user-static, binfmt-support, arch-test: arm64 maintainer scripts on an amd64 host
#   e2fsprogs         mkfs.ext4 -d: the root file system from a directory
#   openssh-client    ssh into the VM
#   device-tree-compiler  dtc: the board's device tree says which Pi it is (arm64)
#   xz-utils          the kernel source's archive (twin/gpiosim.sh)
set -euo pipefail

arch="${TWIN_ARCH:-arm64}"
have() { command -v "$1" >/dev/null 2>&1 || [ -x "/usr/sbin/$1" ] || [ -x "/sbin/$1" ]; }
missing=()
have mmdebstrap || missing+=(mmdebstrap)
have qemu-img || missing+=(qemu-utils)
have mkfs.ext4 || missing+=(e2fsprogs)
have ssh || missing+=(openssh-client)
have xz || missing+=(xz-utils)
if [ "$arch" = arm64 ]; then
    have qemu-system-aarch64 || missing+=(qemu-system-arm)
    have dtc || missing+=(device-tree-compiler)
    if [ "$(uname -m)" != aarch64 ]; then
        have qemu-aarch64-static || missing+=(qemu-user-static)
        have update-binfmts || missing+=(binfmt-support)
        have arch-test || missing+=(arch-test)
    fi
else
    have qemu-system-x86_64 || missing+=(qemu-system-x86)
fi
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "twin/packages.sh: installing ${missing[*]}" >&2
    export DEBIAN_FRONTEND=noninteractive
    if apt-get update -qq </dev/null \
        && apt-get install -y -qq --no-install-recommends "${missing[@]}" </dev/null >/dev/null
    then
        exit 0
    fi
    echo "twin/packages.sh: apt-get could not install ${missing[*]}" >&2
fi
echo "missing Debian packages for the twin: ${missing[*]}; install them with:" \
     "sudo apt-get install ${missing[*]}" >&2
exit 1
