#!/usr/bin/env bash
# Installs the Debian packages Engram needs to build, run and test; does nothing when all are present.
# The Swift toolchain is not a Debian package: without `swift` on PATH ($SWIFT overrides the name) this
# says where to get it and fails before installing or building anything.
set -euo pipefail

swift_bin="${SWIFT:-swift}"
swift_help="Engram builds with Swift 6: download the Swift 6.x toolchain for Debian 12 from
https://www.swift.org/install/linux/ (swift-6.x-RELEASE-debian12.tar.gz), unpack it (for example into
/opt/swift) and put its usr/bin on PATH (export PATH=/opt/swift/usr/bin:\$PATH), then run make again."
if ! command -v "$swift_bin" >/dev/null 2>&1; then
  echo "engram: cannot build: no \`$swift_bin\` on PATH. $swift_help" >&2
  exit 1
fi
swift_version="$("$swift_bin" --version 2>/dev/null | sed -n 's/.*Swift version \([0-9][0-9]*\)\..*/\1/p' | head -1)"
if [ -z "$swift_version" ] || [ "$swift_version" -lt 6 ]; then
  echo "engram: cannot build: \`$swift_bin\` is not Swift 6 or later ($("$swift_bin" --version 2>&1 | head -1)). $swift_help" >&2
  exit 1
fi

packages=(
  # build (GTK 4 and libadwaita for the window, engram-app)
  libxapian-dev libdbus-1-dev libsqlite3-dev pkg-config libgtk-4-dev libadwaita-1-dev
  # the window's tests: its accessibility tree read back through AT-SPI (the a11y bus and registry, pyatspi)
  at-spi2-core python3-pyatspi
  # what the Swift toolchain runs on (swift.org's Debian 12 list, and what swift-build and swift-frontend link):
  # SwiftPM clones dependencies with git; clang links with binutils, gcc's start files and the C/C++ libraries; patch applies
  # Engram's kernels to the meaning engine (scripts/model)
  git binutils gcc patch libc6-dev libstdc++-12-dev libcurl4 libxml2 libsqlite3-0 libncurses6 libuuid1 zlib1g tzdata
  # run and test: Xapian's own tools, the bus, D-Bus peers and validators
  python3-pip python3-venv xapian-tools dbus-daemon dbus-bin libglib2.0-bin python3-dbusmock python3-dbus python3-xapian desktop-file-utils graphviz python3-gi
  # sync between devices: two real Syncthings on loopback (make test-sync); ss lists what they listen on, ps
  # their process groups
  syncthing iproute2 procps
  # the shells whose completion scripts the tests parse (`zsh -n`, `fish -n`)
  zsh fish
  # the language's word list: engram listen reads a capture back when a word of it is in neither this nor the store
  wamerican
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
    procps swaybg
    # reading the widgets' text back from screenshots (Conky under Xvfb, rofi as you type)
    tesseract-ocr tesseract-ocr-eng
    # make install's AppStream metadata and desktop entry, validated in the prefix (desktop-file-utils is above)
    appstream)
fi
if [ "${1:-}" = "--shells" ]; then
  # make test-shells: headless GNOME Shell 43 (software rendering, no X server) and gcc for its LD_PRELOAD;
  # KF5's RunnerManager through Milou (KRunner's list) and RunnerModel under qmlscene; dbus-monitor records calls
  packages+=(gnome-shell mutter libgl1-mesa-dri libegl-mesa0 gsettings-desktop-schemas gjs dconf-service gcc
    qmlscene qml-module-qtqml qml-module-qtquick2 qml-module-org-kde-runnermodel milou qml-module-org-kde-kirigami2
    qml-module-qtquick-controls2 qml-module-qtquick-layouts qml-module-qtgraphicaleffects
    dbus-daemon dbus-bin libglib2.0-bin python3-gi python3-dbus coreutils
    # the Plasma 5.27 widget in plasmoidviewer under Xvfb, read back by OCR
    plasma-sdk xvfb imagemagick tesseract-ocr tesseract-ocr-eng
    # push-to-talk from the extension and the widget: a headless PulseAudio whose microphone the tests feed
    pulseaudio pulseaudio-utils libpulse0 sox)
fi
if [ "${1:-}" = "--deb" ]; then
  # make deb: dpkg-shlibdeps (dpkg-dev), lintian, file; libcurl's link name for the statically linked FoundationNetworking
  # (engram-mcp); mmdebstrap builds the Debian 13 root the package is tested in
  # qemu-user and gcc run the packaged meaning engine on an emulated processor without AVX2 (make test-deb); appstreamcli
  # and desktop-file-validate check the installed AppStream metadata and desktop entry (make test-deb)
  packages+=(dpkg-dev lintian fakeroot file binutils libcurl4-openssl-dev mmdebstrap qemu-user gcc appstream desktop-file-utils)
fi
if [ "${1:-}" = "--window" ]; then
  # make test-window: a virtual X display, mutter as its compositor, xdotool to type, the accessibility bus, pyatspi
  packages+=(xvfb mutter xdotool at-spi2-core python3-pyatspi imagemagick procps libglib2.0-bin dbus-daemon adwaita-icon-theme)
fi
if [ "${1:-}" = "--voice" ]; then
  # make test-voice: a headless PulseAudio whose microphone is a pipe the tests feed (module-pipe-source) and
  # whose speaker they record; libpulse0 is what engram listen records with, libespeak-ng1 what it speaks with;
  # espeak-ng and sox make and shape the test recordings; speech-dispatcher is the desktop's speech service
  # dunst on Xvfb shows the notifications of a listening
  packages+=(pulseaudio pulseaudio-utils libpulse0 libespeak-ng1 espeak-ng speech-dispatcher sox python3-venv gcc dbus-daemon
    dunst xvfb libglib2.0-bin)
fi
if [ "${1:-}" = "--bench" ]; then
  # perf and valgrind: for profiling a missed target (`perf record -g`, `valgrind --tool=callgrind`).
  packages+=(python3-xapian python3-dbus g++ libxapian-dev dbus-daemon dbus-bin linux-perf valgrind python3-numpy lz4
    # the window's figures: a virtual display, mutter, typing
    xvfb mutter xdotool)
fi

if [ "${1:-}" = "--stress" ]; then
  # make stress: Xapian's tools and bindings, the bus and its clients, notification servers, ss, timeout
  packages+=(xapian-tools python3-xapian python3-dbus python3-dbusmock python3-gi dbus-daemon dbus-bin libglib2.0-bin
    dunst xvfb iproute2 procps coreutils util-linux
    # part 5 runs the feeds' parsed output through the real Conky (console only)
    conky-std)
fi

# The meaning benchmark reads Debian's long package descriptions (Translation-en), which apt fetches only when asked.
if [ "${1:-}" = "--bench" ] && ! ls /var/lib/apt/lists/*Translation-en* >/dev/null 2>&1; then
  SUDO_BENCH=""; [ "$(id -u)" -ne 0 ] && SUDO_BENCH="sudo"
  $SUDO_BENCH apt-get update -qq -o Acquire::Languages=en || echo "engram: could not fetch Debian's Translation-en files" >&2
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
# With --bench, the update keeps Debian's Translation-en lists (the meaning benchmark reads them): a plain update
# under Debian's default `Acquire::Languages "none"` deletes the ones fetched above.
if [ "${1:-}" = "--bench" ]; then $SUDO apt-get update -qq -o Acquire::Languages=en; else $SUDO apt-get update -qq; fi
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
