#!/usr/bin/env bash
# Runs a command inside a root made by root.sh, with /proc, /sys and /dev mounted (left mounted for the next call;
# `--umount ROOT` takes them down). /tmp/.X11-unix is bound in so programs inside can use an X server outside.
#
#   scripts/trixie/inroot.sh ROOT COMMAND [ARG...]
#   scripts/trixie/inroot.sh --umount ROOT
set -euo pipefail
if [ "${1:-}" = "--umount" ]; then
  root="$2"
  for m in tmp/.X11-unix dev sys proc; do
    mountpoint -q "$root/$m" && umount -R "$root/$m" 2>/dev/null || umount -lR "$root/$m" 2>/dev/null || true
  done
  exit 0
fi
root="$1"; shift
mountpoint -q "$root/proc" || mount -t proc proc "$root/proc"
mountpoint -q "$root/sys" || mount -t sysfs sys "$root/sys"
mountpoint -q "$root/dev" || { mount --rbind /dev "$root/dev"; mount --make-rslave "$root/dev"; }
mkdir -p /tmp/.X11-unix "$root/tmp/.X11-unix"; chmod 1777 /tmp/.X11-unix "$root/tmp" 2>/dev/null || true
mountpoint -q "$root/tmp/.X11-unix" || mount --bind /tmp/.X11-unix "$root/tmp/.X11-unix"
exec chroot "$root" /usr/bin/env -i PATH=/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin LANG=C.UTF-8 HOME=/root "$@"
