#!/usr/bin/env bash
# `make deb`: builds engram_VERSION_ARCH.deb, the way people without Swift install Engram
# (`sudo apt install ./engram_VERSION_amd64.deb`).
#
#   scripts/deb/build-deb.sh [OUTDIR]          (default: the repository's top folder)
#
# - The binaries are built in release with Swift's standard library and Foundation linked statically
#   (--static-swift-stdlib), in their own build folder (.build-deb), so running them needs no Swift toolchain.
# - Everything is laid out by scripts/install.sh with PREFIX=/usr into a staging folder: the same files
#   `make install` puts on a machine, plus the meaning-search model and engine in /usr/lib/engram/model.
# - Depends is computed by dpkg-shlibdeps from what the binaries and the engine link.
# - lintian checks the result; an error fails the build (warnings are printed).
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
out="${1:-$root}"
swift="${SWIFT:-swift}"
cd "$root"
version="$(sed -n 's/.*static let current = "\(.*\)".*/\1/p' Sources/EngramRules/Version.swift)"
arch="$(dpkg --print-architecture)"
[ -n "$version" ] || { echo "engram: cannot read the version from Sources/EngramRules/Version.swift" >&2; exit 1; }
for tool in dpkg-shlibdeps lintian fakeroot; do
  command -v "$tool" >/dev/null || { echo "engram: make deb needs $tool (scripts/install-deps.sh --deb installs it)" >&2; exit 1; }
done

# Reproducible: the same commit gives the same package contents. Every date in it (file times, the changelog's, the
# man pages') is the commit's, or SOURCE_DATE_EPOCH's when that is set; dpkg-deb dates the archive's members with it too.
export SOURCE_DATE_EPOCH="${SOURCE_DATE_EPOCH:-$(git -C "$root" log -1 --format=%ct 2>/dev/null || date +%s)}"
scratch="$root/.build-deb"
echo "engram: building the release binaries with Swift's runtime linked in ($scratch)" >&2
for product in engram engram-feed engram-mcp engram-app generate-manual; do
  # (The MCP SDK imports FoundationNetworking, whose static library links Debian's libcurl: libcurl4-openssl-dev.)
  "$swift" build -c release --static-swift-stdlib --scratch-path "$scratch" --product "$product"
done
bin="$scratch/release"
model_dir="$root/.build/model"
[ -f "$model_dir/libe5.so" ] || { echo "engram: no meaning-search model in $model_dir (make model)" >&2; exit 1; }
speech_dir="$root/.build/speech"
[ -f "$speech_dir/libengram-stt.so" ] || { echo "engram: no speech recogniser in $speech_dir (make model)" >&2; exit 1; }

stage="$(mktemp -d)"
trap 'rm -rf "$stage"' EXIT
pkg="$stage/engram_${version}_$arch"
mkdir -p "$pkg/DEBIAN"
DESTDIR="$pkg" SYSTEMD_USER_UNIT_DIR=/usr/lib/systemd/user MODEL_DIR="$model_dir" SPEECH_DIR="$speech_dir" \
  scripts/install.sh "$bin/engram" /usr >/dev/null
# The Plasma widget: Plasma 5.27 and 6 load different root files, and one package serves both (Debian 12 and 13). So
# the package carries the widget's source and install-plasmoid.sh in /usr/share/engram/plasmoid, and the maintainer
# scripts make /usr/share/plasma/plasmoids/org.engram.Engram.plasmoid for the Plasma installed, again whenever a
# Plasma library comes or goes (a dpkg file trigger), and remove it with the package.
plasmoid="$pkg/usr/share/plasma/plasmoids/org.engram.Engram.plasmoid"
[ -d "$plasmoid" ] || { echo "engram: scripts/install.sh installed no Plasma widget" >&2; exit 1; }
rm -rf "$plasmoid"
rmdir -p --ignore-fail-on-non-empty "$(dirname "$plasmoid")"
mkdir -p "$pkg/usr/share/engram/plasmoid"
cp -r Desktop/plasma/org.engram.Engram.plasmoid "$pkg/usr/share/engram/plasmoid/"
install -m 755 Desktop/plasma/install-plasmoid.sh "$pkg/usr/share/engram/plasmoid/install-plasmoid.sh"
find "$pkg/usr/share/engram/plasmoid/org.engram.Engram.plasmoid" -type f -exec chmod 644 {} +
for script in postinst postrm triggers; do
  install -m "$([ "$script" = triggers ] && echo 644 || echo 755)" "scripts/deb/$script" "$pkg/DEBIAN/$script"
