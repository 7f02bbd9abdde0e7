#!/usr/bin/env bash
# `make install`: the engram binary and its desktop files, each where the desktop reads it.
#
#   scripts/install.sh BINARY PREFIX        (DESTDIR=… for packaging; SYSTEMD_USER_UNIT_DIR=… to override)
#
# GNOME Shell reads search providers only from the system data folders (/usr/share, /usr/local/share),
# never from ~/.local/share: install with PREFIX=/usr/local (the default) for GNOME. KRunner, D-Bus
# activation, the desktop entry and the systemd user unit also work from PREFIX=~/.local.
set -euo pipefail
binary="$1"
prefix="${2%/}"
destdir="${DESTDIR:-}"
root="$(cd "$(dirname "$0")/.." && pwd)"
desktop="$root/Desktop"
bindir="$prefix/bin"
datadir="$prefix/share"
if [ -n "${SYSTEMD_USER_UNIT_DIR:-}" ]; then
  unitdir="$SYSTEMD_USER_UNIT_DIR"
elif [ -n "${HOME:-}" ] && [ "$prefix" = "$HOME/.local" ]; then
  unitdir="$datadir/systemd/user"        # the per-user unit folder systemd reads
else
  unitdir="$prefix/lib/systemd/user"     # /usr/lib/systemd/user, /usr/local/lib/systemd/user
fi

[ -x "$binary" ] || { echo "engram: $binary is not built; run make release first" >&2; exit 1; }

# put SOURCE DEST MODE: copies a file, substituting @bindir@ in templates (*.in).
put() {
  local src="$1" dest="$destdir$2" mode="$3"
  mkdir -p "$(dirname "$dest")"
  if [[ "$src" == *.in ]]; then
    sed "s|@bindir@|$bindir|g" "$src" > "$dest.tmp"
    chmod "$mode" "$dest.tmp"
    mv "$dest.tmp" "$dest"
  else
    install -m "$mode" "$src" "$dest"
  fi
  echo "  $2"
}

echo "Installing Engram into $destdir$prefix:"
put "$binary" "$bindir/engram" 755
put "$desktop/applications/org.engram.Engram.desktop.in" "$datadir/applications/org.engram.Engram.desktop" 644
put "$desktop/dbus-1/services/org.engram.Engram.service.in" "$datadir/dbus-1/services/org.engram.Engram.service" 644
for xml in "$desktop"/dbus-1/interfaces/*.xml; do
  put "$xml" "$datadir/dbus-1/interfaces/$(basename "$xml")" 644
done
put "$desktop/gnome-shell/search-providers/org.engram.Engram.search-provider.ini" \
    "$datadir/gnome-shell/search-providers/org.engram.Engram.search-provider.ini" 644
put "$desktop/krunner/dbusplugins/org.engram.Engram.desktop" "$datadir/krunner/dbusplugins/org.engram.Engram.desktop" 644
put "$desktop/systemd/user/engram.service.in" "$unitdir/engram.service" 644

if [ -z "$destdir" ]; then
  # Let the desktop find the engram:// handler, and systemd the unit, without logging out.
  command -v update-desktop-database >/dev/null && update-desktop-database -q "$datadir/applications" || true
  if [ -n "${DBUS_SESSION_BUS_ADDRESS:-}" ] && command -v systemctl >/dev/null; then
    systemctl --user daemon-reload 2>/dev/null || true
  fi
fi

case "$prefix" in
  /usr|/usr/local) ;;
  *) echo "Note: GNOME Shell reads search providers only from /usr/share and /usr/local/share;" \
          "install with PREFIX=/usr/local for the GNOME overview. KRunner and D-Bus activation work from $prefix." ;;
esac
cat <<MSG
Done. The daemon starts by itself on the first search (D-Bus activation); to start it with your session:
  systemctl --user enable --now engram.service
Open engram:// links with Engram:  xdg-mime default org.engram.Engram.desktop x-scheme-handler/engram
GNOME Shell picks up new search providers after you log out and in again; KRunner after: kquitapp5 krunner
MSG
