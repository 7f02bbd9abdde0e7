#!/usr/bin/env bash
# Installs the Debian packages Engram needs to build, run and test; does nothing when all are present.
set -euo pipefail

packages=(
  # build
  libxapian-dev libdbus-1-dev libsqlite3-dev pkg-config
  # run and test: Xapian's own tools, the bus, D-Bus peers and validators
  xapian-tools dbus-daemon dbus-bin libglib2.0-bin python3-dbusmock python3-dbus python3-xapian desktop-file-utils graphviz python3-gi
  # the icon themes the desktop search icons are checked against (GNOME's Adwaita, the hicolor fallback)
  adwaita-icon-theme hicolor-icon-theme
  # live notifications end to end: dunst under a virtual X display, busctl for `dunstctl history`, screenshots
  dunst xvfb imagemagick systemd
)
if [ "${1:-}" = "--widgets" ]; then
  packages+=(dunst xvfb waybar sway conky-std i3blocks rofi grim x11-apps imagemagick
    # feeds end to end: the other bars and launchers, notify-send, typing into them, fonts, JSON
    polybar fuzzel wofi libnotify-bin xdotool wtype x11-utils fonts-dejavu-core jq
    # what the end-to-end script itself runs: pgrep, sway's background
    procps swaybg)
fi
if [ "${1:-}" = "--bench" ]; then
  # perf and valgrind: for profiling a missed target (`perf record -g`, `valgrind --tool=callgrind`).
  packages+=(python3-xapian python3-dbus g++ libxapian-dev dbus-daemon dbus-bin linux-perf valgrind)
fi

if [ "${1:-}" = "--stress" ]; then
  # make stress: Xapian's tools and bindings, the bus and its clients, notification servers, ss, timeout
  packages+=(xapian-tools python3-xapian python3-dbus python3-dbusmock python3-gi dbus-daemon dbus-bin libglib2.0-bin
    dunst xvfb iproute2 procps coreutils util-linux)
fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "engram: installing ${missing[*]}" >&2
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "engram: run as root, or install: ${missing[*]}" >&2; exit 1; }
  SUDO="sudo"
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
