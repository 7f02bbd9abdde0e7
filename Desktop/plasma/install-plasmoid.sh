#!/usr/bin/env bash
# Installs the Engram widget (plasmoid) for the Plasma this machine runs: one source tree, one id
# (org.engram.Engram.plasmoid), the root QML file chosen here (see README.md).
#
#   Desktop/plasma/install-plasmoid.sh PACKAGE_DIR DEST_DIR [5|6]
#
# PACKAGE_DIR is Desktop/plasma/org.engram.Engram.plasmoid; DEST_DIR becomes the installed package
# (PREFIX/share/plasma/plasmoids/org.engram.Engram.plasmoid). The generation is the third argument, else
# $PLASMA_GENERATION, else found from the Plasma library installed: libPlasma.so.6 → 6, else libKF5Plasma.so.5 → 5,
# else 6. Plasma 6 always loads contents/ui/main.qml (PlasmoidItem); for 5.27 main5.qml is installed in its place.
# Prints the generation it installed for.
set -euo pipefail
src="${1%/}"
dest="${2%/}"
generation="${3:-${PLASMA_GENERATION:-}}"
if [ -z "$generation" ]; then
  generation=6
  found() { for f in "$@"; do [ -e "$f" ] && return 0; done; return 1; }
  if found /usr/lib/*/libPlasma.so.6 /usr/lib64/libPlasma.so.6 /usr/lib/libPlasma.so.6 /usr/local/lib*/libPlasma.so.6; then
    generation=6
  elif found /usr/lib/*/libKF5Plasma.so.5 /usr/lib64/libKF5Plasma.so.5 /usr/lib/libKF5Plasma.so.5; then
    generation=5
  fi
fi
case "$generation" in 5|6) ;; *) echo "install-plasmoid: generation must be 5 or 6, not '$generation'" >&2; exit 64 ;; esac
[ -f "$src/metadata.json" ] && [ -f "$src/contents/ui/main.qml" ] && [ -f "$src/contents/ui/main5.qml" ] ||
  { echo "install-plasmoid: $src is not the Engram plasmoid's source" >&2; exit 66; }

rm -rf "$dest.tmp"
mkdir -p "$dest.tmp/contents/ui"
install -m 644 "$src/metadata.json" "$dest.tmp/metadata.json"
for f in "$src"/contents/ui/*; do
  case "$(basename "$f")" in main.qml|main5.qml) continue ;; esac
  install -m 644 "$f" "$dest.tmp/contents/ui/$(basename "$f")"
done
if [ "$generation" = 5 ]; then
  install -m 644 "$src/contents/ui/main5.qml" "$dest.tmp/contents/ui/main.qml"
else
  install -m 644 "$src/contents/ui/main.qml" "$dest.tmp/contents/ui/main.qml"
fi
rm -rf "$dest"
mv "$dest.tmp" "$dest"
echo "$generation"
