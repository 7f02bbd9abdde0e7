"""A headless audio server for the voice tests: PulseAudio 16 on a private socket, whose default microphone is a
pipe the test feeds (module-pipe-source) and whose default speaker is a null sink the test can record
(speaker.monitor). The same pactl modules run on PipeWire's pipewire-pulse.

    audio = FakeAudio(world.path("pulse"), env)   # started; audio.env has PULSE_SERVER for engram
    audio.say("clip.wav")                         # fed at speaking pace in the background, then silence
    rec = audio.record_speaker("heard.wav"); ...; rec.stop()
    audio.stop()

The pipe source is driven by the data written to it: a recorder reads only what the test writes (and waits for
it), so the feeder writes in real time (100 ms every 100 ms), a clip and then some seconds of a quiet room, and
nothing between clips. Nobody reads the pipe while nobody records, so a test clears what is still queued (the room
after a recording that ended early) and waits for the recorder before it speaks (clear(), wait_for_recorder()).
"""
import os
import random
import subprocess
import threading
import time

RATE = 16000
CHUNK = RATE // 10 * 2  # 100 ms of 16-bit mono
# 100 ms of a quiet room: a hiss about 60 dB below full scale.
ROOM = b"".join(int(random.gauss(0, 30)).to_bytes(2, "little", signed=True) for _ in range(CHUNK // 2))


def pcm(path, rate=RATE):
    """A sound file's samples as raw 16-bit mono PCM at rate (sox converts whatever it is)."""
    return subprocess.run(["sox", path, "-t", "raw", "-r", str(rate), "-c", "1", "-b", "16", "-e", "signed", "-"],
                          check=True, capture_output=True).stdout


class FakeAudio:
    def __init__(self, folder, env):
        self.folder = folder
        os.makedirs(os.path.join(folder, "run"), mode=0o700, exist_ok=True)
        os.makedirs(os.path.join(folder, "home"), mode=0o700, exist_ok=True)
        self.socket = os.path.join(folder, "native")
        self.fifo = os.path.join(folder, "mic.fifo")
        script = os.path.join(folder, "fake.pa")
        with open(script, "w") as f:
            f.write(f"load-module module-native-protocol-unix auth-anonymous=1 socket={self.socket}\n"
                    "load-module module-null-sink sink_name=speaker rate=22050 channels=1\n"
                    f"load-module module-pipe-source source_name=fakemic file={self.fifo} format=s16le rate={RATE} channels=1\n"
                    "set-default-source fakemic\nset-default-sink speaker\n")
        penv = dict(env, XDG_RUNTIME_DIR=os.path.join(folder, "run"), HOME=os.path.join(folder, "home"))
        penv.pop("PULSE_SERVER", None)
        self.log = open(os.path.join(folder, "pulseaudio.log"), "w")
        self.proc = subprocess.Popen(["pulseaudio", "-n", "-F", script, "--daemonize=no", "--exit-idle-time=-1",
                                      "--use-pid-file=no", "--log-target=stderr", "--log-level=warning"],
                                     env=penv, stdout=self.log, stderr=self.log)
        self.env = dict(env, PULSE_SERVER="unix:" + self.socket)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            # module-pipe-source makes the pipe itself.
            if os.path.exists(self.fifo) and subprocess.run(["pactl", "info"], env=self.env, capture_output=True).returncode == 0:
                break
            time.sleep(0.1)
        else:
            raise RuntimeError(f"pulseaudio did not start; see {self.log.name}")
        # The pipe stays open for writing for the server's life, so the source never sees an end of file; the
        # feeder writes through it.
        self.pipe = os.open(self.fifo, os.O_WRONLY)
        self.lock = threading.Lock()
        self.queue = []
        self.running = True
        self.feeder = threading.Thread(target=self._feed, daemon=True)
        self.feeder.start()

    def _feed(self):
        """Writes the queued sound, 100 ms every 100 ms."""
        next_at = time.monotonic()
        while self.running:
            with self.lock:
                chunk = self.queue.pop(0) if self.queue else None
            if chunk is None:
                time.sleep(0.05)
                next_at = time.monotonic()
                continue
            try:
                os.write(self.pipe, chunk)
            except OSError:
                return
            next_at += 0.1
            time.sleep(max(0, next_at - time.monotonic()))

    def say(self, path_or_pcm, then_silence=3.0):
        """Queues a recording (a sound file or raw PCM), then then_silence seconds of quiet room (a faint hiss, as a
        real microphone hears), and returns the seconds until the recording itself has been fed."""
        data = path_or_pcm if isinstance(path_or_pcm, bytes) else pcm(path_or_pcm)
        spoken = (len(data) + CHUNK - 1) // CHUNK
        data += ROOM * int(then_silence * 10)
        chunks = [data[i:i + CHUNK].ljust(CHUNK, b"\0") for i in range(0, len(data), CHUNK)]
        with self.lock:
            ahead = len(self.queue)
            self.queue += chunks
        return (ahead + spoken) * 0.1

    def clear(self):
        """Drops what is queued and not yet fed (the room after a recording that ended early)."""
        with self.lock:
            self.queue.clear()

    def wait_for_recorder(self, timeout=15):
        """Waits until something records from the microphone (a source output exists): sound fed before that
        may be read and dropped by the pipe source with nobody listening."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            out = subprocess.run(["pactl", "list", "short", "source-outputs"], env=self.env, capture_output=True, text=True).stdout
            if out.strip():
                return True
            time.sleep(0.05)
        return False

    def idle(self):
        with self.lock:
            return not self.queue

    def record_speaker(self, path):
        """Records what Engram says (the speaker's monitor) into path until .terminate()."""
        return subprocess.Popen(["parecord", "--device=speaker.monitor", "--rate=16000", "--channels=1",
                                 "--format=s16le", "--file-format=wav", path], env=self.env,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def stop(self):
        self.running = False
        self.feeder.join(timeout=2)
        try:
            os.close(self.pipe)
        except OSError:
            pass
        self.proc.terminate()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
        self.log.close()
