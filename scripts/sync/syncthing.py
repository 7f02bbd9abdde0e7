"""Two Engram devices, each with its own real Syncthing on loopback: what `make test-sync` (two_syncthings) and
`make bench-sync` (sync_bench) share.

setup(engram) makes the run's folder; Side("a", "127.0.0.1") is one device: a World of its own, a Syncthing
(GUI/REST and listen address on its loopback address only; global and local discovery, relays, NAT traversal, usage
and crash reporting off; the other device introduced by id with an explicit address), Engram's folders whose
`[sync] folder` lies in that Syncthing's home, and on start_daemon a private session bus and `engram daemon`.
cleanup() stops every process started here by its group and removes the folder (unless kept).
"""
import json, os, random, re, shutil, signal, socket, subprocess, sys, tempfile, time, urllib.request

from engramtest.bus import NAME, SessionBus, wait_for_name
from engramtest.daemon import Daemon
from engramtest.engram import Engram, EngramFailed
from engramtest.world import World


class Run:
    """The run's engram binary, folder and processes."""
    engram, root, keep, procs = None, None, False, []


RUN = Run()


def setup(engram, keep=False):
    """Checks what the run needs and makes its folder; exits with a sentence when something is missing."""
    if not engram or not os.access(engram, os.X_OK):
        return False
    if not shutil.which("syncthing"):
        sys.exit("two-syncthings: no `syncthing` on PATH (scripts/install-deps.sh installs it)")
    RUN.engram, RUN.keep = os.path.abspath(engram), keep
    RUN.root = tempfile.mkdtemp(prefix="engram-two-syncthings-")
    return True


def free_port(host):
    with socket.socket() as s:
        s.bind((host, 0))
        return s.getsockname()[1]


def fail(msg):
    print("two-syncthings: FAIL: " + msg, file=sys.stderr)
    sys.exit(1)


class Side:
    def __init__(self, name, host):
        self.name, self.host = name, host
        # HOME, XDG and Engram's folders of its own for both programs (nothing touches the real ones); no session bus
        # until start_daemon makes the side's own, and nothing of a Syncthing the tester may run (ST*).
        self.world = World(base=os.path.join(RUN.root, name), drop=("ST", "DBUS_SESSION_BUS_ADDRESS"), mode=0o755)
        self.world.env["ENGRAM_MODEL_DIR"] = "none"
        self.dir, self.home = self.world.base, self.world.home
        self.st_home = os.path.join(self.dir, "syncthing")
        self.folder = os.path.join(self.dir, "Sync", "engram")
        self.data, self.config = self.world.data, self.world.config
        os.makedirs(self.st_home, exist_ok=True)
        self.gui = "%s:%d" % (host, free_port(host))
        self.listen = "tcp://%s:%d" % (host, free_port(host))
        self.key = "engram-test-" + "".join(random.Random(name).choice("abcdefghijkmnpqrstuvwxyz23456789") for _ in range(24))
        subprocess.run(["syncthing", "generate", "--home", self.st_home, "--no-default-folder", "--skip-port-probing"],
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=self.st_env())
        self.id = subprocess.run(["syncthing", "--home", self.st_home, "--device-id"], check=True,
                                 capture_output=True, text=True, env=self.st_env()).stdout.strip()
        self.world.write_config('[sync]\nfolder = "%s"\n' % self.folder)
        self.skew = None
        self.proc = None
        self.bus = None      # this side's private session bus (its address), made by start_daemon
        self.daemon = None

    def st_env(self):
        env = {k: v for k, v in os.environ.items() if not k.startswith("ST")}
        env.update(HOME=self.home, STNOUPGRADE="1", STNODEFAULTFOLDER="1", STHOMEDIR=self.st_home)
        return env

    def write_config(self, other):
        dev = lambda s: ('<device id="%s" name="%s" compression="metadata" introducer="false">'
                         '<address>%s</address><autoAcceptFolders>false</autoAcceptFolders></device>') % (s.id, s.name, s.listen)
        xml = """<configuration version="35">
    %s
    %s
    <gui enabled="true" tls="false" debugging="false"><address>%s</address><apikey>%s</apikey><theme>default</theme></gui>
    <options>
        <listenAddress>%s</listenAddress>
        <globalAnnounceEnabled>false</globalAnnounceEnabled>
        <localAnnounceEnabled>false</localAnnounceEnabled>
        <relaysEnabled>false</relaysEnabled>
        <natEnabled>false</natEnabled>
        <urAccepted>-1</urAccepted>
        <urSeen>3</urSeen>
        <crashReportingEnabled>false</crashReportingEnabled>
        <autoUpgradeIntervalH>0</autoUpgradeIntervalH>
        <startBrowser>false</startBrowser>
        <announceLANAddresses>false</announceLANAddresses>
        <reconnectionIntervalS>1</reconnectionIntervalS>
        <setLowPriority>false</setLowPriority>
    </options>
</configuration>
""" % (dev(self), dev(other), self.gui, self.key, self.listen)
        with open(os.path.join(self.st_home, "config.xml"), "w") as f:
            f.write(xml)

    def start(self):
        log = open(os.path.join(self.dir, "syncthing.log"), "a")
        self.proc = subprocess.Popen(["syncthing", "serve", "--home", self.st_home, "--no-browser", "--no-restart",
                                      "--logflags=0"], stdout=log, stderr=subprocess.STDOUT, env=self.st_env(),
                                     start_new_session=True)
        RUN.procs.append(self.proc)
        deadline = time.time() + 30
        while time.time() < deadline:
            try:
                self.rest("GET", "/rest/system/ping")
                return
            except OSError:
                time.sleep(0.3)
        fail("%s's Syncthing did not answer on %s (see %s/syncthing.log)" % (self.name, self.gui, self.dir))

    def rest(self, method, path, body=None):
        req = urllib.request.Request("http://%s%s" % (self.gui, path), method=method,
                                     data=None if body is None else json.dumps(body).encode(),
                                     headers={"X-API-Key": self.key})
        with urllib.request.urlopen(req, timeout=60) as r:
            data = r.read()
            return json.loads(data) if data.strip() else None

    def env(self, extra=None):
        e = dict(self.world.env, STHOMEDIR=self.st_home)
        # Each side's own session bus once its daemon runs; before, none (nothing reaches the tester's bus).
        if self.bus:
            e["DBUS_SESSION_BUS_ADDRESS"] = self.bus
        if self.skew:  # on top of the clock the whole run was given
            e["ENGRAM_TEST_CLOCK_SKEW_S"] = str(float(e.get("ENGRAM_TEST_CLOCK_SKEW_S") or 0) + self.skew)
        e.update(extra or {})
        return e

    def engram(self, *args, check=True, env=None):
        try:
            return Engram(RUN.engram, self.env(env))(*args, check=check)
        except EngramFailed as e:
            fail("%s: %s" % (self.name, e))


