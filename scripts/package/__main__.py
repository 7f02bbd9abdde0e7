"""`make test-deb`: the Debian package installed the way a person without Swift installs it, on Debian 12 and 13.

    PYTHONPATH=scripts /usr/bin/python3 -m package DEB

For each release (bookworm, trixie), a bare root (apt and the essential packages only; scripts/trixie/root.sh bare,
built once into the cache folder) is copied, and in the copy: `apt install ./engram_….deb` pulls the dependencies
from the mirror; no Swift runtime is anywhere; every binary's libraries resolve; `engram` imports the sample
collection and finds by words and by meaning (the model is in the package); `engram listen` hears a recording of a
person reading with the packaged speech recogniser, and runs nothing from it; engram-feed, engram-mcp and engram-app
answer; the files are the package's with the modes they need; the icons are in hicolor and the AppStream metadata and
desktop entry pass appstreamcli and desktop-file-validate; `apt remove` leaves none of Engram's files.
Results in bench-out/package/. Exit status 1 on a failed check, naming the release and the check.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import zipfile
from xml.etree import ElementTree

import samples
from engramtest import ROOT
from engramtest.report import Failed, Report, expect

INROOT = os.path.join(ROOT, "scripts", "trixie", "inroot.sh")
OUT = os.path.join(ROOT, "bench-out", "package")


class Release:
    def __init__(self, release, deb, report):
        self.release, self.deb, self.report = release, deb, report
        self.base = None

    def sh(self, script, check=True, timeout=600):
        """Runs a shell script inside the copy, as root, with a plain environment; returns the completed process."""
        out = subprocess.run([INROOT, self.base, "HOME=/root", "DEBIAN_FRONTEND=noninteractive",
                              "ENGRAM_TEST_CLOCK_SKEW_S=" + os.environ.get("ENGRAM_TEST_CLOCK_SKEW_S", "0"), "sh", "-c", script],
                             capture_output=True, text=True, timeout=timeout)
        with open(os.path.join(OUT, f"{self.release}.log"), "a") as log:
            log.write(f"$ {script}\n{out.stdout}{out.stderr}[exit {out.returncode}]\n")
        if check and out.returncode != 0:
            raise Failed(f"`{script}` exited {out.returncode}: {(out.stdout + out.stderr).strip()[-500:]}")
        return out

    def setup(self):
        made = subprocess.run([os.path.join(ROOT, "scripts", "trixie", "root.sh"), "bare", self.release],
                              stdout=subprocess.PIPE, text=True)
        expect(made.returncode == 0, f"the bare {self.release} root could not be built")
        bare = made.stdout.strip().splitlines()[-1]
        # A copy, so every run installs into a root that has never seen Engram.
        self.base = bare + ".run"
        subprocess.run([INROOT, "--umount", self.base])
        shutil.rmtree(self.base, ignore_errors=True)
        subprocess.run(["cp", "-a", "--reflink=auto", bare, self.base], check=True)
        shutil.copy(self.deb, os.path.join(self.base, "tmp", os.path.basename(self.deb)))
        # A real person reading (Samuel Beckett), from the recogniser's own wheel, which make model fetched.
        wheel = os.path.join(os.environ.get("XDG_CACHE_HOME", os.path.expanduser("~/.cache")), "engram", "wheels",
                             "moonshine_cpp-0.1.4-py3-none-manylinux2014_x86_64.whl")
        with zipfile.ZipFile(wheel) as z, open(os.path.join(self.base, "tmp", "beckett.wav"), "wb") as f:
            f.write(z.read("moonshine_cpp-0.1.4.data/purelib/moonshine_cpp/test-data/beckett.wav"))
        samples.copy(os.path.join(self.base, "tmp", "samples"))  # dated from today
        return f"bare {self.release} root copied from {bare}"

    def close(self):
        if self.base:
            subprocess.run([INROOT, "--umount", self.base])
            shutil.rmtree(self.base, ignore_errors=True)

    # ------------------------------------------------------------------ checks

    def installs(self):
        before = int(self.sh("dpkg-query -f '.\\n' -W | wc -l").stdout.strip())
        t0 = time.monotonic()
        self.sh("apt-get update -qq && apt-get install -y -q --no-install-recommends ./tmp/" + os.path.basename(self.deb)
                + " 2>&1 | tail -3 && cd /", timeout=1200)
        took = time.monotonic() - t0
        status = self.sh("dpkg-query -W -f '${Status} ${Version}' engram").stdout
        expect(status.startswith("install ok installed"), f"dpkg says engram is {status!r}")
        after = int(self.sh("dpkg-query -f '.\\n' -W | wc -l").stdout.strip())
        return f"{status.split()[-1]} installed with {after - before - 1} dependencies from the mirror in {took:.0f} s"

    def no_swift_runtime(self):
        found = self.sh("command -v swift swiftc; find / -xdev \\( -name 'libswiftCore.so*' -o -name 'libFoundation.so*' \\) "
                        "2>/dev/null", check=False).stdout.strip()
        expect(not found, f"a Swift toolchain or runtime is in the root: {found}")
        missing = []
        for binary in ("engram", "engram-feed", "engram-mcp", "engram-app"):
            ldd = self.sh(f"ldd /usr/bin/{binary}").stdout
            missing += [f"{binary}: {l.strip()}" for l in ldd.splitlines() if "not found" in l or "swift" in l.lower()]
        ldd = self.sh("ldd /usr/lib/engram/model/libe5.so").stdout
        missing += [f"libe5.so: {l.strip()}" for l in ldd.splitlines() if "not found" in l]
        expect(not missing, f"libraries not resolved: {missing}")
        return "no swift, no libswiftCore; every binary's and the engine's libraries resolve"

    def searches_by_words(self):
        self.sh("engram import /tmp/samples/memories.jsonl /tmp/samples/curricula/swift-concurrency.toml "
                "/tmp/samples/curricula/spanish-b1.yaml")
        out = self.sh("engram search --json sourdough schedule").stdout
        hits = json.loads(out)
        hits = hits.get("results", hits) if isinstance(hits, dict) else hits
        expect(hits and "s106" in json.dumps(hits[0]), f"`engram search sourdough schedule` answers {out[:300]}")
        version = self.sh("engram --version").stdout.strip()
        return f"engram {version}: `engram search sourdough schedule` → s106 first of {len(hits)}"

    def searches_by_meaning(self):
        self.sh("engram remember 'Kubernetes pods restart when the liveness probe fails too often.'")
        embed = self.sh("engram index embed 2>&1").stdout.strip().splitlines()
        out = self.sh("engram search 'why does my container keep rebooting'").stdout
        expect("Kubernetes pods restart" in out, f"meaning search found {out[:300]!r} (embed said {embed[-1:]})")
        status = self.sh("engram index status").stdout
        expect("/usr/lib/engram/model" in status or "meaning" in status.lower(), f"index status: {status[:300]}")
        return "“why does my container keep rebooting” finds the Kubernetes note (model from /usr/lib/engram/model)"

    def hears_with_the_packaged_recogniser(self):
        ldd = self.sh("ldd /usr/lib/engram/speech/libengram-stt.so").stdout
        expect("not found" not in ldd, f"the recogniser's libraries: {ldd}")
        out = self.sh("engram listen --from /tmp/beckett.wav --dry-run --json").stdout
        heard = json.loads(out)
        expect("ever tried" in heard.get("transcript", "").lower(), f"the packaged recogniser heard {heard.get('transcript')!r}")
        expect(heard.get("understood") != "run" or heard.get("intent") not in ("StoreMemory", "StartSession", "StopSession"),
               f"a reading of Beckett would change something: {heard}")
        return f"heard “{heard['transcript'][:60]}…” in {heard['recognition_seconds']} s (/usr/lib/engram/speech); nothing to run"

    def the_other_programs_answer(self):
        feed = self.sh("engram-feed stats --format json").stdout
        expect(json.loads(feed), f"engram-feed stats printed {feed[:200]!r}")
        mcp = self.sh("engram-mcp --version").stdout.strip()
        app = self.sh("engram-app --version").stdout.strip()
        expect(mcp and app, f"engram-mcp said {mcp!r}, engram-app {app!r}")
        return f"engram-feed stats: {feed.strip()[:60]}…; engram-mcp {mcp}; engram-app {app}"

    def files_where_the_desktop_looks(self):
        want = ["/usr/share/applications/org.engram.Engram.desktop",
                "/usr/share/dbus-1/services/org.engram.Engram.service",
                "/usr/share/gnome-shell/search-providers/org.engram.Engram.search-provider.ini",
                "/usr/share/krunner/dbusplugins/org.engram.Engram.desktop",
                "/usr/lib/systemd/user/engram.service",
                "/usr/share/man/man1/engram.1.gz",
                "/usr/share/bash-completion/completions/engram"]
        listed = set(self.sh("dpkg -L engram").stdout.split())
        missing = [f for f in want if f not in listed]
        expect(not missing, f"the package lacks {missing}")
        # The widget is made by postinst for the Plasma installed (none in a bare root: Plasma 6's root file).
        widget = self.sh("cat /usr/share/plasma/plasmoids/org.engram.Engram.plasmoid/contents/ui/main.qml", check=False)
        expect(widget.returncode == 0 and "PlasmoidItem" in widget.stdout,
               f"postinst made no Plasma 6 widget: {widget.stderr.strip()[:200]}")
        for uuid in ("engram@engram.org", "engram-legacy@engram.org"):
            expect(f"/usr/share/gnome-shell/extensions/{uuid}/extension.js" in listed, f"the package lacks the {uuid} extension")
        service = self.sh("cat /usr/share/dbus-1/services/org.engram.Engram.service").stdout
        expect("Exec=/usr/bin/engram" in service, f"the D-Bus service starts {service!r}")
        return (f"{len(listed)} paths; the desktop files, D-Bus service (Exec=/usr/bin/engram …), man pages, completions, "
                "both GNOME extensions; the Plasma 6 widget made by postinst")

    def identity_for_software_centres(self):
        """Engram's icons where icon themes look (hicolor, the fallback of every theme), the desktop entry naming the
        icon, and the AppStream metadata software centres read: the files as apt installed them in the root, checked by
        the validators on this machine (Debian 12's appstreamcli 0.16, without the network; desktop-file-validate)."""
        icons = {"/usr/share/icons/hicolor/scalable/apps/org.engram.Engram.svg": "128",
                 "/usr/share/icons/hicolor/symbolic/apps/org.engram.Engram-symbolic.svg": "16"}
        metainfo = "/usr/share/metainfo/org.engram.Engram.metainfo.xml"
        entry = "/usr/share/applications/org.engram.Engram.desktop"
        listed = set(self.sh("dpkg -L engram").stdout.split())
        missing = [f for f in [*icons, metainfo, entry] if f not in listed]
        expect(not missing, f"the package lacks {missing}")
        modes = self.sh("stat -c '%a %n' " + " ".join([*icons, metainfo])).stdout.split("\n")
        expect(all(m.startswith("644 ") for m in modes if m), f"modes: {modes}")
        for path, size in icons.items():
            svg = ElementTree.parse(self.inside(path)).getroot()
            expect(svg.tag == "{http://www.w3.org/2000/svg}svg" and (svg.get("width"), svg.get("height")) == (size, size),
                   f"{path} is not a {size}×{size} SVG: {svg.tag} {svg.attrib}")
        with open(self.inside(entry)) as f:
            icon = [line.strip() for line in f if line.startswith("Icon=")]
        expect(icon == ["Icon=org.engram.Engram"], f"the desktop entry names the icon {icon}")
        launchable = ElementTree.parse(self.inside(metainfo)).getroot().findtext("launchable")
        expect(launchable == os.path.basename(entry), f"the metainfo's launchable is {launchable!r}")
        said = []
        for tool in (["appstreamcli", "validate", "--no-net", self.inside(metainfo)],
                     ["desktop-file-validate", self.inside(entry)]):
            expect(shutil.which(tool[0]), f"{tool[0]} is not installed here (scripts/install-deps.sh --deb installs it)")
            out = subprocess.run(tool, capture_output=True, text=True, timeout=120)
            with open(os.path.join(OUT, f"{self.release}.log"), "a") as log:
                log.write(f"(host) $ {' '.join(tool)}\n{out.stdout}{out.stderr}[exit {out.returncode}]\n")
            text = (out.stdout + out.stderr).strip()
            expect(out.returncode == 0 and "error" not in text.lower(), f"{' '.join(tool[:2])} said: {text[-500:]}")
            said.append(text.splitlines()[-1] if text else "no complaints")
        return (f"both icons in hicolor (scalable 128, symbolic 16), Icon=org.engram.Engram; appstreamcli validate --no-net: "
                f"{said[0]}; desktop-file-validate: {said[1]}")

    def inside(self, path):
        """A path in the root, as this machine sees it (the host's validators read the installed files there)."""
        return os.path.join(self.base, path.lstrip("/"))

    def removes_cleanly(self):
        self.sh("apt-get remove -y -q engram >/dev/null")
        left = self.sh("ls -d /usr/bin/engram* /usr/lib/engram /usr/share/engram /usr/share/plasma/plasmoids/org.engram.Engram.plasmoid "
                       "/usr/share/gnome-shell/extensions/engram* /usr/share/icons/hicolor/*/apps/org.engram.Engram* "
                       "/usr/share/metainfo/org.engram.Engram.metainfo.xml 2>/dev/null", check=False).stdout.strip()
        expect(not left, f"after apt remove: {left}")
        status = self.sh("dpkg-query -W -f '${db:Status-Abbrev}' engram 2>/dev/null", check=False).stdout.strip()
        expect(status in ("", "rc", "un"), f"after apt remove dpkg says engram is {status!r}")
        return "no /usr/bin/engram*, /usr/lib/engram, extensions, widget, icons or metainfo"

    def run(self):
        r, name = self.report, f"Debian {'12' if self.release == 'bookworm' else '13'}"
        try:
            if not r.check(f"{name}: a bare {self.release} root", self.setup):
                return
            if not r.check(f"{name}: apt install ./{os.path.basename(self.deb)} pulls its dependencies", self.installs):
                return
            for title, fn in [("no Swift toolchain or runtime; every library resolves", self.no_swift_runtime),
                              ("engram imports the samples and searches by words", self.searches_by_words),
                              ("engram searches by meaning with the packaged model", self.searches_by_meaning),
                              ("engram listen hears a recording with the packaged recogniser", self.hears_with_the_packaged_recogniser),
                              ("engram-feed, engram-mcp and engram-app answer", self.the_other_programs_answer),
                              ("the files are where the desktop looks for them", self.files_where_the_desktop_looks),
                              ("the icons, desktop entry and AppStream metadata pass the validators",
                               self.identity_for_software_centres),
                              ("apt remove leaves none of Engram's files", self.removes_cleanly)]:
                r.check(f"{name}: {title}", fn)
        finally:
            self.close()


def has_avx2():
    flags = next((l for l in open("/proc/cpuinfo") if l.startswith("flags")), "").split()
    return all(f in flags for f in ("avx2", "fma", "f16c"))


def engine_on_every_processor(deb):
    """The packaged meaning engine on a processor without AVX (qemu-user's Nehalem, x86-64-v2): it runs its baseline
    build and embeds as the native run does, within cosine 0.9999 (scripts/model/check-engine.c)."""
    work = tempfile.mkdtemp(prefix="engram-engine-")
    try:
        subprocess.run(["dpkg-deb", "-x", deb, work], check=True)
        model = os.path.join(work, "usr", "lib", "engram", "model")
        engine, weights = os.path.join(model, "libe5.so"), os.path.join(model, "e5-small-q4.bin")
        check = os.path.join(work, "check-engine")
        subprocess.run(["gcc", "-O2", "-o", check, os.path.join(ROOT, "scripts", "model", "check-engine.c"), "-ldl", "-lm"],
                       check=True)
        env = dict(os.environ, OMP_NUM_THREADS="1")
        native = subprocess.run([check, "--save", os.path.join(work, "native.vec"), engine, weights], env=env,
                                capture_output=True, text=True)
        expect(native.returncode == 0, f"the packaged engine failed natively: {native.stderr.strip()}")
        if has_avx2():
            expect("runs its x86-64-v3 build" in native.stdout, f"natively, with AVX2 here: {native.stdout.strip()!r}")
        emulated = subprocess.run(["qemu-x86_64", "-cpu", "Nehalem", check, engine, os.path.join(work, "native.vec"),
                                   weights, "0.9999"], env=env, capture_output=True, text=True, timeout=900)
        with open(os.path.join(OUT, "engine-without-avx2.log"), "w") as log:
            log.write(native.stdout + emulated.stdout + emulated.stderr)
        expect(emulated.returncode != -4 and emulated.returncode != 132 and "Illegal instruction" not in emulated.stderr,
               "the packaged engine dies with SIGILL on a processor without AVX2")
        expect("runs its x86-64 build" in emulated.stdout, f"under qemu -cpu Nehalem: {emulated.stdout.strip()!r}")
        expect(emulated.returncode == 0, f"vectors differ from the native run's: {(emulated.stdout + emulated.stderr).strip()}")
        return emulated.stdout.strip().splitlines()[-1] + " (Nehalem, emulated, against this processor)"
    finally:
        shutil.rmtree(work, ignore_errors=True)


def main(argv):
    if not argv or not os.path.exists(argv[0]):
        sys.exit("package: give the .deb (make deb builds it)")
    deb = os.path.abspath(argv[0])
    shutil.rmtree(OUT, ignore_errors=True)
    os.makedirs(OUT)
    report = Report("package", OUT)
    report.check("the packaged meaning engine runs without AVX2 and embeds as natively", lambda: engine_on_every_processor(deb))
    for release in ("bookworm", "trixie"):
        Release(release, deb, report).run()
    report.write()
    return 1 if report.failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
