#!/usr/bin/env bash
# Engram feeds in the real programs, headless: Waybar in sway, i3blocks, Conky, polybar, rofi, fuzzel,
# wofi, dunst and the systemd units — on the sample collection plus memories written to break widgets.
#
#   scripts/widgets-e2e.sh [--screenshots] [ENGRAM_BIN [ENGRAM_FEED_BIN]]
#
# Logs, screenshots and results.md go to bench-out/widgets/; with --screenshots the screenshots are also
# copied into Integrations/*/. A program that cannot run here is skipped with the reason (not failed);
# any broken expectation fails the run. sway refuses to run as root, so as root everything runs as a
# user `engramtest` (created if missing).
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
update_screenshots=0
[ "${1:-}" = "--screenshots" ] && { update_screenshots=1; shift; }
engram_bin=${1:-$root/.build/debug/engram}
feed_bin=${2:-$root/.build/debug/engram-feed}

scripts/install-deps.sh --widgets || { echo "widgets-e2e: cannot install the widget programs" >&2; exit 1; }
if [ ! -x "$engram_bin" ] || [ ! -x "$feed_bin" ]; then
    { swift build --product engram && swift build --product engram-feed; } >/dev/null || exit 1
fi

out="$root/bench-out/widgets"
rm -rf "$out"; mkdir -p "$out"
work="$(mktemp -d /tmp/engram-widgets.XXXXXX)"
chmod 755 "$work"
pids=()
cleanup() {
    for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
    sleep 0.3
    for p in "${pids[@]}"; do kill -9 "$p" 2>/dev/null; done
    rm -rf "$work"
}
trap cleanup EXIT

# ---------------------------------------------------------------- results
results=()
pass() { results+=("PASS|$1|$2"); echo "PASS  $1: $2"; }
fail() { results+=("FAIL|$1|$2"); echo "FAIL  $1: $2"; }
skip() { results+=("SKIP|$1|$2"); echo "SKIP  $1: $2"; }
check() {  # check PROGRAM "what a user would see" COMMAND…
    local name=$1 what=$2; shift 2
    if "$@"; then pass "$name" "$what"; else fail "$name" "$what"; fi
}

# ---------------------------------------------------------------- the user, the binaries, the data
export LANG=C.UTF-8 TZ=UTC
user=$(id -un)
if [ "$(id -u)" -eq 0 ]; then
    user=engramtest
    id "$user" >/dev/null 2>&1 || useradd -m -s /bin/bash "$user"