def pair():
    """Devices a (127.0.0.1) and b (127.0.0.2), each introduced to the other, their Syncthings started."""
    a, b = Side("a", "127.0.0.1"), Side("b", "127.0.0.2")
    a.write_config(b)
    b.write_config(a)
    for s in (a, b):
        s.start()
    return a, b


def start_daemon(side, env=None):
    """`engram daemon` on the side's own private session bus (made the first time), as a desktop session runs it."""
    if not side.bus:
        bus = SessionBus(os.path.join(side.dir, "bus"))
        try:
            side.bus = bus.start()
        except RuntimeError as e:
            fail("%s: %s" % (side.name, e))
        RUN.procs.append(bus.proc)
    side.daemon = Daemon(RUN.engram, side.env(env), os.path.join(side.dir, "daemon.log"), new_session=True).spawn()
    RUN.procs.append(side.daemon)
    if not wait_for_name(side.bus, NAME, side.daemon, timeout=30, interval=0.2):
        if side.daemon.poll() is not None:
            fail("%s's daemon exited %d at start (see %s/daemon.log)" % (side.name, side.daemon.returncode, side.dir))
        fail("%s's daemon did not take org.engram.Engram within 30 s" % side.name)


def memory_total(side):
    return json.loads(side.engram("stats", "--json").stdout)["total"]


def cleanup():
    # Every process group started here (Syncthings, buses, daemons): TERM (the monitor reaps its child), then KILL
    # whatever is left.
    for sig in (signal.SIGTERM, signal.SIGKILL):
        for p in RUN.procs:
            try:
                os.killpg(p.pid, sig)
            except ProcessLookupError:
                pass
        deadline = time.time() + 5
        for p in RUN.procs:
            try:
                p.wait(timeout=max(0.1, deadline - time.time()))
            except subprocess.TimeoutExpired:
                pass
    if not RUN.keep:
        shutil.rmtree(RUN.root, ignore_errors=True)
    else:
        print("kept", RUN.root)


def listening_only_on_loopback(sides):
    out = subprocess.run(["ss", "-ltnpH"], capture_output=True, text=True).stdout
    # The pids of each Syncthing's process group (`serve` may run the syncing process as its child).
    pids = set(subprocess.run(["ps", "-o", "pid=", "-g", ",".join(str(s.proc.pid) for s in sides)],
                              capture_output=True, text=True).stdout.split())
    seen = 0
    for line in out.splitlines():
        found = set(re.findall(r"pid=(\d+)", line))
        if not found & pids:
            continue
        seen += 1
        local = line.split()[3]
        if not local.startswith("127.0.0."):
            fail("a Syncthing listens off loopback: " + line)
    if seen < 4:
        fail("expected each Syncthing to listen on its GUI and sync ports, saw %d sockets:\n%s" % (seen, out))


def wait_in_sync(a, b, timeout=120):
    """Until both folders are idle with nothing needed and each has the other's files completely."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        ok = True
        for me, other in ((a, b), (b, a)):
            me.rest("POST", "/rest/db/scan?folder=engram")
            st = me.rest("GET", "/rest/db/status?folder=engram")
            comp = me.rest("GET", "/rest/db/completion?folder=engram&device=" + other.id)
            conn = me.rest("GET", "/rest/system/connections")["connections"].get(other.id, {})
            if st["state"] != "idle" or st["needTotalItems"] != 0 or comp["completion"] != 100 or not conn.get("connected"):
                ok = False
        if ok:
            return
        time.sleep(0.5)
    fail("Syncthings did not settle within %ds" % timeout)


def applied(out):
    m = re.search(r"applied (\d+) change", out)
    return int(m.group(1)) if m else 0


def settle(a, b):
    wait_in_sync(a, b)
    for _ in range(6):
        n = 0
        for s in (a, b):
            n += applied(s.engram("sync", "now").stdout)
        wait_in_sync(a, b)
        if n == 0:
            return
    fail("`engram sync now` kept applying changes")


def ids_of(side, query):
    r = side.engram("search", "--json", "--limit", "100", "--all", query, check=False)
    if r.returncode not in (0, 1):
        fail("%s: search %r exited %d: %s" % (side.name, query, r.returncode, r.stderr))
    return sorted(h["id"] for h in json.loads(r.stdout or '{"results": []}').get("results", []))


def write_jsonl(side, name, lines):
    path = os.path.join(side.dir, name + ".jsonl")
    with open(path, "w") as f:
        for l in lines:
            f.write(json.dumps(l) + "\n")
    return path


