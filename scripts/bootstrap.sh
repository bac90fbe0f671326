# Sourced by scripts/test.sh and scripts/demo.sh: installs what sbctune needs on this machine.
#  - Debian packages (iperf3, OpenSSH, sudo, iproute2, util-linux, FUSE, Qt's runtime libraries)
#    when missing, if running as root with apt-get; a clear message otherwise.
#  - A virtualenv in .venv with sbctune installed (editable) and its dev and lab extras,
#    refreshed whenever pyproject.toml or setup.py changes.
# shellcheck shell=bash

SBCTUNE_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
VENV="$SBCTUNE_ROOT/.venv"

say() { printf '[sbctune setup] %s\n' "$*" >&2; }

DEBIAN_PACKAGES=(
  iperf3 openssh-server openssh-client sudo iproute2 util-linux procps
  fuse3 libfuse2
  libgl1 libegl1 libxkbcommon0 libfontconfig1 libdbus-1-3 libglib2.0-0
  # Qt's X11 (xcb) and Wayland platform plugins: without them the app aborts on a desktop with
  # "could not load the Qt platform plugin xcb" (found with ldd on PySide6's plugins)
  libx11-xcb1 libxcb1 libxcb-cursor0 libxcb-icccm4 libxcb-image0 libxcb-keysyms1 libxcb-randr0
  libxcb-render0 libxcb-render-util0 libxcb-shape0 libxcb-shm0 libxcb-sync1 libxcb-util1
  libxcb-xfixes0 libxcb-xkb1 libxkbcommon-x11-0
  libwayland-client0 libwayland-cursor0 libwayland-egl1 libwayland-server0
  # the HTML report is checked in a real browser
  chromium fonts-dejavu-core
  # actionlint checks the workflow's shell steps with it
  shellcheck
  # the scripts sbctune runs on a Pi are tested under each /bin/sh a Pi may have
  dash busybox
)

install_debian_packages() {
  command -v dpkg-query >/dev/null 2>&1 || {
    say "not a Debian-based system: install iperf3, OpenSSH server, sudo and iproute2 yourself."
    return 0
  }
  local missing=() pkg
  for pkg in "${DEBIAN_PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" \
      || missing+=("$pkg")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  if [ "$(id -u)" -ne 0 ]; then
    say "missing Debian packages: ${missing[*]}"
    say "run as root, or: sudo apt-get install -y ${missing[*]}"
    return 1
  fi
  say "installing Debian packages: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  # Another apt may hold the lock (a parallel set-up, unattended upgrades): wait for it.
  apt-get -o DPkg::Lock::Timeout=900 update -qq >/dev/null \
    && apt-get -o DPkg::Lock::Timeout=900 install -y -qq --no-install-recommends "${missing[@]}" >/dev/null \
    || { say "apt-get failed to install: ${missing[*]}"; return 1; }
}

find_python() {
  local candidate
  for candidate in python3.13 python3.12 python3.11 python3.10 python3; do
    if command -v "$candidate" >/dev/null 2>&1 &&
      "$candidate" -c 'import sys, venv; sys.exit(sys.version_info < (3, 10))' 2>/dev/null; then
      command -v "$candidate"
      return 0
    fi
  done
  return 1
}

install_venv() {
  local python stamp want
  python=$(find_python) || { say "Python 3.10 or newer with venv is needed."; return 1; }
  if [ ! -x "$VENV/bin/python" ]; then
    say "creating virtualenv in $VENV"
    "$python" -m venv "$VENV" || { say "could not create $VENV (Debian: apt-get install python3-venv)"; return 1; }
  fi
  stamp="$VENV/.sbctune-installed"
  want=$(cat "$SBCTUNE_ROOT/pyproject.toml" "$SBCTUNE_ROOT/setup.py" | sha256sum | cut -d' ' -f1)
  if [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
    say "installing sbctune and its dependencies into $VENV"
    "$VENV/bin/python" -m pip install -q --disable-pip-version-check --upgrade pip >/dev/null 2>&1
    # setuptools tells at every editable install (as "BuildBackendWarning", though it is its
    # "InformationOnly" notice) to beware of folders named like the package; there is no
    # sbctune/ folder here, so that block is dropped with pip's notes on absent index folders.
    # A registry that does not answer for a minute (CI once failed its whole run on a name
    # resolution blip) gets two more tries, 30 s and 90 s later; a real failure still fails.
    local attempt wait_s
    for attempt in 1 2 3; do
      "$VENV/bin/python" -m pip install -q --disable-pip-version-check -e "$SBCTUNE_ROOT[dev,lab]" 2>&1 \
        | awk '/Editable installation\./ { skip = 1 } !skip { print } /with strategy, WheelFile/ { skip = 0 }' \
        | grep -v -e "is ignored: it is neither" -e "^$" >&2
      "$VENV/bin/python" -c "import sbctune, asyncssh, PySide6" 2>/dev/null && break
      [ "$attempt" = 3 ] && { say "pip install failed (3 tries): see pip's messages above"; return 1; }
      wait_s=$((attempt == 1 ? 30 : 90))
      say "pip install failed (try $attempt of 3): trying again in $wait_s s"
      sleep "$wait_s"
    done
    echo "$want" >"$stamp"
  fi
}

bootstrap() {
  install_debian_packages || return 1
  install_venv || return 1
  export PATH="$VENV/bin:$PATH"
}
