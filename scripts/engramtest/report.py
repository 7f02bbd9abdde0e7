"""What a suite reports: the one writer of results.md and results.json, and the checks a suite records.

    write_results(out, markdown_lines, data)   results.md (and results.json when data is given) in out
    report = Report("krunner", out)            PASS/FAIL/SKIP lines, printed as they come, then results.md
    machine()                                  cores, CPU model, memory, kernel: what a figure ran on
"""
import json
import os
import platform
import time


def write_results(out, markdown, data=None):
    """Writes out/results.md (a list of lines, or a text) and, given data, out/results.json; returns the .md path."""
    os.makedirs(out, exist_ok=True)
    if data is not None:
        with open(os.path.join(out, "results.json"), "w") as f:
            json.dump(data, f, indent=2, ensure_ascii=False)
            f.write("\n")
    text = markdown if isinstance(markdown, str) else "\n".join(markdown) + "\n"
    path = os.path.join(out, "results.md")
    with open(path, "w") as f:
        f.write(text)
    return path


def cpu_model():
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor()


def load_average():
    """The 1, 5 and 15 minute load averages as /proc/loadavg says them ("0.52 0.61 0.70")."""
    return " ".join(open("/proc/loadavg").read().split()[:3])


def machine():
    """What the figures ran on: cores, CPU, memory, kernel and the load at the start."""
    with open("/proc/meminfo") as f:
        mem = int(f.readline().split()[1]) // 1024
    return {"nproc": os.cpu_count(), "cpu": cpu_model(), "mem_mb": mem, "kernel": platform.release(),
            "load_start": os.getloadavg()}


class Failed(Exception):
    """A check a user would notice failed; the message says what was expected and what was seen."""


def expect(condition, message):
    """Raises Failed with the message unless the condition holds."""
    if not condition:
        raise Failed(message)


def eventually(fn, timeout=10.0, interval=0.1):
    """Polls fn until it returns something truthy; returns that, or the last value after the timeout."""
    deadline = time.monotonic() + timeout
    value = fn()
    while not value and time.monotonic() < deadline:
        time.sleep(interval)
        value = fn()
    return value


class Report:
    """Collects PASS/FAIL/SKIP lines, prints each as it comes and writes results.md at the end.

    columns names the table's two text columns; prefix is printed before each line's name (the suite's, by default)."""

    def __init__(self, suite, out_dir, columns=("check", "detail"), prefix=None):
        self.suite, self.out_dir, self.columns = suite, out_dir, columns
        self.prefix = f"{suite}: " if prefix is None else prefix
        self.lines, self.started = [], time.monotonic()

    def add(self, status, name, detail):
        """Records one line: status is PASS, FAIL or SKIP."""
        self.lines.append((status, name, detail))
        print(f"{status}  {self.prefix}{name}: {detail}", flush=True)

    def record(self, ok, name, detail):
        self.add("PASS" if ok else "FAIL", name, detail)

    def check(self, name, fn, on_fail=None):
        """Runs one check; its return value (a sentence) is the PASS detail, a Failed its FAIL detail."""
        t0 = time.monotonic()
        try:
            detail = fn() or "ok"
            self.record(True, name, f"{detail} ({time.monotonic() - t0:.1f} s)")
            return True
        except Failed as error:
            self.record(False, name, str(error))
        except Exception as error:  # a broken harness step is a failure too, with what broke
            self.record(False, name, f"{type(error).__name__}: {error}")
        if on_fail:
            try:
                on_fail(name)
            except Exception as error:
                print(f"  (could not keep evidence: {error})", flush=True)
        return False

    def count(self, status):
        return sum(1 for l in self.lines if l[0] == status)

    @property
    def failures(self):
        return [l for l in self.lines if l[0] == "FAIL"]

    def summary(self):
        took = time.monotonic() - self.started
        skipped = self.count("SKIP")
        return (f"{self.count('PASS')}/{len(self.lines) - skipped} passed"
                + (f", {skipped} skipped" if skipped else "") + f" in {took:.0f} s (load average {load_average()})")

    def write(self):
        md = [f"# {self.suite}: {self.summary()}", "",
              f"| result | {self.columns[0]} | {self.columns[1]} |", "|---|---|---|"]
        md += [f"| {status} | {name} | {detail.replace('|', '/')} |" for status, name, detail in self.lines]
        write_results(self.out_dir, md)
        print(f"{self.suite}: {self.summary()}; results and logs in {self.out_dir}", flush=True)
