"""Engram's top-bar extension inside the real GNOME Shell: what a person sees in its menu, checked where they see it.

    PYTHONPATH=scripts /usr/bin/python3 -m shells.gnome.test_extension [--screenshots]

Installs the built engram with scripts/install.sh into a temporary prefix (which also installs both variants of
Desktop/gnome-shell/extension: engram@engram.org for GNOME 45+, engram-legacy@engram.org generated for 43–44),
imports the sample collection, starts a headless gnome-shell (gnome_shell.py; the prefix's share is in its
XDG_DATA_DIRS), enables both uuids with `gnome-extensions enable` and reads back the indicator through
org.gnome.Shell.Eval: the shell's own St.Labels, the extension's state, the daemon's properties.

The checks (extension_checks.py) are functions of one indicator.Context (the started shell, its world, the installed
engram CLI and the uuid this shell loads), so they run unchanged against another gnome-shell: with
`--root ROOT --deb DEB` (where shellkit has Debian 13 roots) on gnome-shell 48 with Engram installed from its package.
After each check the shell's log is read for JS errors and warnings mentioning the extension: any fails that check.
Results, the shell's log and a screenshot of each failure go to bench-out/shells/gnome-extension/ (gnome-48-extension/
in a root); with --screenshots the open menu is also copied to Desktop/screenshots/gnome-MAJOR-extension.png.
"""

import os
import re
import shutil
import sys

from shells import shellkit
from shells.gnome.extension_checks import CHECKS, INSTALLED
from shells.gnome.gnome_shell import GnomeShell, check_while_alive
from shells.gnome.indicator import LEGACY_UUID, MODERN_UUID, Context, enable, shell_version
from shells.shellkit import eventually, expect
from voice.fakeaudio import FakeAudio

OUT = os.path.join(shellkit.ROOT, "bench-out", "shells", "gnome-extension")


class LogWatch:
    """The shell's log read from where the last check left it: JS errors and warnings naming the extension."""
    PATTERN = re.compile(r"JS ERROR|JS WARNING|Gjs-CRITICAL|Gjs-WARNING|St-CRITICAL|Clutter-CRITICAL|Extension .* had error"
                         r"|Engram: ")

    def __init__(self, path):
        self.path, self.offset = path, 0

    def new_errors(self):
        try:
            with open(self.path, errors="replace") as f:
                f.seek(self.offset)
                lines = f.read().split("\n")
                self.offset = f.tell()
        except OSError:
            return []
        hits = []
        for i, line in enumerate(lines):
            # The line itself, or the stack under a JS ERROR, names the extension.
            if self.PATTERN.search(line) and "engram" in "\n".join(lines[i:i + 8]).lower():
                hits.append(line.strip())
        return hits


def fn_of(fn, ctx):
    return lambda: fn(ctx)


class Suite:
    def __init__(self, update_screenshots, root=None):
        out = OUT if root is None else OUT.replace("gnome-extension", "gnome-48-extension")
        shutil.rmtree(out, ignore_errors=True)
        os.makedirs(out)
        if root is None:
            self.world = shellkit.World("gnome-extension", shellkit.engram_build(), out)
        else:  # a Debian 13 root with Engram installed from its package (shellkit.Root)
            self.world = shellkit.World("gnome-extension", shellkit.engram_build(), out, root=root)
        # A headless audio server whose microphone `engram listen` records from (push-to-talk from the menu): its
        # socket in the world's folder, which a root's programs see under their own /tmp.
        self.audio = FakeAudio(os.path.join(self.world.base, "pulse"), self.world.env)
        socket = self.audio.socket[len(root.path):] if root else self.audio.socket
        self.world.env["PULSE_SERVER"] = "unix:" + socket
        # Push-to-talk records until the second press, however slow the shell is to answer: it waits 60 s for
        # speech (not 5) and records up to 90 s (not 10).
        config = os.path.join(self.world.folders.config, "config.toml")
        self.world.folders.write_config(open(config).read() + '\n[voice]\nmax_seconds = 90\nlead_seconds = 60\n')
        self.shell = GnomeShell(self.world)
        self.report = shellkit.Report("gnome-extension" + (" (Debian 13)" if root else ""), out)
        self.ctx = Context(self.shell, self.world, self.world.engram, LEGACY_UUID, out,
                           update_screenshots=update_screenshots)
        self.ctx.notes["audio"] = self.audio
        self.log = LogWatch(os.path.join(out, "gnome-shell.log"))
        self.out = out
        self.shots = 0

    def evidence(self, name):
        if self.shell.alive:
            self.shots += 1
            path = os.path.join(self.out, f"failure-{self.shots:02d}.png")
            if self.shell.screenshot(path):
                print(f"  screenshot of the failure: {path}", flush=True)

    def checked(self, fn):
        """fn, then a failure if the shell logged a JS error or warning about the extension meanwhile."""
        def run():
            detail = fn(self.ctx)
            errors = self.log.new_errors()
            expect(not errors, "the shell logged: " + " | ".join(errors[:5]))
            return detail
        return run

    def starts(self):
        took = self.shell.start()
        self.ctx.shell_version = shell_version(self.shell)
        major = int(self.ctx.shell_version.split(".")[0])
        self.ctx.uuid = MODERN_UUID if major >= 45 else LEGACY_UUID
        self.shell.hide_overview()  # the desktop, as after a login, behind the menu
        enable(self.ctx)
        expect(eventually(lambda: self.shell.eval(f"Main.extensionManager.lookup('{self.ctx.uuid}')?.state") == 1
                          and self.ctx.indicator() is not None, 10),
               f"no button '{self.ctx.uuid}' in Main.panel.statusArea after gnome-extensions enable; the extension: "
               + str(self.shell.eval(f"(e => e ? JSON.stringify({{state: e.state, error: e.error}}) : null)"
                                     f"(Main.extensionManager.lookup('{self.ctx.uuid}'))")))
        return f"gnome-shell {self.ctx.shell_version} ready in {took:.1f} s; both uuids enabled; this shell loads {self.ctx.uuid}"

    def run(self):
        r = self.report
        try:
            for name, fn in INSTALLED:
                r.check(name, fn_of(fn, self.ctx))
            if not r.check("the shell starts and the extension is enabled", self.checked(lambda ctx: self.starts()),
                           self.evidence):
                return False
            check_while_alive(r, self.shell, [(name, self.checked(fn)) for name, fn in CHECKS], self.evidence)
        finally:
            self.shell.stop()
            self.audio.stop()
            self.world.close()
            r.write()
        return not r.failures


if __name__ == "__main__":
    ok = Suite("--screenshots" in sys.argv, shellkit.root_from_argv(sys.argv)).run()
    sys.exit(0 if ok else 1)
