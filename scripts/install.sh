#!/usr/bin/env bash
# `make install`: engram, engram-feed, engram-mcp, engram-app (the window), the Integrations/bin scripts, the desktop files, the
# icons and AppStream metadata, and the feed timers,
# each where the desktop reads it.
#
#   scripts/install.sh BINARY PREFIX        (DESTDIR=… for packaging; SYSTEMD_USER_UNIT_DIR=… to override)
#
# engram-feed is taken from BINARY's folder (FEED_BINARY=… to override): `make install` builds both.
# The shell completions (bash, zsh, fish) and the man pages are generated here from engram's own argument
# parser, so they always match the binary; the pages by ArgumentParser's generate-manual tool, taken from
# BINARY's folder too (GENERATE_MANUAL=… to override; `make install` builds it).
# The helper scripts find engram, engram-feed and each other on PATH, so they go next to them in PREFIX/bin;
# the systemd timer units get that folder written into ExecStart. The integration configs and their
# READMEs go to PREFIX/share/doc/engram/Integrations/.
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

feed_binary="${FEED_BINARY:-$(dirname "$binary")/engram-feed}"
mcp_binary="${MCP_BINARY:-$(dirname "$binary")/engram-mcp}"
app_binary="${APP_BINARY:-$(dirname "$binary")/engram-app}"
generate_manual="${GENERATE_MANUAL:-$(dirname "$binary")/generate-manual}"
docdir="$datadir/doc/engram"

for b in "$binary" "$feed_binary" "$mcp_binary" "$app_binary" "$generate_manual"; do
  [ -x "$b" ] || { echo "engram: $b is not built; run make install (it builds everything it installs)" >&2; exit 1; }
done
generated="$(mktemp -d)"
trap 'rm -rf "$generated"' EXIT
mkdir "$generated/man"
# The pages' date: SOURCE_DATE_EPOCH's day when it is set (make deb, reproducible), else today.
man_date=()
[ -n "${SOURCE_DATE_EPOCH:-}" ] && man_date=(--date "$(date -u -d "@$SOURCE_DATE_EPOCH" +%Y-%m-%d)")
"$generate_manual" "$binary" --multi-page "${man_date[@]}" --output-directory "$generated/man" >/dev/null
for shell in bash zsh fish; do
  "$binary" --generate-completion-script "$shell" > "$generated/engram.$shell"
done

