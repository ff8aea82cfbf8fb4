#!/bin/sh
# Build gpio-sim, the kernel's GPIO simulator, as a module for the twin's kernel: Debian's
# kernel is built without it (# CONFIG_GPIO_SIM is not set, and without IRQ_SIM, which it
# needs), so the twin compiles the two files of its kernel's source, gpio-sim.c and irq_sim.c,
# into one module, gpio_sim_twin.ko, against the image kernel's own headers, in an arm64 (or
# amd64) chroot made by mmdebstrap. The VM loads it (twin/gpio.py) and the table's buttons and
# lights run on a gpiochip of it: gpiozero -> lgpio -> /dev/gpiochip0 -> the kernel.
#
#   twin/gpiosim.sh ARCH IMAGE_DIR OUT_DIR      # as root; OUT_DIR gets gpio_sim_twin.ko
set -eu
ARCH="$1"
IMG="$2"
OUT="$3"
MIRROR="${TWIN_MIRROR:-http://deb.debian.org/debian}"
[ "$(id -u)" -eq 0 ] || { echo "gpiosim.sh: run as root (mmdebstrap)" >&2; exit 1; }

# The image's kernel release (6.1.0-50-arm64) and its source package's version line (6.1).
KREL=$(debugfs -R "ls /lib/modules" "$IMG/rootfs.img" 2>/dev/null | tr -s ' \t' '\n' \
       | grep -E '^[0-9]+\.[0-9]+\.' | head -1)
[ -n "$KREL" ] || { echo "gpiosim.sh: no kernel in $IMG/rootfs.img" >&2; exit 1; }
LINE=$(echo "$KREL" | cut -d. -f1-2)
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
chmod 755 "$WORK"  # apt downloads as _apt

# The two source files (and gpio-sim's private header), from Debian's linux-source package.
(cd "$WORK" && apt-get download -q "linux-source-$LINE" >/dev/null)
mkdir -p "$WORK/mod"
dpkg-deb --fsys-tarfile "$WORK"/linux-source-*.deb \
    | tar -xO "./usr/src/linux-source-$LINE.tar.xz" \
    | xz -dc \
    | tar -x -C "$WORK" "linux-source-$LINE/drivers/gpio/gpio-sim.c" \
          "linux-source-$LINE/drivers/gpio/gpiolib.h" "linux-source-$LINE/kernel/irq/irq_sim.c"
cp "$WORK/linux-source-$LINE/drivers/gpio/gpio-sim.c" "$WORK/linux-source-$LINE/drivers/gpio/gpiolib.h" \
   "$WORK/linux-source-$LINE/kernel/irq/irq_sim.c" "$WORK/mod/"
# irq_sim.c calls irq_to_desc(), which the kernel exports to no module: the same call through
# generic_handle_irq(), which is exported (it runs the descriptor's handler, handle_simple_irq).
sed -i 's/handle_simple_irq(irq_to_desc(\([a-z_]*\)));/generic_handle_irq(\1);/' "$WORK/mod/irq_sim.c"
grep -q 'generic_handle_irq(' "$WORK/mod/irq_sim.c" || { echo "gpiosim.sh: irq_sim.c changed" >&2; exit 1; }
printf 'obj-m := gpio_sim_twin.o\ngpio_sim_twin-y := gpio-sim.o irq_sim.o\n' > "$WORK/mod/Kbuild"
rm -f "$WORK"/linux-source-*.deb

if [ "$ARCH" = arm64 ] && [ "$(uname -m)" != aarch64 ]; then
    [ -e /proc/sys/fs/binfmt_misc/register ] || mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc
    update-binfmts --enable qemu-aarch64 >/dev/null 2>&1 || true
fi
mkdir -p "$OUT"
mmdebstrap --arch="$ARCH" --variant=apt --include="make,gcc-12,linux-headers-$KREL" \
    --customize-hook="mkdir -p \"\$1/build\"" \
    --customize-hook="copy-in $WORK/mod /build" \
    --customize-hook="chroot \"\$1\" make -s -C /usr/src/linux-headers-$KREL M=/build/mod modules" \
    --customize-hook="copy-out /build/mod/gpio_sim_twin.ko $OUT" \
    bookworm /dev/null "$MIRROR"
echo "$KREL" > "$OUT/kernel-release"
ls -l "$OUT/gpio_sim_twin.ko"
