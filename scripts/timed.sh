#!/bin/sh
# scripts/timed.sh LOG NAME COMMAND...: runs COMMAND, then says how long NAME took, on the terminal and as a line of
# LOG, so the end of a long `make test` can list where its minutes went (`scripts/timed.sh LOG --summary`).
log=$1 name=$2
shift 2
if [ "$name" = --summary ]; then
  [ -f "$log" ] || exit 0
  total=$(awk '{s += $1} END {print s}' "$log")
  echo "make test: where the time went (seconds, $((total / 60)) min $((total % 60)) s in all):"
  sed 's/^/  /' "$log"
  exit 0
fi
start=$(date +%s)
"$@"
rc=$?
took=$(( $(date +%s) - start ))
mkdir -p "$(dirname "$log")"
printf '%5d  %s%s\n' "$took" "$name" "$([ $rc -eq 0 ] || echo " (failed, exit $rc)")" >>"$log"
echo "make test: $name took $took s"
exit $rc