# put SOURCE DEST MODE: copies a file, substituting @bindir@ in templates (*.in).
put() {
  local src="$1" dest="$destdir$2" mode="$3"
  mkdir -p "$(dirname "$dest")"
  if [[ "$src" == *.in ]]; then
    sed "s|@bindir@|$bindir|g" "$src" > "$dest.tmp"
    chmod "$mode" "$dest.tmp"
    mv "$dest.tmp" "$dest"
  elif [[ "$src" == */Integrations/systemd/*.service ]]; then
    # Written for ~/.local/bin (the manual install in Integrations/systemd/README.md): point them at bindir.
    sed -e "s|%h/\.local/bin/|$bindir/|g" -e "s|PATH=%h/\.local/bin:|PATH=$bindir:%h/.local/bin:|" \
        -e "s|file://%h/\.local/share/doc/engram/|file://$docdir/|" "$src" > "$dest.tmp"
    chmod "$mode" "$dest.tmp"
    mv "$dest.tmp" "$dest"
  else
    install -m "$mode" "$src" "$dest"
  fi
  echo "  $2"
}

echo "Installing Engram into $destdir$prefix:"
put "$binary" "$bindir/engram" 755
put "$feed_binary" "$bindir/engram-feed" 755
put "$mcp_binary" "$bindir/engram-mcp" 755
put "$app_binary" "$bindir/engram-app" 755
for script in "$root"/Integrations/bin/engram-*; do
  put "$script" "$bindir/$(basename "$script")" 755
done
put "$desktop/applications/org.engram.Engram.desktop.in" "$datadir/applications/org.engram.Engram.desktop" 644
# Engram's icon (the desktop entry's Icon=org.engram.Engram; -symbolic for the top bar and notifications) in the
# hicolor theme every icon theme falls back to, and its AppStream metadata for software centres.
put "$desktop/icons/hicolor/scalable/apps/org.engram.Engram.svg" "$datadir/icons/hicolor/scalable/apps/org.engram.Engram.svg" 644
put "$desktop/icons/hicolor/symbolic/apps/org.engram.Engram-symbolic.svg" \
    "$datadir/icons/hicolor/symbolic/apps/org.engram.Engram-symbolic.svg" 644
put "$desktop/metainfo/org.engram.Engram.metainfo.xml" "$datadir/metainfo/org.engram.Engram.metainfo.xml" 644
put "$desktop/dbus-1/services/org.engram.Engram.service.in" "$datadir/dbus-1/services/org.engram.Engram.service" 644
for xml in "$desktop"/dbus-1/interfaces/*.xml; do
  put "$xml" "$datadir/dbus-1/interfaces/$(basename "$xml")" 644
done
put "$desktop/gnome-shell/search-providers/org.engram.Engram.search-provider.ini" \
    "$datadir/gnome-shell/search-providers/org.engram.Engram.search-provider.ini" 644
# GNOME Shell's top-bar indicator, twice (one folder holds one extension.js): the ES-module extension for GNOME 45+
# as written, and the 43–44 variant scripts/gnome-extension-legacy.py writes from it (uuid engram-legacy@engram.org).
# Each shell loads only the one whose metadata lists its version; Desktop/gnome-shell/extension/README.md.
extension_src="$desktop/gnome-shell/extension"
python3 "$root/scripts/gnome-extension-legacy.py" "$extension_src" "$generated/extension-legacy" >/dev/null
for f in "$extension_src"/metadata.json "$extension_src"/*.js "$extension_src"/*.css; do
  put "$f" "$datadir/gnome-shell/extensions/engram@engram.org/$(basename "$f")" 644
done
for f in "$generated"/extension-legacy/*; do
  put "$f" "$datadir/gnome-shell/extensions/engram-legacy@engram.org/$(basename "$f")" 644
done
put "$desktop/krunner/dbusplugins/org.engram.Engram.desktop" "$datadir/krunner/dbusplugins/org.engram.Engram.desktop" 644
# The Plasma widget: one source, its root QML chosen for the Plasma found here (PLASMA_GENERATION=5|6 overrides;
# Desktop/plasma/README.md). Plasma finds it in PREFIX/share/plasma/plasmoids (XDG_DATA_DIRS, or ~/.local/share).
plasma_generation="$("$desktop/plasma/install-plasmoid.sh" "$desktop/plasma/org.engram.Engram.plasmoid" \
    "$destdir$datadir/plasma/plasmoids/org.engram.Engram.plasmoid")"
echo "  $datadir/plasma/plasmoids/org.engram.Engram.plasmoid (for Plasma $plasma_generation)"
# The meaning-search model and engine (scripts/install-model.sh put them in .build/model; MODEL_DIR=… to override):
# an installed engram finds them in PREFIX/lib/engram/model. Without them it searches by words alone.
model_dir="${MODEL_DIR:-$root/.build/model}"
if [ -f "$model_dir/libe5.so" ]; then
  for f in libe5.so e5-small-q4.bin e5-small-enpt-q4.bin; do
    [ -f "$model_dir/$f" ] && put "$model_dir/$f" "$prefix/lib/engram/model/$f" 644
  done
else
  echo "  (no meaning-search model in $model_dir: \`make model\` fetches it; search works by words meanwhile)"
fi
# The speech recogniser for `engram listen` (scripts/install-speech.sh put it in .build/speech; SPEECH_DIR=… to
# override): an installed engram finds it in PREFIX/lib/engram/speech. Without it, listening says how to install it.
speech_dir="${SPEECH_DIR:-$root/.build/speech}"
if [ -f "$speech_dir/libengram-stt.so" ]; then
  for f in libengram-stt.so libsherpa-onnx-c-api.so libonnxruntime.so encoder_model.ort decoder_model_merged.ort tokens.txt \
           LICENSE.moonshine; do
    put "$speech_dir/$f" "$prefix/lib/engram/speech/$f" 644
  done
else
  echo "  (no speech recogniser in $speech_dir: \`make model\` fetches it; engram listen says so meanwhile)"
fi
put "$desktop/systemd/user/engram.service.in" "$unitdir/engram.service" 644
for unit in "$root"/Integrations/systemd/engram-*.service "$root"/Integrations/systemd/engram-*.timer; do
  put "$unit" "$unitdir/$(basename "$unit")" 644
done
# Completions where bash-completion, zsh and fish look for them, and a man page per command (man engram.search).
put "$generated/engram.bash" "$datadir/bash-completion/completions/engram" 644
put "$generated/engram.zsh" "$datadir/zsh/vendor-completions/_engram" 644
put "$generated/engram.fish" "$datadir/fish/vendor_completions.d/engram.fish" 644
for page in "$generated"/man/*.1; do
  put "$page" "$datadir/man/man1/$(basename "$page")" 644
done
# The configs for Waybar, Conky, i3blocks, polybar, sway/i3 and their READMEs (the scripts are in bindir).
for f in "$root"/Integrations/*.md "$root"/Integrations/*/*; do
  rel="${f#"$root"/}"
  case "$rel" in Integrations/bin/*) continue ;; esac
  mode=644; [[ "$f" == *.sh ]] && mode=755
  put "$f" "$docdir/$rel" "$mode"
done

if [ -z "$destdir" ]; then
  # Let the desktop find the engram:// handler, and systemd the unit, without logging out.
  command -v update-desktop-database >/dev/null && update-desktop-database -q "$datadir/applications" || true
  # Running shells look at the icon again when the theme's top folder changes (the icon theme spec's signal); a cache
  # already there is brought up to date (a package manager's trigger does this for /usr/share), none is made.
  touch "$datadir/icons/hicolor" 2>/dev/null || true
  if [ -f "$datadir/icons/hicolor/icon-theme.cache" ] && command -v gtk-update-icon-cache >/dev/null; then
    gtk-update-icon-cache -q -t -f "$datadir/icons/hicolor" || true
  fi
  if [ -n "${DBUS_SESSION_BUS_ADDRESS:-}" ] && command -v systemctl >/dev/null; then
    systemctl --user daemon-reload 2>/dev/null || true
  fi
fi

case "$prefix" in
  /usr|/usr/local) ;;
  *) echo "Note: GNOME Shell reads search providers only from /usr/share and /usr/local/share;" \
          "install with PREFIX=/usr/local for the GNOME overview. KRunner and D-Bus activation work from $prefix." ;;
esac
# Restarting KRunner: Plasma 6 has kquitapp6, Plasma 5 kquitapp5; name the one this machine has (both if neither).
if command -v kquitapp6 >/dev/null 2>&1; then krunner_restart="kquitapp6 krunner"
elif command -v kquitapp5 >/dev/null 2>&1; then krunner_restart="kquitapp5 krunner"
else krunner_restart="kquitapp6 krunner (Plasma 6) or kquitapp5 krunner (Plasma 5)"; fi
cat <<MSG
Done. The daemon starts by itself on the first search (D-Bus activation); to start it with your session:
  systemctl --user enable --now engram.service
Feeds for bars and widgets: $bindir/engram-feed motd --format waybar   (configs: $docdir/Integrations/)
Morning review and evening summary notifications:
  systemctl --user enable --now engram-morning-review.timer engram-evening-summary.timer
Open engram:// links with Engram:  xdg-mime default org.engram.Engram.desktop x-scheme-handler/engram
GNOME Shell picks up new search providers after you log out and in again; KRunner after: $krunner_restart
The top-bar indicator (GNOME 45+; on 43–44 engram-legacy@engram.org):  gnome-extensions enable engram@engram.org
The Plasma widget: the panel's Add Widgets…, "Engram"
MSG
