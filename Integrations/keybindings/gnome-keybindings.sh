#!/usr/bin/env bash
# Adds Engram shortcuts to GNOME (Settings → Keyboard → Custom Shortcuts), keeping any you already have.
#   Super+M        capture a note        Super+Ctrl+M   search memories (rofi, through Xwayland)
# Undo: remove the engram-* entries in Settings, or `gsettings reset org.gnome.settings-daemon.plugins.media-keys custom-keybindings`.
set -euo pipefail
schema=org.gnome.settings-daemon.plugins.media-keys
base=/org/gnome/settings-daemon/plugins/media-keys/custom-keybindings

add() {  # add NAME BINDING COMMAND
    local path="$base/engram-$1/"
    local current
    current=$(gsettings get $schema custom-keybindings)
    if [[ $current != *"$path"* ]]; then
        if [[ $current == "@as []" || $current == "[]" ]]; then current="['$path']"; else current="${current%]}, '$path']"; fi
        gsettings set $schema custom-keybindings "$current"
    fi
    gsettings set "$schema.custom-keybinding:$path" name "Engram: $1"
    gsettings set "$schema.custom-keybinding:$path" binding "$2"
    gsettings set "$schema.custom-keybinding:$path" command "$3"
}

add capture '<Super>m' 'engram-capture note'
add search '<Super><Control>m' 'rofi -show engram -modi engram:engram-rofi'
add session '<Super>p' 'engram-session-toggle'
gsettings get $schema custom-keybindings
