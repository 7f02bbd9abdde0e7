#!/usr/bin/python3
"""Writes the seed corpus and libFuzzer dictionary for part 4 (query robustness) of `make stress`.

Usage: seeds.py SEED_DIR DICT_FILE [COUNT]. Seeded, so every run starts from the same inputs. Each seed is one
selector byte (partial, include-expired, limit, snippets, context, plain-words bits) followed by the query bytes.
"""
import os
import random
import sys

FIELDS = ["tag", "type", "ctx", "in", "kind", "title", "created"]
OPERATORS = ["AND", "OR", "NOT", "XOR", "NEAR", "NEAR/3", "ADJ", "ADJ/99999999", "AND NOT", "+", "-", "~"]
ODD_VALUES = [
    "", '"', '""', '"two words"', '"unclosed', "..", "...", "..2024-06-30", "2024-01-01..", "2024-13-45..2024-99-99",
    "9999999999..1", "0..0", "-1..-2", "20240101..20241231", "2024-02-30", "*", "**", "a*", "x:y", "tag:", "::", "\0",
    "\x1f", "\x7f", "😀", "שלום", "e\u0301\u0301", "\u202e", "\ufeff", "NOT", "OR", "(", ")", "()", "%00", "\\", "'", "`",
    "$(touch /tmp/pwned)", "<b>", "&amp;", "Qmemory", "XTAG", "x" * 300, "a" * 5000,
]
WORDS = ["zebra", "sourdough", "actors", "swift", "stoicism", "meditations", "the", "and", "running", "élan", "Straße",
         "東京", "مرحبا", "a", "x", "1", "2024", "concurrency", "spanish", "marcus"]
INVALID_UTF8 = [b"\xff", b"\xfe\xff", b"\xc0\x80", b"\xed\xa0\x80", b"\xe2\x82", b"\xf0\x9f\x98", b"\x80\x80",
                b"\xf8\x88\x80\x80\x80", b"\xc3(", b"\xa0\xa1"]


def word(r):
    return r.choice(WORDS) if r.random() < 0.8 else "".join(chr(r.randrange(0x21, 0x2FFF)) for _ in range(r.randrange(1, 8)))


def query(r, kind):
    if kind == "random_bytes":
        return bytes(r.randrange(256) for _ in range(r.randrange(0, 200)))
    if kind == "invalid_utf8":
        parts = [r.choice(INVALID_UTF8) if r.random() < 0.5 else word(r).encode() for _ in range(r.randrange(1, 8))]
        return b" ".join(parts)
    if kind == "quotes_brackets":
        pieces = [r.choice(['"', "(", ")", "((", "))", '"(', ')"', "'", word(r), r.choice(OPERATORS)]) for _ in range(r.randrange(1, 12))]
        return r.choice(["", " "]).join(pieces).encode()
    if kind == "field":
        f = r.choice(FIELDS)
        v = r.choice(ODD_VALUES)
        pre = r.choice(["", word(r) + " ", "-", "+", "NOT ", "(", '"'])
        post = r.choice(["", " " + word(r), ")", "*", " OR " + r.choice(FIELDS) + ":" + r.choice(ODD_VALUES)])
        return (pre + f + ":" + v + post).encode()
    if kind == "operators":
        return " ".join(r.choice(OPERATORS + WORDS) for _ in range(r.randrange(1, 10))).encode()
    if kind == "long":
        n = r.choice([8191, 8192, 8193, 9000, 16000, 19000])
        unit = r.choice(["zebra ", "a", "(", '"a ', "tag:x ", "a* ", "😀", "x" * 250 + " ", "NOT ", "sourdough OR "])
        return (unit * (n // len(unit.encode()) + 1)).encode()[:n]
    if kind == "mixed":
        return " ".join(word(r) for _ in range(r.randrange(1, 6))).encode()
    raise ValueError(kind)


def main():
    seed_dir, dict_path = sys.argv[1], sys.argv[2]
    count = int(sys.argv[3]) if len(sys.argv) > 3 else 1200
    os.makedirs(seed_dir, exist_ok=True)
    r = random.Random(20260101)
    kinds = ["random_bytes", "invalid_utf8", "quotes_brackets", "field", "operators", "long", "mixed"]
    for i in range(count):
        kind = kinds[i % len(kinds)] if i >= 0 else None
        data = bytes([r.randrange(64)]) + query(r, kind)
        with open(os.path.join(seed_dir, f"seed-{i:05d}-{kind}"), "wb") as f:
            f.write(data)
    # Every field with every odd value once, partial and not.
    n = 0
    for f in FIELDS:
        for v in ODD_VALUES:
            for sel in (0, 1):
                with open(os.path.join(seed_dir, f"field-{n:05d}"), "wb") as out:
                    out.write(bytes([sel]) + (f + ":" + v).encode())
                n += 1
    tokens = FIELDS and [f + ":" for f in FIELDS] + OPERATORS + ['"', "(", ")", "..", "*", "\\x00", "\\xff", "\\xc0\\x80"]
    with open(dict_path, "w") as d:
        for i, t in enumerate(tokens):
            esc = t.replace("\\", "\\\\").replace('"', '\\"') if not t.startswith("\\x") else t
            d.write(f'k{i}="{esc}"\n')


main()
