#!/bin/sh
# Build (or reuse from the cache) the VM lab's Debian bookworm image. Root; x86_64 Debian host.
# Installs its own tools (mmdebstrap, qemu-system-x86, qemu-utils, dpkg-dev) with apt-get.
# --force rebuilds even when a cached image matches the build inputs.
set -eu
here="$(cd "$(dirname "$0")/.." && pwd)"
py="$here/.venv/bin/python"
[ -x "$py" ] || py=python3
exec "$py" -m sbctune.lab.vm.image_cli "$@"
