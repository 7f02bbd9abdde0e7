#!/usr/bin/env bash
# Builds (once) the Debian 13 "trixie" root the real-shell suites run GNOME Shell 48 and KDE Frameworks 6 in, and
# prints its path. The root lives outside the clone, in a cache folder kept between runs on one machine
# ($ENGRAM_ROOT_CACHE, default /var/cache/engram-tests), named by a hash of `packages` and the way it is made: a changed
# package list makes a new root, and the old ones are removed. Needs root (mmdebstrap, chroot, mounts).
#
#   scripts/trixie/root.sh            prints the root's path, building it first if needed (~1-3 minutes, ~1.5 GB)
#   scripts/trixie/root.sh bare SUITE a bare root of that Debian release (bookworm, trixie: apt and the essential
#                                     packages only), where `make test-deb` installs the package as a person would
#
# The suites install Engram into it from its Debian package (make deb) and start it inside with scripts/trixie/inroot.sh.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
cache="${ENGRAM_ROOT_CACHE:-/var/cache/engram-tests}"
mirror="${ENGRAM_TRIXIE_MIRROR:-http://deb.debian.org/debian}"
if [ "${1:-}" = "bare" ]; then
  release="${2:?which Debian release: bookworm or trixie}"
  name="bare-$release"; list=/dev/null
else
  release=trixie; name=trixie; list="$here/packages"
fi
# The key: the package list and the way the root is made (bump "format" when the mmdebstrap line changes).
key="$( (cat "$list"; echo "format 2: mmdebstrap apt variant, no recommends, no docs, apt lists kept") | sha256sum | cut -c1-12)"
root="$cache/$name-$key"
if [ -f "$root/.engram-root-ready" ]; then echo "$root"; exit 0; fi

[ "$(id -u)" -eq 0 ] || { echo "engram: building the trixie root needs root (mmdebstrap, chroot)" >&2; exit 1; }
command -v mmdebstrap >/dev/null || apt-get install -y -q mmdebstrap >&2
mkdir -p "$cache"; chmod 700 "$cache"
# Old roots (another package list): unmount anything left mounted inside, then remove.
for old in "$cache/$name"-*; do
  [ -d "$old" ] || continue
  [ "$old" = "$root" ] && continue
  "$here/inroot.sh" --umount "$old" >&2 || true
  rm -rf --one-file-system "$old"
done
rm -rf --one-file-system "$root.partial" "$root"
includes="$( (grep -v '^#' "$list" || true) | (grep -v '^$' || true) | paste -sd, -)"
started=$(date +%s)
echo "engram: building the Debian $release root $root (once per package list)" >&2
# The package lists are kept: the suites install Engram's package (and download plasma-workspace's) inside.
mmdebstrap --quiet --variant=apt ${includes:+--include="$includes"} --skip=cleanup/apt/lists \
  --aptopt='APT::Install-Recommends "false"' --dpkgopt='path-exclude=/usr/share/doc/*' \
  "$release" "$root.partial" "$mirror" >&2
cp /etc/resolv.conf "$root.partial/etc/resolv.conf" 2>/dev/null || true
touch "$root.partial/.engram-root-ready"
mv "$root.partial" "$root"
echo "engram: the $release root took $(( $(date +%s) - started )) s ($(du -sh --one-file-system "$root" | cut -f1))" >&2
echo "$root"
