"""The sample collection (Samples/) as of any day: a copy with every date moved by whole days, so that the
collection's own "today" (2026-11-22, Samples/README.md) falls on the day the copy is made for. Without it the
samples age with the calendar: a year on, most of them have faded from search and none is due for review.

    /usr/bin/python3 scripts/samples.py DEST        # a copy for today (on the Engram clock: ENGRAM_TEST_CLOCK_SKEW_S)
    samples.copy(dest, today=datetime.date(...))      # from Python

Dates are moved wherever they are written (JSON, TOML, YAML, Markdown front matter and text), times of day kept;
a text that only looks like a date (2026-02-31) is left as it is.
"""
import datetime
import os
import re
import shutil
import sys
import time

ROOT = os.path.realpath(os.path.join(os.path.dirname(__file__), ".."))
SAMPLES = os.path.join(ROOT, "Samples")
TODAY = datetime.date(2026, 11, 22)  # the collection's "today"
DATE = re.compile(r"(?<![0-9])([0-9]{4})-([0-9]{2})-([0-9]{2})(?![0-9])")
TEXT_FILES = (".jsonl", ".json", ".toml", ".yaml", ".yml", ".md")


def engram_now(env=None):
    """Now on the clock Engram's processes run on in env (the system clock moved by ENGRAM_TEST_CLOCK_SKEW_S)."""
    return time.time() + float((os.environ if env is None else env).get("ENGRAM_TEST_CLOCK_SKEW_S") or 0)


def shift(text, days):
    """text with every valid YYYY-MM-DD moved by days."""
    def move(m):
        try:
            day = datetime.date(int(m[1]), int(m[2]), int(m[3]))
        except ValueError:
            return m[0]
        return (day + datetime.timedelta(days=days)).isoformat()
    return DATE.sub(move, text) if days else text


def copy(dest, today=None, env=None):
    """Copies Samples/ to dest (replacing it) with its dates moved so its today is `today` (default: today in UTC on
    the Engram clock of env); returns dest."""
    today = today or datetime.datetime.fromtimestamp(engram_now(env), datetime.timezone.utc).date()
    days = (today - TODAY).days
    shutil.rmtree(dest, ignore_errors=True)
    shutil.copytree(SAMPLES, dest)
    for folder, _, files in os.walk(dest):
        for name in files:
            if name.endswith(TEXT_FILES):
                path = os.path.join(folder, name)
                with open(path, encoding="utf-8") as f:
                    text = f.read()
                with open(path, "w", encoding="utf-8") as f:
                    f.write(shift(text, days))
            # Written now on the Engram clock: a note without a date in its front matter is dated by its file's time.
            now = engram_now(env)
            os.utime(os.path.join(folder, name), (now, now))
    return dest


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: samples.py DEST")
    print(copy(sys.argv[1]))
