"""Small facts about this machine the suites and benches share: a free X display number, a process's memory."""
import os


def free_display(first=90, last=200):
    """An X display number with neither a socket nor a lock file (first..last-1)."""
    for n in range(first, last):
        if not os.path.exists(f"/tmp/.X11-unix/X{n}") and not os.path.exists(f"/tmp/.X{n}-lock"):
            return n
    raise RuntimeError("no free X display number")


def rss_kb(pid):
    """The process's resident memory in KiB (VmRSS), 0 when it has none or is gone."""
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0