done
# Binaries stripped (the package is for running; `make build` keeps symbols for debugging).
for f in "$pkg"/usr/bin/engram "$pkg"/usr/bin/engram-feed "$pkg"/usr/bin/engram-mcp "$pkg"/usr/bin/engram-app \
         "$pkg"/usr/lib/engram/model/libe5.so "$pkg"/usr/lib/engram/speech/*.so; do
  strip --strip-unneeded --remove-section=.comment --remove-section=.note "$f"
done
# Debian's documentation layout: copyright, a compressed changelog and man pages, the README.
doc="$pkg/usr/share/doc/engram"
mkdir -p "$doc"
install -m 644 scripts/deb/copyright "$doc/copyright"
{
  echo "engram ($version) unstable; urgency=medium"
  echo
  echo "  * Built from $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo 'a source tree') by make deb."
  echo
  echo " -- Engram developers <engram@engram.invalid>  $(LC_ALL=C date -u -R -d "@$SOURCE_DATE_EPOCH")"
} | gzip -9n > "$doc/changelog.gz"   # a native package (no Debian revision): changelog.gz
chmod 644 "$doc/changelog.gz"
# Lintian overrides, each with its reason (scripts/deb/lintian-overrides).
mkdir -p "$pkg/usr/share/lintian/overrides"
install -m 644 scripts/deb/lintian-overrides "$pkg/usr/share/lintian/overrides/engram"
gzip -9n "$pkg"/usr/share/man/man1/*.1
# The integration configs are documentation; the scripts among them stay executable examples.
find "$pkg" -type d -exec chmod 755 {} +

# Depends: what the ELF files link, as dpkg-shlibdeps reads it from the installed libraries' shlibs/symbols.
shlib_work="$stage/shlibs"
mkdir -p "$shlib_work/debian"
printf 'Source: engram\n\nPackage: engram\nArchitecture: any\n' > "$shlib_work/debian/control"
elves=()
while IFS= read -r f; do
  if file -b "$f" | grep -q '^ELF'; then elves+=("$f"); fi
done < <(find "$pkg/usr" -type f \( -perm -u+x -o -name '*.so' \))
depends="$(cd "$shlib_work" && dpkg-shlibdeps -O -l"$pkg/usr/lib/engram/model" -l"$pkg/usr/lib/engram/speech" "${elves[@]}" 2>"$stage/shlibdeps.log" \
           | sed -n 's/^shlibs:Depends=//p')" || { cat "$stage/shlibdeps.log" >&2; exit 1; }
[ -n "$depends" ] || { echo "engram: dpkg-shlibdeps found no dependencies" >&2; cat "$stage/shlibdeps.log" >&2; exit 1; }
installed_size="$(du -sk --apparent-size "$pkg/usr" | cut -f1)"
sed -e "s|@VERSION@|$version|" -e "s|@ARCH@|$arch|" -e "s|@DEPENDS@|$depends, dbus-user-session \| dbus-x11|" \
    -e "s|@SIZE@|$installed_size|" scripts/deb/control.in > "$pkg/DEBIAN/control"
(cd "$pkg" && find usr -type f -print0 | sort -z | xargs -0 md5sum) > "$pkg/DEBIAN/md5sums"
chmod 644 "$pkg/DEBIAN/control" "$pkg/DEBIAN/md5sums"
find "$pkg" -exec touch --no-dereference --date="@$SOURCE_DATE_EPOCH" {} +

deb="$out/engram_${version}_$arch.deb"
mkdir -p "$out"
dpkg-deb --root-owner-group -Zxz --build "$pkg" "$deb" >/dev/null
echo "engram: built $deb ($(du -h "$deb" | cut -f1)); Depends: $depends" >&2
# lintian: errors fail the build; the one override the package carries says why (scripts/deb/lintian-overrides).
lintian_out="$stage/lintian.txt"
lintian --no-tag-display-limit "$deb" > "$lintian_out" 2>&1 || true
cat "$lintian_out" >&2
if grep -q '^E: ' "$lintian_out"; then
  echo "engram: lintian found errors in $deb" >&2
  exit 1
fi
echo "$deb"
