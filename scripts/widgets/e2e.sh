#!/usr/bin/env bash
# Engram feeds in the real programs, headless: Waybar in sway, i3blocks, Conky, polybar, rofi, fuzzel,
# wofi, dunst and the systemd units — on the sample collection plus memories written to break widgets —
# and `make install` into a temporary prefix. `make test` runs it after the unit tests.
#
#   PYTHONPATH=scripts /usr/bin/python3 -m widgets [--screenshots] [ENGRAM_BIN [ENGRAM_FEED_BIN]]
#
# python3 -m widgets runs this driver and writes results.md from the PASS/FAIL/SKIP lines it prints (the driver's
# own exit status counts too). Logs, screenshots and results.md go to bench-out/widgets/; with --screenshots the screenshots are also
# copied into Integrations/*/. Every program it uses is installed by `make test` (install-deps.sh --widgets): a
# missing one fails the run with a sentence; any broken expectation fails the run. sway refuses to run as root,
# so as root everything runs as a user of this run's own (`engramt<pid>`, no home folder), removed at exit.
# ENGRAM_E2E_ONLY="waybar rofi" runs a few parts.
#
# Several of these runs may share the machine (other work trees' `make test`): nothing here uses a fixed
# X display, and processes are found and signalled only when they belong to this run (their
# XDG_RUNTIME_DIR is this run's), never by a machine-wide pkill. Every wait polls for what it waits for,
# up to a generous deadline, so a loaded machine makes the run slower, not red.
set -uo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"
update_screenshots=0
[ "${1:-}" = "--screenshots" ] && { update_screenshots=1; shift; }
engram_bin=${1:-$root/.build/debug/engram}
feed_bin=${2:-$root/.build/debug/engram-feed}
started=$SECONDS

scripts/install-deps.sh --widgets || { echo "widgets-e2e: cannot install the widget programs" >&2; exit 1; }
if [ ! -x "$engram_bin" ] || [ ! -x "$feed_bin" ]; then
    { swift build --product engram && swift build --product engram-feed; } >/dev/null || exit 1
fi
# scripts/install.sh generates the man pages with ArgumentParser's generate-manual, taken from engram's folder.
generate_manual="$(dirname "$engram_bin")/generate-manual"
if [ ! -x "$generate_manual" ]; then
    swift build --product generate-manual >/dev/null || exit 1
    generate_manual="$root/.build/debug/generate-manual"
fi

out="$root/bench-out/widgets"
rm -rf "$out"; mkdir -p "$out"
work="$(mktemp -d /tmp/engram-widgets.XXXXXX)"
chmod 755 "$work"
pids=()
cleanup() {
    local p
    for p in "${pids[@]}" $(ours .); do kill "$p" 2>/dev/null; done
    for p in "${pids[@]}"; do
        for _ in $(seq 1 25); do kill -0 "$p" 2>/dev/null || break; sleep 0.1; done
        kill -9 "$p" 2>/dev/null
    done
    rm -rf "$work"
    # The run's own user goes with it (its processes were ended above; -f in case one lingers).
    if [ -n "${made_user:-}" ]; then userdel -f "$made_user" 2>/dev/null || echo "widgets-e2e: could not remove the user $made_user" >&2; fi
}
trap cleanup EXIT

# ---------------------------------------------------------------- results: one line each, read by python3 -m widgets
pass() { echo "PASS  $1: ${2//$'\n'/ }"; }
fail() { echo "FAIL  $1: ${2//$'\n'/ }"; }
skip() { echo "SKIP  $1: ${2//$'\n'/ }"; }
check() {  # check PROGRAM "what a user would see" COMMAND…
    local name=$1 what=$2; shift 2
    if "$@"; then pass "$name" "$what"; else fail "$name" "$what"; fi
}

# ---------------------------------------------------------------- waiting, without fixed sleeps
wait_for() {  # wait_for SECONDS COMMAND… — runs COMMAND every 0.2 s until it succeeds; false after SECONDS
    local deadline=$((SECONDS + $1)); shift
    until "$@" >/dev/null 2>&1; do
        [ "$SECONDS" -lt "$deadline" ] || return 1
        sleep 0.2
    done
}
ours() {  # ours PATTERN — pids of this run's processes whose command line matches PATTERN (pgrep -f)
    local p
    for p in $(pgrep -f -- "$1"); do
        tr '\0' '\n' 2>/dev/null < "/proc/$p/environ" | grep -qxF "XDG_RUNTIME_DIR=$XDG_RUNTIME_DIR" && echo "$p"
    done
    return 0
}
running() { [ -n "$(ours "$1")" ]; }
not_running() { [ -z "$(ours "$1")" ]; }

# Screenshots. poll_shot takes one (GRAB… FILE) until PREDICATE… FILE holds or the deadline passes.
colours() { identify -format '%k' "$1" 2>/dev/null || echo 0; }
more_colours() { [ "$(colours "$2")" -gt "$1" ]; }          # more_colours N FILE
pixels() {  # pixels '#rrggbb' FILE — how many pixels have that colour (exactly, or within $fuzz %)
    convert "$2" -alpha off -fuzz "${fuzz:-0}%" -fill black +opaque "$1" -fill white -opaque "$1" -format '%[fx:round(mean*w*h)]' info: 2>/dev/null || echo 0
}
has_pixels() { [ "$(pixels "$1" "$3")" -ge "$2" ]; }       # has_pixels '#rrggbb' N FILE
swaybar_drawn() {  # the blocks' text, and the review block's blue (anti-aliased thin text: near the colour)
    more_colours 100 "$1" && [ "$(fuzz=12 pixels '#61afef' "$1")" -ge 10 ]
}
poll_shot() {  # poll_shot SECONDS "PREDICATE ARGS" FILE GRAB-COMMAND… (the file is appended to both)
    local deadline=$((SECONDS + $1)) predicate=$2 file=$3; shift 3
    while :; do
        # shellcheck disable=SC2086
        "$@" "$file" >/dev/null 2>&1 && $predicate "$file" && return 0
        [ "$SECONDS" -lt "$deadline" ] || return 1
        sleep 0.3
    done
}

