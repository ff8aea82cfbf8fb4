#!/bin/sh
# Build the twin's disk image: a Debian bookworm system as a person would have on a new Pi
# (systemd, udev, the kernel's own drivers, ssh, python3, git, sudo, a user "pi" with sudo).
#
#   twin/image.sh ARCH OUTDIR        # ARCH: arm64 (the Pi's) or amd64; run as root
#
# OUTDIR receives rootfs.img (ext4, root on /dev/vda), vmlinuz, initrd.img and the ssh key
# (id_ed25519) that reaches pi@ in the VM. twin/image.py calls this with OUTDIR in the cache,
# keyed by a hash of this file: a second build with the same inputs takes the cached files.
set -eu
ARCH="$1"
OUT="$2"
MIRROR="${TWIN_MIRROR:-http://deb.debian.org/debian}"
SIZE="${TWIN_DISK_SIZE:-6G}"

[ "$(id -u)" -eq 0 ] || { echo "image.sh: run as root (mmdebstrap, mkfs.ext4 -d)" >&2; exit 1; }
case "$ARCH" in
    arm64) KERNEL=linux-image-arm64; CONSOLE=ttyAMA0 ;;
    amd64) KERNEL=linux-image-amd64; CONSOLE=ttyS0 ;;
    *) echo "image.sh: ARCH is arm64 or amd64" >&2; exit 2 ;;
esac
if [ "$ARCH" = arm64 ] && [ "$(uname -m)" != aarch64 ]; then
    # mmdebstrap runs the arm64 maintainer scripts through qemu-user (binfmt_misc).
    [ -e /proc/sys/fs/binfmt_misc/register ] || mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc
    update-binfmts --enable qemu-aarch64 >/dev/null 2>&1 || true
fi

mkdir -p "$OUT"
WORK="$OUT/build.$$"
ROOT="$WORK/root"
mkdir -p "$WORK"
trap 'rm -rf "$WORK"' EXIT
ssh-keygen -q -t ed25519 -N '' -C skat-table-twin -f "$WORK/id_ed25519"

# The initramfs is made with the modules a virtio disk needs and nothing else (all modules
# under qemu-user take most of the build time). The packages of Raspberry Pi OS Lite that the table touches: python3-venv, python3-dev,
# gcc, rsync (install.sh asks apt for them again: a no-op there and here), and libgbm1 and
# Mesa's EGL/GLES (install.sh names libgbm1 libegl1 libgles2).
mmdebstrap --arch="$ARCH" --variant=apt --skip=cleanup/apt/lists \
    --include="systemd,systemd-sysv,udev,dbus,kmod,$KERNEL,initramfs-tools,openssh-server,sudo,git,python3,python3-venv,python3-dev,gcc,rsync,ca-certificates,iproute2,procps,less,usbutils,libgbm1,libegl1,libgles2,libegl-mesa0,libgl1-mesa-dri,fonts-dejavu-core" \
    --essential-hook='mkdir -p "$1/etc/initramfs-tools/conf.d" "$1/etc/initramfs-tools/hooks"
printf "MODULES=list\nCOMPRESS=gzip\n" > "$1/etc/initramfs-tools/conf.d/twin"
printf "#!/bin/sh\n[ \"\$1\" = prereqs ] && exit 0\n. /usr/share/initramfs-tools/hook-functions\nmanual_add_modules virtio_pci virtio_mmio virtio_blk virtio_scsi ext4 crc32c_generic\n" > "$1/etc/initramfs-tools/hooks/twin"
chmod 755 "$1/etc/initramfs-tools/hooks/twin"' \
    --customize-hook='echo skat-pi > "$1/etc/hostname"
printf "127.0.0.1 localhost\n127.0.1.1 skat-pi\n" > "$1/etc/hosts"
printf "/dev/vda / ext4 defaults 0 1\n" > "$1/etc/fstab"
printf "nameserver 10.0.2.3\n" > "$1/etc/resolv.conf"
mkdir -p "$1/etc/systemd/network"
printf "[Match]\nName=en* eth*\n[Network]\nDHCP=yes\n" > "$1/etc/systemd/network/80-twin.network"
chroot "$1" systemctl enable systemd-networkd ssh >/dev/null 2>&1
chroot "$1" useradd -m -s /bin/bash -G sudo,dialout,video,input pi
echo "pi:raspberry" | chroot "$1" chpasswd
echo "pi ALL=(ALL) NOPASSWD: ALL" > "$1/etc/sudoers.d/010_pi-nopasswd"
chmod 440 "$1/etc/sudoers.d/010_pi-nopasswd"' \
    bookworm "$ROOT" "$MIRROR"

install -d -m 700 -o 1000 -g 1000 "$ROOT/home/pi/.ssh"
install -m 600 -o 1000 -g 1000 "$WORK/id_ed25519.pub" "$ROOT/home/pi/.ssh/authorized_keys"
cp -L "$ROOT/vmlinuz" "$WORK/vmlinuz"
cp -L "$ROOT/initrd.img" "$WORK/initrd.img"
echo "root=/dev/vda rw console=$CONSOLE" > "$WORK/cmdline"
truncate -s "$SIZE" "$WORK/rootfs.img"
mkfs.ext4 -q -L skat-root -d "$ROOT" "$WORK/rootfs.img"
for f in rootfs.img vmlinuz initrd.img cmdline id_ed25519 id_ed25519.pub; do mv "$WORK/$f" "$OUT/$f"; done
echo "image.sh: $ARCH image in $OUT"
