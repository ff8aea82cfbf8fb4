"""The twin: a QEMU virtual machine with a real Debian bookworm (systemd, udev, the kernel's USB
serial and DRM drivers) on which the table is installed as on a new Pi and driven from outside.
See docs/twin.md; ``make twin`` runs it."""
