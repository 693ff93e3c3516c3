#!/bin/sh
# record-setup.sh - how long the recorder takes to set up and end, idle and beside each load
# started alone, at nice 0 and at the nice value 'preflight run' gives it (-10): the set-up the
# phase's loads starved for 150 s on the 1-CPU armhf guest (docs/target.md, docs/scenarios.md).
# Each line is one 'preflight record -- sleep 1'; its time less 1 s is the recorder's own.
#
#   traces/record-setup.sh [PREFLIGHT]     (default build/preflight, else the installed one;
#                                           needs root and tracefs)
# In an emulated guest: scripts/target-boot IMAGE OUT -- sh /path/to/traces/record-setup.sh
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
P=${1:-$TOP/build/preflight}
[ -x "$P" ] || P=$(command -v preflight) || { echo "record-setup: no preflight to run" >&2; exit 3; }
[ "$(id -u)" -eq 0 ] || { echo "record-setup: needs root (tracefs)" >&2; exit 3; }
TMP=$(mktemp -d "${TMPDIR:-/tmp}/preflight-setup.XXXXXX")
trap 'kill $lpid 2>/dev/null; wait 2>/dev/null; rm -rf "$TMP"' EXIT
lpid=""

# rec NAME - one recording of 'sleep 1' at nice 0 and at -10, the times in ms
rec() {
	for nice in 0 -10; do
		t0=$(date +%s%N)
		"$P" record -q -o "$TMP/r.dat" --events full --wakeups rt --switches rt --nice "$nice" \
			-- sleep 1 >/dev/null 2>"$TMP/err" || { echo "record-setup: $1: $(tail -1 "$TMP/err")" >&2; }
		t1=$(date +%s%N)
		rm -f "$TMP/r.dat"
		printf '%-10s nice %3s  %7d ms  (recorder %d ms)\n' "$1" "$nice" $(((t1 - t0) / 1000000)) \
			$(((t1 - t0) / 1000000 - 1000))
	done
}

echo "record-setup: $("$P" --version 2>&1 | head -1), $(nproc) CPU(s), $(uname -r)"
rec idle
for spec in "rt-swarm tasks=50 period=100ms work=5us" "cpu hackbench_groups=1 hackbench_loops=50 stress_cpus=1 stress_load=10" \
	    "spi rate=100 size=500 prio=55" "sd bs=64k rate=512k fsync=16"; do
	set -- $spec
	"$P" load "$@" -d 900 -w "$TMP" -o "$TMP/load.json" >/dev/null 2>&1 &
	lpid=$!
	sleep 5	# the load at its steady state (its ready line is not needed for a benchmark)
	rec "$1"
	kill "$lpid" 2>/dev/null
	wait "$lpid" 2>/dev/null
	lpid=""
done
