"""The VM lab: a real Debian bookworm kernel, systemd and NetworkManager in QEMU."""