fi
home="$work/home"
mkdir -p "$home/.config" "$work/bin" "$work/data" "$work/config" "$work/xdg"
install -m 755 "$engram_bin" "$work/bin/engram"
install -m 755 "$feed_bin" "$work/bin/engram-feed"
install -m 755 Integrations/bin/* "$work/bin/"
printf '#!/bin/sh\necho %s\n' "'{\"text\":\"unescaped & <control\"}'" > "$work/bin/waybar-control"
chmod 755 "$work/bin/waybar-control"
export PATH="$work/bin:$PATH" HOME="$home" ENGRAM_DATA_DIR="$work/data" ENGRAM_CONFIG_DIR="$work/config"
export XDG_RUNTIME_DIR="$work/xdg"
chown -R "$user" "$work" "$out" 2>/dev/null || true
chmod 700 "$XDG_RUNTIME_DIR"

display_env() {  # Wayland clients get no DISPLAY; with the bus address set, nothing autolaunches a D-Bus (dbus-launch)
    if [ -n "${WAYLAND_DISPLAY:-}" ]; then echo "WAYLAND_DISPLAY=$WAYLAND_DISPLAY"; elif [ -n "${DISPLAY:-}" ]; then echo "DISPLAY=$DISPLAY"; fi
}
as_user() {  # runs a command as the test user: the store, the Wayland socket and the runtime folder are theirs
    if [ "$(id -u)" -eq 0 ]; then
        setpriv --reuid="$user" --regid="$user" --init-groups env HOME="$home" USER="$user" LOGNAME="$user" \
            PATH="$PATH" ENGRAM_DATA_DIR="$ENGRAM_DATA_DIR" ENGRAM_CONFIG_DIR="$ENGRAM_CONFIG_DIR" TZ="$TZ" LANG="$LANG" \
            XDG_RUNTIME_DIR="$XDG_RUNTIME_DIR" NO_AT_BRIDGE=1 $(display_env) \
            DBUS_SESSION_BUS_ADDRESS="${DBUS_SESSION_BUS_ADDRESS:-unix:path=$work/no-bus}" "$@"
    else
        "$@"
    fi
}
eng() { as_user engram "$@"; }
spawned=""
spawn() {  # spawn LOG COMMAND… — in the background as the test user; $spawned is the program's own pid
    local log=$1; shift
    if [ "$(id -u)" -eq 0 ]; then
        setpriv --reuid="$user" --regid="$user" --init-groups env HOME="$home" USER="$user" LOGNAME="$user" \
            PATH="$PATH" ENGRAM_DATA_DIR="$ENGRAM_DATA_DIR" ENGRAM_CONFIG_DIR="$ENGRAM_CONFIG_DIR" TZ="$TZ" LANG="$LANG" \
            XDG_RUNTIME_DIR="$XDG_RUNTIME_DIR" NO_AT_BRIDGE=1 $(display_env) \
            DBUS_SESSION_BUS_ADDRESS="${DBUS_SESSION_BUS_ADDRESS:-unix:path=$work/no-bus}" \
            "$@" > "$log" 2>&1 < "${SPAWN_INPUT:-/dev/null}" &
    else
        "$@" > "$log" 2>&1 < "${SPAWN_INPUT:-/dev/null}" &
    fi
    spawned=$!
    pids+=("$spawned")
}
feed() { as_user engram-feed "$@"; }

eng import Samples/memories.jsonl Samples/curricula/swift-concurrency.toml Samples/curricula/spanish-b1.yaml >/dev/null \
    || { echo "widgets-e2e: import failed" >&2; exit 1; }
eng session start --curriculum swift-concurrency >/dev/null
# Memories written to break widgets; remember_hostile makes one the newest, which `recent` shows first.
hostile_markup='<b>bold</b> & <span foreground="red">Tom & Jerry</span> <i>unclosed'
hostile_conky='costs $5 #1 ${exec echo INJECTED} $HOME'
hostile_polybar="%{A1:touch $work/pwned-ours:}CLICK ME IF YOU DARE%{A}"
hostile_rtl=$'שלום \u202eevil\u202c مرحبا 👩‍👩‍👧‍👦'
remember_hostile() { printf '%s' "$1" | eng remember --tag hostile >/dev/null; sleep 1.1; }
remember_hostile "$hostile_rtl"
remember_hostile "$hostile_markup"

shrink() { convert "$1" -strip -colors 128 "$1" 2>/dev/null || true; }
keep_screenshot() {  # keep_screenshot FILE DEST — copied into Integrations/ with --screenshots
    [ -s "$1" ] || return 1
    shrink "$1"
    if [ $update_screenshots -eq 1 ]; then cp "$1" "$2"; fi
    return 0
}
colours() { identify -format '%k' "$1" 2>/dev/null || echo 0; }
trim() { convert "$1" -fuzz 3% -trim +repage "$2" 2>/dev/null && rm -f "$1"; }

# ---------------------------------------------------------------- headless sway (as the test user)
sway_pid=""
start_sway() {  # start_sway NAME CONFIG-LINES — one 1280x720 output
    # (Files are named session-N, not after the bar: a broad `pkill -f waybar` below must not hit sway.)
    sway_count=$((${sway_count:-0} + 1))
    local conf="$work/session-$sway_count.sway"
    cat > "$conf" <<EOF
output HEADLESS-1 resolution 1280x720 bg #282c34 solid_color
default_border none
set \$mod Mod4
$2
EOF
    chmod 644 "$conf"
    rm -f "$XDG_RUNTIME_DIR"/wayland-* "$XDG_RUNTIME_DIR"/sway-ipc.*
    unset WAYLAND_DISPLAY
    spawn "$out/$1-sway.log" env WLR_BACKENDS=headless WLR_LIBINPUT_NO_DEVICES=1 WLR_RENDERER=pixman \
        dbus-run-session -- sway -c "$conf"
    sway_pid=$spawned
    local socket=""
    for _ in $(seq 1 100); do
        socket=$(ls "$XDG_RUNTIME_DIR" 2>/dev/null | grep -m1 '^wayland-[0-9]*$')
        [ -n "$socket" ] && break
        sleep 0.1
    done
    [ -n "$socket" ] || return 1
    export WAYLAND_DISPLAY=$socket
    sleep 0.5
    if grep -q "Error on line" "$out/$1-sway.log"; then fail sway "the $1 session's config: $(grep -m1 'Error on line' "$out/$1-sway.log")"; fi
    return 0
}
stop_sway() {  # asks sway to exit, then ends what is left of that session, by pid
    local children
    children=$(pgrep -P "$sway_pid")
    as_user env SWAYSOCK="$(ls "$XDG_RUNTIME_DIR"/sway-ipc.* 2>/dev/null | head -1)" swaymsg exit >/dev/null 2>&1
    for _ in $(seq 1 50); do kill -0 "$sway_pid" 2>/dev/null || break; sleep 0.1; done
    for p in $children "$sway_pid"; do kill "$p" 2>/dev/null; done
    unset WAYLAND_DISPLAY
}
grab() { as_user grim "$@"; }

# ---------------------------------------------------------------- 1. Waybar 0.9.17 in headless sway
waybar_test() {
    cat > "$work/bar.jsonc" <<EOF
{
    "include": ["$root/Integrations/waybar/config.jsonc"],
    "layer": "top", "position": "top", "height": 30,
    "modules-left": ["custom/engram-hostile", "custom/control"],
    "modules-right": ["custom/engram-session", "custom/engram-review", "custom/engram-motd", "custom/engram-stats"],
    "custom/engram-hostile": {"exec": "engram-feed recent --format waybar --size large --limit 1", "return-type": "json", "interval": 60},
    "custom/control": {"exec": "waybar-control", "return-type": "json", "interval": 2}
}
EOF
    { printf '* { font-family: "DejaVu Sans"; font-size: 13px; min-height: 0; }\n'
      printf 'window#waybar { background: #21252b; color: #abb2bf; }\n#custom-engram-hostile { color: #c678dd; padding: 0 8px; }\n'
      cat Integrations/waybar/style.css; } > "$work/bar.css"
    chmod 644 "$work/bar.jsonc" "$work/bar.css"
    if ! start_sway waybar "bar { swaybar_command true }
exec waybar -c $work/bar.jsonc -s $work/bar.css -l debug > $out/waybar.log 2>&1"; then
        skip waybar "headless sway did not start (see $out/waybar-sway.log)"; return
    fi
    chmod 666 "$out/waybar.log" 2>/dev/null
    sleep 5
    grab -g "0,0 1280x30" "$out/waybar.png"
    check waybar "the modules from Integrations/waybar/config.jsonc run (the live session feed is up)" \
        pgrep -u "$user" -f "engram-feed session --format waybar --watch"
    # A careless broad pkill: one-shot feeds ignore real-time signals, --watch takes them as "refresh now".
    pkill -RTMIN+1 -f engram-feed; pkill -RTMIN+8 -f waybar; sleep 1
    check waybar "the live feed survives 'pkill -RTMIN+1 -f engram-feed' and 'pkill -RTMIN+8 -f waybar'" \
        pgrep -u "$user" -f "engram-feed session --format waybar --watch"
    check waybar "the bar is drawn ($(colours "$out/waybar.png") colours in the screenshot)" test "$(colours "$out/waybar.png")" -gt 40
    # The control module prints unescaped markup every 2 s; once Waybar has complained about it, the log is
    # known to catch broken markup, and the Engram modules must not be in it.
    local seen=1
    for _ in $(seq 1 40); do grep -q "Failed to set text.*unescaped" "$out/waybar.log" && { seen=0; break; }; sleep 0.25; done
    if [ $seen -eq 0 ]; then
        pass waybar "the unescaped control module fails to render, and the log says so (the check can fail)"
        check waybar "no 'Failed to set text' for Engram modules, with <b>, & and <span> in the newest memory" \
            bash -c "! grep 'Failed to set text' '$out/waybar.log' | grep -v 'unescaped' | grep -q ."
    else
        skip waybar "Waybar 0.9.17 did not run the control module this time, so its log proves nothing about markup"
    fi
    check waybar "no 'argument not found' (formats valid for 0.9.17)" bash -c "! grep -q 'argument not found' '$out/waybar.log'"
    stop_sway
    local gone=1
    for _ in $(seq 1 80); do pgrep -u "$user" -f 'engram-feed session --format waybar --watch' >/dev/null || { gone=0; break; }; sleep 0.1; done
    check waybar "the --watch feed ends with its bar (within 8 s)" test $gone -eq 0
    keep_screenshot "$out/waybar.png" Integrations/waybar/screenshot.png || fail waybar "no screenshot"
}

# ---------------------------------------------------------------- 2. i3blocks 1.4: its stdout, then under swaybar
i3blocks_test() {
    { cat Integrations/i3blocks/engram.i3blocks
      printf '\n[engram-hostile]\ncommand=engram-feed recent --format i3blocks --size large --limit 1\ninterval=once\n'; } > "$work/i3blocks.conf"
    chmod 644 "$work/i3blocks.conf"
    as_user timeout 4 i3blocks -c "$work/i3blocks.conf" > "$out/i3blocks.out" 2> "$out/i3blocks.err"
    # The i3bar protocol: a header line, "[", then one JSON array per update; keep the last one.
    grep -a '^,\?\[{' "$out/i3blocks.out" | tail -1 | sed 's/^,//' > "$work/i3blocks.json"
    block() { jq -r --arg n "$1" --arg k "$2" '.[] | select(.name == $n) | .[$k] // empty' "$work/i3blocks.json" 2>/dev/null; }
    local motd expected session colour hostile
    motd=$(block engram-motd full_text)
    expected=$(feed motd --format i3blocks --size small | head -1)
    check i3blocks "the motd block: '$motd'" test -n "$motd" -a "$motd" = "$expected"
    colour=$(block engram-review color | tr 'A-F' 'a-f')
    check i3blocks "the review block carries its state colour ($colour)" test "$colour" = "#61afef"
    hostile=$(block engram-hostile full_text)
    check i3blocks "a memory of <b>, & and <span> arrives literally: '$hostile'" \
        bash -c '[[ $1 == *"<b>bold</b> & <span"* ]]' _ "$hostile"
    session=$(block engram-session full_text)
    check i3blocks "the persist block shows the running session: '$session'" bash -c '[[ $1 == ▶* ]]' _ "$session"
    if start_sway i3blocks "bar {
    position top
    font pango:DejaVu Sans 11
    status_command i3blocks -c $work/i3blocks.conf
    colors {
        background #21252b
        statusline #abb2bf
    }
}"; then
        sleep 4
        grab -g "0,0 1280x24" "$out/i3blocks.png"
        stop_sway
        check i3blocks "swaybar draws the blocks ($(colours "$out/i3blocks.png") colours)" test "$(colours "$out/i3blocks.png")" -gt 20
        keep_screenshot "$out/i3blocks.png" Integrations/i3blocks/screenshot.png
    else
        skip i3blocks "the swaybar screenshot: sway did not start"
    fi
}

# ---------------------------------------------------------------- X11 for Conky, polybar, rofi and dunst
xvfb_pid=""
start_xvfb() {
    Xvfb :77 -screen 0 1280x720x24 -nolisten tcp > "$out/xvfb.log" 2>&1 &
    xvfb_pid=$!
    pids+=("$xvfb_pid")
    export DISPLAY=:77
    for _ in $(seq 1 50); do xdpyinfo >/dev/null 2>&1 && return 0; sleep 0.1; done
    xvfb_pid=""
    return 1
}
xshot() { import -window root "$@"; }

# ---------------------------------------------------------------- 3. Conky 1.18
conky_test() {
    remember_hostile "$hostile_conky"
    cat > "$work/conky-console.conf" <<'EOF'
conky.config = { out_to_console = true, out_to_x = false, background = false, total_run_times = 2, update_interval = 1 }
conky.text = [[
MOTD ${execi 60 engram-feed motd --format conky --size large}
OURS ${execpi 60 engram-feed recent --format conky-parsed --size small --limit 1}
CONTROL ${execpi 60 printf '%s' 'costs $5 #1 ${exec echo INJECTED}'}
]]
EOF
    chmod 644 "$work/conky-console.conf"
    as_user timeout 10 conky -c "$work/conky-console.conf" > "$out/conky.out" 2> "$out/conky.err"
    check conky "console output shows the memory of the day" grep -q "^MOTD .\+" "$out/conky.out"
    check conky "\${exec echo INJECTED} in a memory is shown literally through execpi" \
        grep -qF 'OURS ✎ costs $5 #1 ${exec echo INJECTED}' "$out/conky.out"
    check conky "the same text, unescaped, is run by execpi (the check can fail)" grep -q "^CONTROL costs .*INJECTED" "$out/conky.out"
    if [ -n "$xvfb_pid" ]; then
        sed -e "s/own_window_type = 'desktop'/own_window_type = 'override'/" -e "s/alignment = 'top_right'/alignment = 'top_left'/" \
            -e 's/gap_x = 24/gap_x = 0/' -e 's/gap_y = 48/gap_y = 0/' Integrations/conky/engram.conkyrc > "$work/conky-x.conf"
        chmod 644 "$work/conky-x.conf"
        spawn "$out/conky-x.log" conky -c "$work/conky-x.conf"
        local p=$spawned
        sleep 5
        xshot -crop 560x600+0+0 "$out/conky-full.png"; trim "$out/conky-full.png" "$out/conky.png"
        check conky "the desktop widget is drawn under Xvfb ($(colours "$out/conky.png") colours)" test "$(colours "$out/conky.png")" -gt 20
        kill "$p" 2>/dev/null
        keep_screenshot "$out/conky.png" Integrations/conky/screenshot.png
    fi
}

# ---------------------------------------------------------------- 4. polybar 3.6
polybar_test() {
    [ -n "$xvfb_pid" ] || { skip polybar "no X server"; return; }
    remember_hostile "$hostile_polybar"
    cat > "$work/polybar.ini" <<EOF
include-file = $root/Integrations/polybar/engram.ini

[bar/test]
width = 100%
height = 28
background = #21252b
foreground = #abb2bf
font-0 = DejaVu Sans:size=11;2
modules-left = control engram-hostile
modules-right = engram-session engram-review engram-motd
module-margin = 2
override-redirect = true

[module/engram-hostile]
type = custom/script
exec = exec engram-feed recent --format polybar --size medium --limit 1
interval = 60
format-foreground = #c678dd

; The control: the same kind of tag printed by a plain script. It changes every second, because polybar
; 3.6 sometimes registers no click areas for what it drew before its window was up.
[module/control]
type = custom/script
exec = echo "%{A1:touch $work/pwned-control:}CLICK \$(date +%S)%{A}"
interval = 1
EOF
    chmod 644 "$work/polybar.ini"
    spawn "$out/polybar.log" polybar -l info -c "$work/polybar.ini" test
    local p=$spawned
    # polybar may take a few seconds to draw every module: click the control until it has run (≤ 15 s).
    sleep 2
    for _ in $(seq 1 30); do
        xdotool mousemove 40 14 click 1; sleep 0.5
        [ -e "$work/pwned-control" ] && break
    done
    for _ in 1 2 3; do xdotool mousemove 300 14 click 1; sleep 0.5; done
    xshot -crop 1280x28+0+0 "$out/polybar.png"
    check polybar "the bar runs the modules ($(colours "$out/polybar.png") colours in the screenshot)" kill -0 "$p"
    check polybar "clicking a memory holding %{A1:touch …:} runs nothing" \
        bash -c "[ ! -e '$work/pwned-ours' ] && ! grep -q 'Executing shell command: touch.*pwned-ours' '$out/polybar.log'"
    check polybar "clicking the same tag printed by a plain script runs it (the check can fail)" test -e "$work/pwned-control"
    kill "$p" 2>/dev/null
    keep_screenshot "$out/polybar.png" Integrations/polybar/screenshot.png || fail polybar "no screenshot"
}

# ---------------------------------------------------------------- 5. rofi 1.7 script mode
rofi_test() {
    as_user env ROFI_RETV=0 engram-rofi > "$out/rofi-list.txt"
    local rows
    rows=$(grep -ac $'\x1finfo\x1f' "$out/rofi-list.txt")
    check rofi "first call lists $rows memories, each with its id in info" test "$rows" -ge 300
    check rofi "no stored text breaks a row (every row has exactly one \\0)" \
        bash -c "grep -av \$'^\\x00' '$out/rofi-list.txt' | awk -F '\\0' 'NF != 2 { bad = 1 } END { exit bad }'"
    as_user env ROFI_RETV=1 ROFI_INFO=s001 engram-rofi > "$out/rofi-open.txt"
    check rofi "Enter on a row opens that memory (ROFI_RETV=1)" grep -aq "Meditations" "$out/rofi-open.txt"
    as_user env ROFI_RETV=2 engram-rofi "a thought captured from rofi" > "$out/rofi-capture.txt"
    check rofi "custom text is remembered (ROFI_RETV=2)" \
        bash -c "$(declare -f as_user eng); user=$user home=$home; eng search --json 'captured from rofi' | jq -e '.total >= 1' >/dev/null"
    as_user env ROFI_RETV=2 engram-rofi "/sourdough" > "$out/rofi-search.txt"
    check rofi "/words runs a full-text search ($(grep -ac $'info\x1fs' "$out/rofi-search.txt") rows with a memory id)" \
        test "$(grep -ac $'info\x1fs' "$out/rofi-search.txt")" -ge 3
    [ -n "$xvfb_pid" ] || { skip rofi "no X server for the screenshot"; return; }
    spawn "$out/rofi.log" rofi -show engram -modi "engram:engram-rofi" -theme-str 'window { width: 900px; } listview { lines: 8; }'
    local p=$spawned
    sleep 2
    xdotool type --delay 80 "sourdough"
    sleep 1.5
    xshot "$out/rofi-full.png"; trim "$out/rofi-full.png" "$out/rofi.png"
    check rofi "rofi runs the script mode and filters as you type ($(colours "$out/rofi.png") colours)" kill -0 "$p"
    xdotool key Escape; sleep 0.3; kill "$p" 2>/dev/null
    keep_screenshot "$out/rofi.png" Integrations/rofi/screenshot.png || fail rofi "no screenshot"
}

# ---------------------------------------------------------------- 6. the systemd units, and their notification in dunst
systemd_test() {
    local units="$work/units"
    mkdir -p "$units" "$home/.local/bin"
    install -m 755 Integrations/bin/engram-notify-feed "$home/.local/bin/"
    for f in Integrations/systemd/*.service Integrations/systemd/*.timer; do sed "s#%h#$home#g" "$f" > "$units/$(basename "$f")"; done
    if command -v systemd-analyze >/dev/null; then
        check systemd "systemd-analyze verify accepts the units" systemd-analyze verify --man=no "$units"/*.service "$units"/*.timer
    else
        skip systemd "systemd-analyze is not installed"
    fi
    [ -n "$xvfb_pid" ] || { skip dunst "no X server"; return; }
    cat > "$work/dunstrc" <<'EOF'
[global]
    font = DejaVu Sans 11
    width = 560
    origin = top-left
    offset = 0x0
    markup = full
    format = "<b>%s</b>\n%b"
    frame_color = "#61afef"
    frame_width = 2
[urgency_normal]
    background = "#21252b"
    foreground = "#abb2bf"
    timeout = 0
EOF
    chmod 644 "$work/dunstrc"
    cat > "$work/notify.sh" <<EOF
dunst -conf '$work/dunstrc' > '$out/dunst.log' 2>&1 &
sleep 1
$home/.local/bin/engram-notify-feed review large
sleep 1.5
import -window root -crop 600x460+0+0 '$out/systemd-full.png'
engram-notify-feed recent large
sleep 1
dunstctl close-all
sleep 0.3
dunstctl history > '$out/dunst-history.json'
kill %1
EOF
    as_user dbus-run-session -- bash "$work/notify.sh" > "$out/dunst-session.log" 2>&1
    check dunst "the morning review arrives as a notification" grep -q "to review today\|Nothing to review" "$out/dunst-history.json"
    check dunst "a memory of <b>, & and <span> arrives in a notification body intact" grep -qF 'Tom &amp; Jerry' "$out/dunst-history.json"
    check dunst "dunst parses every body without a markup warning" bash -c "! grep -qi 'unable to parse markup' '$out/dunst.log'"
    trim "$out/systemd-full.png" "$out/systemd.png"
    keep_screenshot "$out/systemd.png" Integrations/systemd/screenshot.png || fail dunst "no screenshot"
}

# ---------------------------------------------------------------- 7. keybindings, fuzzel and wofi in sway
launchers_test() {
    printf 'set $mod Mod4\ninclude %s\n' "$root/Integrations/keybindings/sway.conf" > "$work/validate.sway"
    chmod 644 "$work/validate.sway"
    check keybindings "sway accepts keybindings/sway.conf (sway --validate)" as_user sway --validate -c "$work/validate.sway"
    if ! start_sway launchers "bar { swaybar_command true }"; then skip launchers "headless sway did not start"; return; fi
    feed recent --format dmenu --limit 200 > "$work/dmenu.txt"
    chmod 644 "$work/dmenu.txt"
    check launchers "$(wc -l < "$work/dmenu.txt") dmenu lines, each ending in ⟨id⟩" bash -c "! grep -v '⟨[^⟩]*⟩\$' '$work/dmenu.txt' | grep -q ."
    SPAWN_INPUT="$work/dmenu.txt" spawn "$out/fuzzel.log" fuzzel --dmenu --width 70 --lines 10 --prompt "engram: "
    local p=$spawned; sleep 2
    grab "$out/fuzzel-full.png"; kill "$p" 2>/dev/null; wait "$p" 2>/dev/null
    trim "$out/fuzzel-full.png" "$out/fuzzel.png"
    check launchers "fuzzel shows the list ($(colours "$out/fuzzel.png") colours)" test "$(colours "$out/fuzzel.png")" -gt 20
    keep_screenshot "$out/fuzzel.png" Integrations/launchers/screenshot-fuzzel.png

    SPAWN_INPUT="$work/dmenu.txt" spawn "$out/wofi.log" wofi --dmenu --prompt engram --width 900 --height 400
    p=$spawned; sleep 2.5
    grab "$out/wofi-full.png"; kill "$p" 2>/dev/null; wait "$p" 2>/dev/null
    trim "$out/wofi-full.png" "$out/wofi.png"
    if [ "$(colours "$out/wofi.png")" -gt 20 ]; then
        pass launchers "wofi shows the list ($(colours "$out/wofi.png") colours)"
        keep_screenshot "$out/wofi.png" Integrations/launchers/screenshot-wofi.png
    else
        skip launchers "wofi drew nothing in headless sway (see $out/wofi.log)"
    fi

    # Quick capture as the Super+M binding runs it: the prompt, typed text (wtype), Enter.
    spawn "$out/capture.log" engram-capture idea
    p=$spawned; sleep 2
    # Each wtype makes a new virtual keyboard; its first keys are lost until the prompt has the keymap: wait first.
    if as_user wtype -s 700 "captured through the keybinding #e2e" 2>> "$out/capture.log"; then
        sleep 0.5; grab "$out/capture-full.png"
        as_user wtype -s 700 -k Return; sleep 2
        trim "$out/capture-full.png" "$out/capture.png"
        check keybindings "Super+M: the typed line is remembered as an idea tagged e2e" \
            bash -c "$(declare -f as_user eng); user=$user home=$home; eng search --json 'tag:e2e keybinding' | jq -e '.results[0].type == \"idea\"' >/dev/null"
        keep_screenshot "$out/capture.png" Integrations/keybindings/screenshot.png
    else
        skip keybindings "wtype cannot type into headless sway here: $(tail -1 "$out/capture.log")"
    fi
    kill "$p" 2>/dev/null
    stop_sway
}

# ---------------------------------------------------------------- run (ENGRAM_E2E_ONLY="polybar rofi" runs a few)
only=${ENGRAM_E2E_ONLY:-waybar i3blocks conky polybar rofi systemd launchers}
wanted() { [[ " $only " == *" $1 "* ]]; }
wanted waybar && waybar_test
wanted i3blocks && i3blocks_test
start_xvfb || skip xvfb "Xvfb did not start (see $out/xvfb.log)"
wanted conky && conky_test
wanted polybar && polybar_test
wanted rofi && rofi_test
wanted systemd && systemd_test
wanted launchers && launchers_test

{
    echo "| result | program | what was shown |"
    echo "|---|---|---|"
    for r in "${results[@]}"; do IFS='|' read -r s p w <<<"$r"; echo "| $s | $p | $w |"; done
} > "$out/results.md"
echo
cat "$out/results.md"
failed=$(printf '%s\n' "${results[@]}" | grep -c '^FAIL' || true)
[ "$failed" -eq 0 ] || { echo "widgets-e2e: $failed check(s) failed; logs in $out" >&2; exit 1; }