# ---------------------------------------------------------------- the user, the binaries, the data
export LANG=C.UTF-8 TZ=UTC
user=$(id -un)
made_user=""
if [ "$(id -u)" -eq 0 ]; then
    user="engramt$$"
    # This run's own user, without a home folder (HOME is $work/home), removed by cleanup. Two runs may add
    # users at once; useradd then fails on the passwd lock: try again.
    wait_for 60 useradd -M -d "$work/home" -s /bin/bash "$user" \
        || { echo "widgets-e2e: cannot create the user $user" >&2; exit 1; }
    made_user=$user
fi
home="$work/home"
mkdir -p "$home/.config" "$work/bin" "$work/data" "$work/config" "$work/xdg"
install -m 755 "$engram_bin" "$work/bin/engram"
install -m 755 "$feed_bin" "$work/bin/engram-feed"
install -m 755 Integrations/bin/* "$work/bin/"
# Waybar's control module: unescaped markup, once, then it stays (continuous mode: 0.9.17's interval modules
# sometimes stop running their command when children exit around its SIGCHLD reaper).
printf '#!/bin/sh\necho %s\nexec sleep 600\n' "'{\"text\":\"unescaped & <control\"}'" > "$work/bin/waybar-control"
# rofi runs the script mode through this, which notes what rofi passed (ROFI_RETV, ROFI_INFO).
printf '#!/bin/sh\necho "ROFI_RETV=${ROFI_RETV:-} ROFI_INFO=${ROFI_INFO:-} $*" >> %s/rofi-calls.log\nexec engram-rofi "$@"\n' "$work" \
    > "$work/bin/engram-rofi-logged"
chmod 755 "$work/bin/waybar-control" "$work/bin/engram-rofi-logged"
export PATH="$work/bin:$PATH" HOME="$home" ENGRAM_DATA_DIR="$work/data" ENGRAM_CONFIG_DIR="$work/config"
export XDG_RUNTIME_DIR="$work/xdg"
chown -R "$user" "$work" "$out" 2>/dev/null || true
chmod 700 "$XDG_RUNTIME_DIR"

display_env() {  # Wayland clients get no DISPLAY; with the bus address set, nothing autolaunches a D-Bus (dbus-launch)
    if [ -n "${WAYLAND_DISPLAY:-}" ]; then echo "WAYLAND_DISPLAY=$WAYLAND_DISPLAY"; elif [ -n "${DISPLAY:-}" ]; then echo "DISPLAY=$DISPLAY"; fi
}
user_env=()
as_user_prefix() {  # sets user_env: the command prefix that runs a program as the test user (none when not root)
    user_env=()
    [ "$(id -u)" -eq 0 ] || return 0
    # shellcheck disable=SC2207
    user_env=(setpriv --reuid="$user" --regid="$user" --init-groups env HOME="$home" USER="$user" LOGNAME="$user"
        PATH="$PATH" ENGRAM_DATA_DIR="$ENGRAM_DATA_DIR" ENGRAM_CONFIG_DIR="$ENGRAM_CONFIG_DIR" TZ="$TZ" LANG="$LANG"
        ENGRAM_TEST_CLOCK_SKEW_S="${ENGRAM_TEST_CLOCK_SKEW_S:-0}"
        XDG_RUNTIME_DIR="$XDG_RUNTIME_DIR" NO_AT_BRIDGE=1 $(display_env)
        DBUS_SESSION_BUS_ADDRESS="${DBUS_SESSION_BUS_ADDRESS:-unix:path=$work/no-bus}")
}
as_user() {  # runs a command as the test user: the store, the Wayland socket and the runtime folder are theirs
    as_user_prefix
    "${user_env[@]}" "$@"
}
eng() { as_user engram "$@"; }
feed() { as_user engram-feed "$@"; }
spawned=""
spawn() {  # spawn LOG COMMAND… — in the background as the test user; $spawned is the program's own pid
    local log=$1; shift
    as_user_prefix
    "${user_env[@]}" "$@" > "$log" 2>&1 < "${SPAWN_INPUT:-/dev/null}" &
    spawned=$!
    pids+=("$spawned")
}
stop() {  # stop PID — ends a program this run started, and waits until it is gone
    kill "$1" 2>/dev/null
    wait_for 10 bash -c "! kill -0 $1" || kill -9 "$1" 2>/dev/null
    wait "$1" 2>/dev/null
}

samples="$(/usr/bin/python3 scripts/samples.py "$work/samples")"  # the sample collection dated from today
eng import "$samples/memories.jsonl" "$samples/curricula/swift-concurrency.toml" "$samples/curricula/spanish-b1.yaml" >/dev/null \
    || { echo "widgets-e2e: import failed" >&2; exit 1; }
eng session start --curriculum swift-concurrency >/dev/null
# Memories written to break widgets; remember_hostile makes one the newest, which `recent` shows first
# (memories of the same second are ordered by id, so each waits for the clock's next second).
hostile_markup='<b>bold</b> & <span foreground="red">Tom & Jerry</span> <i>unclosed'
hostile_conky='costs $5 #1 ${exec touch pwned-conky} $HOME'   # Conky runs in $work
hostile_polybar="%{A1:touch $work/pwned-ours:}CLICK ME IF YOU DARE%{A}"
hostile_rtl=$'שלום \u202eevil\u202c مرحبا 👩‍👩‍👧‍👦'
last_second=0
remember_hostile() {
    wait_for 5 test "$(date +%s)" -gt "$last_second"
    printf '%s' "$1" | eng remember --tag hostile >/dev/null
    last_second=$(date +%s)
}
newest_is() { [ "$(feed recent --format json --limit 1 | jq -r '.memories[0].content')" = "$1" ]; }
remember_hostile "$hostile_rtl"
remember_hostile "$hostile_markup"
newest_is "$hostile_markup" || { echo "widgets-e2e: the hostile memory is not the newest" >&2; exit 1; }

shrink() { convert "$1" -strip -colors 128 "$1" 2>/dev/null || true; }
keep_screenshot() {  # keep_screenshot FILE DEST — copied into Integrations/ with --screenshots
    [ -s "$1" ] || return 1
    shrink "$1"
    if [ $update_screenshots -eq 1 ]; then cp "$1" "$2"; fi
    return 0
}
trim() { convert "$1" -fuzz 3% -trim +repage "$2" 2>/dev/null; }

# ---------------------------------------------------------------- headless sway (as the test user)
headless=(WLR_BACKENDS=headless WLR_LIBINPUT_NO_DEVICES=1 WLR_RENDERER=pixman)
sway_pid=""
sway_ipc() { ls "$XDG_RUNTIME_DIR"/sway-ipc.* 2>/dev/null | head -1; }
swaymsg_() { as_user env SWAYSOCK="$(sway_ipc)" swaymsg "$@"; }
wayland_socket() { ls "$XDG_RUNTIME_DIR" 2>/dev/null | grep -m1 '^wayland-[0-9]*$'; }
start_sway() {  # start_sway NAME CONFIG-LINES — one 1280x720 output, up when its IPC answers
    # (Files are named session-N, not after the bar: the signals sent to "waybar" below must not hit sway.)
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
    spawn "$out/$1-sway.log" env "${headless[@]}" dbus-run-session -- sway -c "$conf"
    sway_pid=$spawned
    wait_for 60 wayland_socket || return 1
    export WAYLAND_DISPLAY
    WAYLAND_DISPLAY=$(wayland_socket)
    wait_for 60 swaymsg_ -t get_outputs || return 1
    if grep -q "Error on line" "$out/$1-sway.log"; then fail sway "the $1 session's config: $(grep -m1 'Error on line' "$out/$1-sway.log")"; fi
    return 0
}
stop_sway() {  # asks sway to exit, then ends what is left of that session, by pid
    local children p
    children=$(pgrep -P "$sway_pid")
    swaymsg_ exit >/dev/null 2>&1
    wait_for 20 bash -c "! kill -0 $sway_pid"
    for p in $children "$sway_pid"; do kill "$p" 2>/dev/null; done
    unset WAYLAND_DISPLAY
}
grab() { as_user grim "$@"; }

# ---------------------------------------------------------------- 1. Waybar 0.9.17 in headless sway
# Colours a user sees: the session module's background per state (Integrations/waybar/style.css), and the
# hostile module's background here, whose width shows how much text Waybar drew.
running_bg='#2d3b2d'; paused_bg='#3b362a'; hostile_bg='#3e2a47'
waybar_up() {  # the session module shows "running", and the newest memory is drawn as a wide line of text
    has_pixels "$running_bg" 300 "$1" && has_pixels "$hostile_bg" 4000 "$1"
}
waybar_paused() { has_pixels "$paused_bg" 300 "$1" && ! has_pixels "$running_bg" 1 "$1"; }
waybar_test() {
    local watch="engram-feed session --format waybar --watch"
    cat > "$work/bar.jsonc" <<EOF
{
    "include": ["$root/Integrations/waybar/config.jsonc"],
    "layer": "top", "position": "top", "height": 30,
    "modules-left": ["custom/engram-hostile", "custom/control"],
    "modules-right": ["custom/engram-session", "custom/engram-review", "custom/engram-motd", "custom/engram-stats"],
    "custom/engram-hostile": {"exec": "exec engram-feed recent --format waybar --size large --limit 1 --watch --interval 60", "return-type": "json"},
    "custom/control": {"exec": "waybar-control", "return-type": "json"}
}
EOF
    { printf '* { font-family: "DejaVu Sans"; font-size: 13px; min-height: 0; }\n'
      printf 'window#waybar { background: #21252b; color: #abb2bf; }\n'
      printf '#custom-engram-hostile { color: #c678dd; background: %s; padding: 0 8px; }\n' "$hostile_bg"
      cat Integrations/waybar/style.css; } > "$work/bar.css"
    chmod 644 "$work/bar.jsonc" "$work/bar.css"
    if ! start_sway waybar "bar { swaybar_command true }
exec waybar -c $work/bar.jsonc -s $work/bar.css -l debug > $out/waybar.log 2>&1"; then
        fail waybar "headless sway did not start within 60 s (see $out/waybar-sway.log)"; stop_sway; return
    fi
    check waybar "the modules from Integrations/waybar/config.jsonc run (the live session feed is up)" wait_for 60 running "$watch"
    local shot="$out/waybar.png" grab_bar=(grab -g "0,0 1280x30")
    check waybar "the bar shows the running session (its .running colour) and the hostile memory as a full line of text" \
        poll_shot 60 waybar_up "$shot" "${grab_bar[@]}"
    local hostile_width=$(( $(pixels "$hostile_bg" "$shot") / 30 ))
    check waybar "the newest memory, <b>, & and <span> included, takes ~${hostile_width} px of the bar (at least 133: a full line; $(colours "$shot") colours in the screenshot)" \
        test "$hostile_width" -ge 133
    keep_screenshot "$shot" Integrations/waybar/screenshot.png || fail waybar "no screenshot"

    # The control module prints unescaped markup; once Waybar has complained about it, the log is known to
    # catch broken markup (checked for the Engram modules at the end).
    local control=1
    wait_for 30 grep -q "Failed to set text.*unescaped" "$out/waybar.log" && control=0
    check waybar "the unescaped control module fails to render, and the log says so (the check can fail)" test $control -eq 0
    # A careless broad pkill, but only at this run's processes: one-shot feeds ignore real-time signals,
    # --watch takes them as "refresh now". Then a click on the session module (engram-session-toggle)
    # pauses the session and signals the live feed, and the bar must show it paused.
    local before
    before=$(ours "$watch")
    # shellcheck disable=SC2046
    kill -RTMIN+1 $(ours engram-feed) 2>/dev/null
    # shellcheck disable=SC2046
    kill -RTMIN+8 $(ours waybar) 2>/dev/null
    as_user engram-session-toggle
    check waybar "after 'kill -RTMIN+1' to every feed and 'kill -RTMIN+8' to everything named waybar, a click on the session pauses it and the bar shows .paused" \
        poll_shot 30 waybar_paused "$out/waybar-paused.png" "${grab_bar[@]}"
    check waybar "the same --watch feed process is still running (pid $before)" bash -c "[ -n '$before' ] && kill -0 $before"
    eng session resume >/dev/null

    if [ $control -eq 0 ]; then
        check waybar "no 'Failed to set text' for Engram modules, with <b>, & and <span> in the newest memory" \
            bash -c "! grep 'Failed to set text' '$out/waybar.log' | grep -v 'unescaped' | grep -q ."
    fi
    check waybar "no 'argument not found' (formats valid for 0.9.17)" bash -c "! grep -q 'argument not found' '$out/waybar.log'"
    stop_sway
    check waybar "the --watch feed ends with its bar" wait_for 20 not_running "$watch"
}

# ---------------------------------------------------------------- 2. i3blocks 1.4: its stdout, then under swaybar
i3blocks_json() {  # the i3bar protocol: a header line, "[", then one JSON array per update; keeps the last one
    grep -a '^,\?\[{' "$out/i3blocks.out" | tail -1 | sed 's/^,//' > "$work/i3blocks.json"
}
block() { jq -r --arg n "$1" --arg k "$2" '.[] | select(.name == $n) | .[$k] // empty' "$work/i3blocks.json" 2>/dev/null; }
i3blocks_complete() {  # every Engram block has printed, the persist one included
    i3blocks_json
    [ -n "$(block engram-motd full_text)" ] && [ -n "$(block engram-hostile full_text)" ] \
        && [ -n "$(block engram-review color)" ] && [[ $(block engram-session full_text) == ▶* ]]
}
i3blocks_test() {
    { cat Integrations/i3blocks/engram.i3blocks
      printf '\n[engram-hostile]\ncommand=engram-feed recent --format i3blocks --size large --limit 1\ninterval=once\n'; } > "$work/i3blocks.conf"
    chmod 644 "$work/i3blocks.conf"
    spawn "$out/i3blocks.out" i3blocks -c "$work/i3blocks.conf"
    local p=$spawned
    wait_for 60 i3blocks_complete
    stop "$p"
    # shellcheck disable=SC2046
    kill $(ours "engram-feed session --format i3blocks") 2>/dev/null   # its persist block, left behind
    i3blocks_json
    local motd expected session colour hostile
    motd=$(block engram-motd full_text)
    expected=$(feed motd --format i3blocks --size small | head -1)
    check i3blocks "the motd block: '$motd'" test -n "$motd" -a "$motd" = "$expected"
    colour=$(block engram-review color | tr 'A-F' 'a-f')
    check i3blocks "the review block carries its state colour ($colour)" test "$colour" = "#61afef"
    hostile=$(block engram-hostile full_text)
    check i3blocks "a memory of <b>, & and <span> arrives literally: '$hostile'" \
        bash -c '[[ $1 == *"<b>bold</b> & <span foreground=\"red\">Tom & Jerry</span> <i>unclosed"* ]]' _ "$hostile"
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
        # The review block's colour (#61afef) on the bar means swaybar drew i3blocks' output.
        check i3blocks "swaybar draws the blocks, the review block in its colour" \
            poll_shot 60 swaybar_drawn "$out/i3blocks.png" grab -g "0,0 1280x24"
        stop_sway
        keep_screenshot "$out/i3blocks.png" Integrations/i3blocks/screenshot.png
    else
        fail i3blocks "the swaybar screenshot: sway did not start within 60 s"; stop_sway
    fi
}

# ---------------------------------------------------------------- X11 for Conky, polybar, rofi and dunst
xvfb_pid=""
start_xvfb() {  # a display number of its own (-displayfd): other runs on this machine have theirs
    : > "$work/xvfb.display"
    # -noreset: by default Xvfb resets when its last client leaves, and drops a client still connecting at that
    # moment ("X connection error" in the next program started, e.g. polybar after conky stops; 28 of 800 client
    # starts under load, 0 of 800 with -noreset).
    Xvfb -displayfd 3 -screen 0 1280x720x24 -nolisten tcp -noreset 3> "$work/xvfb.display" > "$out/xvfb.log" 2>&1 &
    xvfb_pid=$!
    pids+=("$xvfb_pid")
    if wait_for 60 grep -q '^[0-9]' "$work/xvfb.display"; then
        export DISPLAY=":$(head -1 "$work/xvfb.display")"
        wait_for 30 xdpyinfo && return 0
    fi
    xvfb_pid=""
    return 1
}
xshot() { import -window root "$@"; }
ocr() {  # ocr FILE — the text tesseract reads in a screenshot (grey, scaled up 3×; light-on-dark is turned round)
    convert "$1" -colorspace Gray -resize 300% -normalize "$1.ocr.png" 2>/dev/null || return 1
    local mean; mean=$(convert "$1.ocr.png" -format '%[fx:mean]' info: 2>/dev/null || echo 1)
    awk -v m="$mean" 'BEGIN { exit !(m < 0.5) }' && convert "$1.ocr.png" -negate "$1.ocr.png"
    tesseract "$1.ocr.png" - 2>/dev/null | tr '[:upper:]' '[:lower:]' | tee "$1.txt"
}
ocr_has() {  # ocr_has "WORD…" FILE — every word (lower case) is read back from the screenshot
    local text w; text=$(ocr "$2")
    for w in $1; do grep -qF -- "$w" <<<"$text" || return 1; done
}
words_of() {  # words_of TEXT — up to three words of 6+ letters, lower case (what OCR reads reliably)
    tr '[:upper:]' '[:lower:]' <<<"$1" | grep -oE '[a-z]{6,}' | head -3 | tr '\n' ' '
}

# ---------------------------------------------------------------- 3. Conky 1.18
conky_test() {
    remember_hostile "$hostile_conky"
    cat > "$work/conky-console.conf" <<EOF
conky.config = { out_to_console = true, out_to_x = false, background = false, total_run_times = 2, update_interval = 1 }
conky.text = [[
MOTD \${execi 60 engram-feed motd --format conky --size large}
OURS \${execpi 60 engram-feed recent --format conky-parsed --size large --limit 1}
CONTROL \${execpi 60 printf '%s' 'costs \$5 #1 \${exec touch conky-control-ran}'}
]]
EOF
    chmod 644 "$work/conky-console.conf"
    # Conky ends by itself after two updates; the deadline is only for a machine that is very busy.
    as_user timeout 120 bash -c 'cd "$1" && exec conky -c "$1/conky-console.conf"' _ "$work" > "$out/conky.out" 2> "$out/conky.err"
    check conky "console output shows the memory of the day: '$(grep -m1 '^MOTD' "$out/conky.out" | cut -c1-60)'" \
        grep -q "^MOTD .\+" "$out/conky.out"
    check conky "\${exec touch …} in a memory is shown literally through execpi, and not run" \
        bash -c '[ ! -e "$2/pwned-conky" ] && grep -qF "OURS ✎ $1" "$3"' _ "$hostile_conky" "$work" "$out/conky.out"
    check conky "the same kind of text, unescaped, is run by execpi (the check can fail)" test -e "$work/conky-control-ran"
    if [ -n "$xvfb_pid" ]; then
        sed -e "s/own_window_type = 'desktop'/own_window_type = 'override'/" -e "s/alignment = 'top_right'/alignment = 'top_left'/" \
            -e 's/gap_x = 24/gap_x = 0/' -e 's/gap_y = 48/gap_y = 0/' Integrations/conky/engram.conkyrc > "$work/conky-x.conf"
        chmod 644 "$work/conky-x.conf"
        spawn "$out/conky-x.log" conky -c "$work/conky-x.conf"
        local p=$spawned
        # Wait for the content, not for any pixels: the memory of the day's own words, read back by OCR (the
        # heading alone is drawn before texeci's first run).
        local motd_words; motd_words=$(words_of "$(feed motd --format json | jq -r '.memory.title // empty')")
        check conky "the desktop widget shows the memory of the day under Xvfb: OCR reads '${motd_words% }' under its heading" \
            bash -c '[ -n "$1" ]' _ "$motd_words"
        conky_shows() { more_colours 100 "$1" && ocr_has "memory $motd_words" "$1"; }
        check conky "… read back from the screenshot (see $out/conky-full.png.txt)" \
            poll_shot 90 conky_shows "$out/conky-full.png" xshot -crop 560x600+0+0
        stop "$p"
        trim "$out/conky-full.png" "$out/conky.png"
        keep_screenshot "$out/conky.png" Integrations/conky/screenshot.png
    fi
}

# ---------------------------------------------------------------- 4. polybar 3.6
polybar_test() {
    [ -n "$xvfb_pid" ] || { fail polybar "no X server"; return; }
    command -v polybar >/dev/null || { fail polybar "polybar is not installed: make test installs it (scripts/install-deps.sh --widgets)"; return; }
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
    # The hostile module drawn (in its colour, across the click point), then clicks on the control until
    # polybar runs its action: from then on clicks are handled.
    check polybar "the bar shows the hostile memory's module" \
        poll_shot 60 "has_pixels #c678dd 30" "$out/polybar.png" xshot -crop 1280x28+0+0
    local deadline=$((SECONDS + 60))
    until [ -e "$work/pwned-control" ] || [ $SECONDS -ge $deadline ]; do
        xdotool mousemove 40 14 click 1; sleep 0.3
    done
    check polybar "clicking the same tag printed by a plain script runs it (the check can fail)" test -e "$work/pwned-control"
    rm -f "$work/pwned-control"
    # Click the memory, then the control again: polybar handles clicks in order, so once the control's
    # command has run, a command armed by the memory would have run too.
    xdotool mousemove 300 14 click 1 mousemove 320 14 click 1
    deadline=$((SECONDS + 60))
    until [ -e "$work/pwned-control" ] || [ $SECONDS -ge $deadline ]; do
        xdotool mousemove 40 14 click 1; sleep 0.3
    done
    check polybar "clicking a memory holding %{A1:touch …:} runs nothing (a later click on the control did run)" \
        bash -c "[ -e '$work/pwned-control' ] && [ ! -e '$work/pwned-ours' ] && ! grep -q 'Executing shell command: touch.*pwned-ours' '$out/polybar.log'"
    xshot -crop 1280x28+0+0 "$out/polybar.png"
    check polybar "the bar is still running the modules ($(colours "$out/polybar.png") colours in the screenshot)" kill -0 "$p"
    stop "$p"
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
    check rofi "the hostile memory's row shows <b>, & and <span> literally" grep -aqF "$hostile_markup" "$out/rofi-list.txt"
    as_user env ROFI_RETV=1 ROFI_INFO=s001 engram-rofi > "$out/rofi-open.txt"
    check rofi "Enter on a row opens that memory (ROFI_RETV=1)" grep -aq "Meditations" "$out/rofi-open.txt"
    as_user env ROFI_RETV=2 engram-rofi "a thought captured from rofi" > "$out/rofi-capture.txt"
    check rofi "custom text is remembered (ROFI_RETV=2)" \
        bash -c "eng search --json 'captured from rofi' | jq -e '.total >= 1' >/dev/null"
    as_user env ROFI_RETV=2 engram-rofi "/sourdough" > "$out/rofi-search.txt"
    check rofi "/words runs a full-text search ($(grep -ac $'info\x1fs' "$out/rofi-search.txt") rows with a memory id)" \
        test "$(grep -ac $'info\x1fs' "$out/rofi-search.txt")" -ge 3
    [ -n "$xvfb_pid" ] || { fail rofi "no X server"; return; }
    spawn "$out/rofi.log" rofi -show engram -modi "engram:engram-rofi-logged" -theme-str 'window { width: 900px; } listview { lines: 8; }'
    local p=$spawned
    if ! wait_for 60 grep -q 'ROFI_RETV=0' "$work/rofi-calls.log" || ! wait_for 60 xdotool search --onlyvisible --class '[Rr]ofi'; then
        fail rofi "rofi did not open its window within 60 s (see $out/rofi.log)"; stop "$p"; return
    fi
    # Before typing: OCR reads rows about other things; after: those words are gone and the rows are sourdough's.
    rofi_unfiltered() { [ "$(ocr "$1" | grep -E '[a-z]{6,}' | grep -vc sourdough)" -ge 3 ]; }
    check rofi "before typing, OCR reads at least 3 rows about other things (see $out/rofi-before.png.txt)" \
        poll_shot 30 rofi_unfiltered "$out/rofi-before.png" xshot
    local other; other=$(grep -E '[a-z]{6,}' "$out/rofi-before.png.txt" 2>/dev/null | grep -v -e sourdough -e engram | head -1 | grep -oE '[a-z]{6,}' | head -1)
    xdotool type --delay 80 "sourdough"
    rofi_filtered() { local t; t=$(ocr "$1"); [ "$(grep -c sourdough <<<"$t")" -ge 3 ] && ! grep -qF -- "$other" <<<"$t"; }
    check rofi "rofi filters as you type: OCR reads 'sourdough' in the rows and '$other' is gone (see $out/rofi-full.png.txt)" \
        poll_shot 30 rofi_filtered "$out/rofi-full.png" xshot
    trim "$out/rofi-full.png" "$out/rofi.png"
    # Enter on the first match: rofi calls the script with that row's id, and the memory is about sourdough.
    xdotool key Return
    wait_for 30 grep -q 'ROFI_RETV=1' "$work/rofi-calls.log"
    local id
    id=$(grep -m1 'ROFI_RETV=1' "$work/rofi-calls.log" | sed -n 's/.*ROFI_INFO=\([^ ]*\).*/\1/p')
    check rofi "typing 'sourdough' then Enter opens a sourdough memory (id '$id' in ROFI_INFO)" \
        bash -c "[ -n '$id' ] && eng show --peek '$id' | grep -qi sourdough"
    xdotool key Escape
    stop "$p"
    keep_screenshot "$out/rofi.png" Integrations/rofi/screenshot.png || fail rofi "no screenshot"
}

# ---------------------------------------------------------------- 6. the systemd units, and their notification in dunst
systemd_test() {
    local units="$work/units"
    mkdir -p "$units" "$home/.local/bin"
    install -m 755 Integrations/bin/engram-notify-feed "$home/.local/bin/"
    for f in Integrations/systemd/*.service Integrations/systemd/*.timer; do sed "s#%h#$home#g" "$f" > "$units/$(basename "$f")"; done
    check systemd "systemd-analyze verify accepts the units" systemd-analyze verify --man=no "$units"/*.service "$units"/*.timer
    [ -n "$xvfb_pid" ] || { fail dunst "no X server"; return; }
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
    # In a bus of its own: dunst owns the notification name (asked without auto-starting another dunst),
    # each notification is displayed before the next step, and the history has both once closed.
    cat > "$work/notify.sh" <<EOF
until_ok() { local i; for i in \$(seq 1 300); do "\$@" >/dev/null 2>&1 && return 0; sleep 0.2; done; echo "gave up waiting for: \$*"; return 1; }
has_name() { gdbus call --session --dest org.freedesktop.DBus --object-path /org/freedesktop/DBus \
    --method org.freedesktop.DBus.NameHasOwner org.freedesktop.Notifications | grep -q true; }
count() { [ "\$(dunstctl count "\$1")" -ge "\$2" ]; }
dunst -conf '$work/dunstrc' > '$out/dunst.log' 2>&1 &
until_ok has_name
$home/.local/bin/engram-notify-feed review large
until_ok count displayed 1
until_ok import -window root -crop 600x460+0+0 '$out/systemd-full.png'
engram-notify-feed recent large
until_ok count displayed 2
dunstctl close-all
until_ok count history 2
dunstctl history > '$out/dunst-history.json'
kill %1
EOF
    as_user timeout 150 dbus-run-session -- bash "$work/notify.sh" > "$out/dunst-session.log" 2>&1
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
    # --validate still creates a backend: headless, or it would try the X display or a DRM seat.
    check keybindings "sway accepts keybindings/sway.conf (sway --validate)" \
        as_user env "${headless[@]}" sway --validate -c "$work/validate.sway"
    if ! start_sway launchers "bar { swaybar_command true }"; then fail launchers "headless sway did not start within 60 s"; stop_sway; return; fi
    feed recent --format dmenu --limit 200 > "$work/dmenu.txt"
    chmod 644 "$work/dmenu.txt"
    check launchers "$(wc -l < "$work/dmenu.txt") dmenu lines, each ending in ⟨id⟩" bash -c "! grep -v '⟨[^⟩]*⟩\$' '$work/dmenu.txt' | grep -q ."
    local p
    if command -v fuzzel >/dev/null; then
        SPAWN_INPUT="$work/dmenu.txt" spawn "$out/fuzzel.log" fuzzel --dmenu --width 70 --lines 10 --prompt "engram: "
        p=$spawned
        check launchers "fuzzel shows the list" poll_shot 60 "more_colours 100" "$out/fuzzel-full.png" grab
        stop "$p"
        trim "$out/fuzzel-full.png" "$out/fuzzel.png"
        keep_screenshot "$out/fuzzel.png" Integrations/launchers/screenshot-fuzzel.png
    else
        fail launchers "fuzzel is not installed: make test installs it (scripts/install-deps.sh --widgets)"
    fi

    SPAWN_INPUT="$work/dmenu.txt" spawn "$out/wofi.log" wofi --dmenu --prompt engram --width 900 --height 400
    p=$spawned
    check launchers "wofi shows the list" poll_shot 60 "more_colours 100" "$out/wofi-full.png" grab
    stop "$p"
    trim "$out/wofi-full.png" "$out/wofi.png"
    keep_screenshot "$out/wofi.png" Integrations/launchers/screenshot-wofi.png

    # Quick capture as the Super+M binding runs it: the prompt, typed text (wtype), Enter.
    spawn "$out/capture.log" engram-capture idea
    p=$spawned
    if ! poll_shot 60 "more_colours 20" "$out/capture-empty.png" grab; then
        fail keybindings "the capture prompt did not show within 60 s (see $out/capture.log)"; stop "$p"; stop_sway; return
    fi
    # Each wtype makes a new virtual keyboard; its first keys are lost until the prompt has the keymap (-s).
    if as_user wtype -s 700 "captured through the keybinding #e2e" 2>> "$out/capture.log"; then
        poll_shot 30 "more_colours 20" "$out/capture-full.png" grab
        as_user wtype -s 700 -k Return
        check keybindings "Super+M: the typed line is remembered as an idea tagged e2e" \
            wait_for 60 bash -c "eng search --json 'tag:e2e keybinding' | jq -e '.results[0].type == \"idea\"'"
        trim "$out/capture-full.png" "$out/capture.png"
        keep_screenshot "$out/capture.png" Integrations/keybindings/screenshot.png
    else
        skip keybindings "wtype cannot type into headless sway here: $(tail -1 "$out/capture.log")"
    fi
    stop "$p"
    stop_sway
}

# ---------------------------------------------------------------- 8. make install into a temporary prefix
mode_is() { [ "$(stat -c %a "$2" 2>/dev/null)" = "$1" ]; }   # mode_is 755 FILE
all_modes() {  # all_modes MODE FILE… — every file exists with that mode
    local m=$1 f; shift
    for f in "$@"; do mode_is "$m" "$f" || { echo "  $f: $(stat -c %a "$f" 2>&1)" >&2; return 1; }; done
}
every_page() {  # every_page MODE PAGE… — the parser's 40-odd commands each have a page, with that mode
    local m=$1; shift
    [ "$#" -ge 40 ] || { echo "  only $# commands in engram --experimental-dump-help" >&2; return 1; }
    all_modes "$m" "$@"
}
install_test() {
    local prefix="$work/prefix" dest="$work/dest" scripts=() s
    for s in Integrations/bin/engram-*; do scripts+=("$(basename "$s")"); done
    # What `make install PREFIX=…` runs after `make release`, here with this run's binaries.
    if ! FEED_BINARY="$feed_bin" GENERATE_MANUAL="$generate_manual" scripts/install.sh "$engram_bin" "$prefix" > "$out/install.log" 2>&1; then
        fail install "scripts/install.sh failed (see $out/install.log)"; return
    fi
    chmod -R a+rX "$prefix"
    check install "engram, engram-feed and ${#scripts[@]} scripts in PREFIX/bin, mode 755" \
        all_modes 755 "$prefix/bin/engram" "$prefix/bin/engram-feed" "${scripts[@]/#/$prefix/bin/}"
    check install "desktop entry, D-Bus service, search providers, units and integration configs, mode 644" \
        all_modes 644 "$prefix/share/applications/org.engram.Engram.desktop" \
            "$prefix/share/dbus-1/services/org.engram.Engram.service" \
            "$prefix/share/gnome-shell/search-providers/org.engram.Engram.search-provider.ini" \
            "$prefix/lib/systemd/user/engram.service" \
            "$prefix/lib/systemd/user/engram-morning-review.service" "$prefix/lib/systemd/user/engram-morning-review.timer" \
            "$prefix/lib/systemd/user/engram-evening-summary.service" "$prefix/lib/systemd/user/engram-evening-summary.timer" \
            "$prefix/share/doc/engram/Integrations/waybar/config.jsonc" "$prefix/share/doc/engram/Integrations/conky/engram.conkyrc" \
            "$prefix/share/doc/engram/Integrations/FEEDS-SCHEMA.md"
    check install "Engram's icons in PREFIX/share/icons/hicolor/{scalable,symbolic}/apps and its AppStream metadata in PREFIX/share/metainfo, mode 644" \
        all_modes 644 "$prefix/share/icons/hicolor/scalable/apps/org.engram.Engram.svg" \
            "$prefix/share/icons/hicolor/symbolic/apps/org.engram.Engram-symbolic.svg" \
            "$prefix/share/metainfo/org.engram.Engram.metainfo.xml"
    check install "appstreamcli validate --no-net accepts the installed metainfo, desktop-file-validate the entry (Icon=org.engram.Engram)" \
        bash -c "appstreamcli validate --no-net '$prefix/share/metainfo/org.engram.Engram.metainfo.xml' >> '$out/install.log' 2>&1 \
            && desktop-file-validate '$prefix/share/applications/org.engram.Engram.desktop' >> '$out/install.log' 2>&1 \
            && grep -qx 'Icon=org.engram.Engram' '$prefix/share/applications/org.engram.Engram.desktop'"
    # A man page for every command the parser knows (engram.1, engram.index.rebuild.1, …), and the completions.
    local pages=()
    mapfile -t pages < <("$engram_bin" --experimental-dump-help | jq -r --arg dir "$prefix/share/man/man1" '
        def walk(p): (p + [.commandName]) as $q | ($q | join(".")), (.subcommands[]? | walk($q));
        .command | walk([]) | "\($dir)/\(.).1"')
    check install "${#pages[@]} man pages (one per command, from engram --experimental-dump-help) in PREFIX/share/man/man1, mode 644" \
        every_page 644 "${pages[@]}"
    check install "bash, zsh and fish completions in PREFIX/share/{bash-completion/completions,zsh/vendor-completions,fish/vendor_completions.d}, mode 644" \
        all_modes 644 "$prefix/share/bash-completion/completions/engram" "$prefix/share/zsh/vendor-completions/_engram" \
            "$prefix/share/fish/vendor_completions.d/engram.fish"
    check install "man -l renders the installed engram.index.rebuild page: $(man -l "$prefix/share/man/man1/engram.index.rebuild.1" 2>/dev/null | grep -m1 -o 'engram index rebuild.*')" \
        bash -c "man -l '$prefix/share/man/man1/engram.index.rebuild.1' 2>/dev/null | grep -q 'engram index rebuild'"
    check install "the installed bash completion parses and completes the subcommands (index → rebuild expire status)" \
        bash -c "bash -n '$prefix/share/bash-completion/completions/engram' && grep -q 'rebuild' '$prefix/share/bash-completion/completions/engram'"
    # The installed programs, found on PATH from the prefix alone (as a bar runs them).
    local path="$prefix/bin:/usr/local/bin:/usr/bin:/bin" json expected
    json=$(as_user env PATH="$path" engram-feed motd --format waybar)
    expected=$(feed motd --format waybar)
    check install "PREFIX/bin/engram-feed motd --format waybar prints today's memory for Waybar: $(cut -c1-70 <<<"$json")…" \
        bash -c '[ "$1" = "$2" ] && jq -e ".text != \"\" and (.class | index(\"ready\"))" <<<"$1"' _ "$json" "$expected"
    check install "PREFIX/bin/engram-rofi lists the memories through the installed engram-feed" \
        bash -c "[ \$(as_user env PATH='$path' ROFI_RETV=0 engram-rofi | grep -ac \$'\\x1finfo\\x1f') -ge 300 ]"
    check install "the installed timer units run PREFIX/bin/engram-notify-feed, and systemd-analyze verify accepts them" \
        bash -c "grep -qx 'ExecStart=$prefix/bin/engram-notify-feed review large' '$prefix/lib/systemd/user/engram-morning-review.service' \
            && systemd-analyze verify --man=no '$prefix'/lib/systemd/user/engram-*.service '$prefix'/lib/systemd/user/engram-*.timer"
    # Packaging: DESTDIR stages the files, the paths inside them name the real prefix.
    DESTDIR="$dest" FEED_BINARY="$feed_bin" scripts/install.sh "$engram_bin" /usr >> "$out/install.log" 2>&1
    check install "DESTDIR=… PREFIX=/usr stages usr/bin/engram-feed, and the units name /usr/bin" \
        bash -c "mode_is 755 '$dest/usr/bin/engram-feed' && mode_is 755 '$dest/usr/bin/engram-notify-feed' \
            && grep -qx 'ExecStart=/usr/bin/engram-notify-feed stats large' '$dest/usr/lib/systemd/user/engram-evening-summary.service'"
}

# ---------------------------------------------------------------- run (ENGRAM_E2E_ONLY="polybar rofi" runs a few)
export -f as_user as_user_prefix eng feed display_env mode_is
export user home work
only=${ENGRAM_E2E_ONLY:-waybar i3blocks conky polybar rofi systemd launchers install}
wanted() { [[ " $only " == *" $1 "* ]]; }
wanted waybar && waybar_test
wanted i3blocks && i3blocks_test
if wanted conky || wanted polybar || wanted rofi || wanted systemd; then
    start_xvfb || fail xvfb "Xvfb did not start within 60 s (see $out/xvfb.log)"
fi
wanted conky && conky_test
wanted polybar && polybar_test
wanted rofi && rofi_test
wanted systemd && systemd_test
wanted launchers && launchers_test
wanted install && install_test

exit 0
