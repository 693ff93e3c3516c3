#!/bin/sh
# analyze-perf.sh - throughput and memory of 'preflight analyze' on a trace of
# at least 5 million events, measured side by side on the same file:
#   floor   gentrace floor: libtracecmd iteration that only decodes event ids
#   analyze preflight analyze (results.json, no CSV)
#   report  trace-cmd report > /dev/null
# Goals: analyze >= 0.7x the floor's speed, >= 10x trace-cmd report,
# peak RSS <= 64 MiB and independent of trace length (checked on 1/4 of the trace).
# The trace is generated here (gentrace storm) in a temporary directory.
# Times are the best of RUNS runs (default 5), wall clock for the goals and CPU time beside
# them (steadier on a loaded machine). Exit 1 when the memory goal fails.
#
# usage: analysis/analyze-perf.sh [EVENTS]   (default 5200000)
set -eu
TOP=$(cd "$(dirname "$0")/.." && pwd)
B="$TOP/build"
EVENTS=${1:-5200000}
RUNS=${RUNS:-5}
TMP=$(mktemp -d "${TMPDIR:-/tmp}/bench-analyze.XXXXXX")
trap 'rm -rf "$TMP"' EXIT INT TERM

for p in "$B/preflight" "$B/t/gentrace"; do
	[ -x "$p" ] || { echo "bench-analyze: $p not built (make all unit-tests)" >&2; exit 3; }
done
command -v trace-cmd >/dev/null || { echo "bench-analyze: trace-cmd not installed" >&2; exit 3; }

# best_of N CMD... - the smallest wall time (s), the largest peak RSS (KiB) and the smallest
# CPU time (user + system, s: less disturbed by other load than wall time) of N runs
best_of() {
	n=$1; shift
	best=; rss=0; cpu=
	i=0
	while [ "$i" -lt "$n" ]; do
		/usr/bin/time -f "%e %M %U %S" -o "$TMP/time" "$@" >/dev/null 2>"$TMP/err" ||
			{ cat "$TMP/err" >&2; exit 4; }
		read -r t m u s < "$TMP/time"
		c=$(awk "BEGIN{print $u + $s}")
		if [ -z "$best" ] || awk "BEGIN{exit !($t < $best)}"; then best=$t; fi
		if [ -z "$cpu" ] || awk "BEGIN{exit !($c < $cpu)}"; then cpu=$c; fi
		[ "$m" -gt "$rss" ] && rss=$m
		i=$((i + 1))
	done
	echo "$best $rss $cpu"
}

"$B/t/gentrace" storm "$TMP/big.dat" "$EVENTS"
"$B/t/gentrace" storm "$TMP/small.dat" $((EVENTS / 4))
nev=$("$B/t/gentrace" floor "$TMP/big.dat" | awk '{print $2}')
size=$(stat -c %s "$TMP/big.dat")

set -- $(best_of "$RUNS" "$B/t/gentrace" floor "$TMP/big.dat"); t_floor=$1; c_floor=$3
set -- $(best_of "$RUNS" "$B/preflight" analyze -q --trace "$TMP/big.dat" -o "$TMP/r.json"); t_an=$1; rss_big=$2; c_an=$3
set -- $(best_of 1 sh -c "trace-cmd report -i '$TMP/big.dat' > /dev/null"); t_rep=$1; c_rep=$3
set -- $(best_of 2 "$B/preflight" analyze -q --trace "$TMP/small.dat" -o "$TMP/r2.json"); rss_small=$2

awk -v n="$nev" -v sz="$size" -v f="$t_floor" -v a="$t_an" -v r="$t_rep" \
    -v cf="$c_floor" -v ca="$c_an" -v cr="$c_rep" \
    -v rb="$rss_big" -v rs="$rss_small" 'BEGIN {
	printf "trace: %d events, %.0f MiB (gentrace storm)\n", n, sz / 1048576
	printf "floor (libtracecmd, event id only): %6.2f s  %5.2f M events/s\n", f, n / f / 1e6
	printf "preflight analyze:                  %6.2f s  %5.2f M events/s\n", a, n / a / 1e6
	printf "trace-cmd report > /dev/null:       %6.2f s  %5.2f M events/s\n", r, n / r / 1e6
	printf "analyze vs floor:  %.2fx (goal >= 0.7x) %s\n", f / a, (f / a >= 0.7) ? "ok" : "MISSED"
	printf "analyze vs report: %.1fx (goal >= 10x) %s\n", r / a, (r / a >= 10) ? "ok" : "MISSED"
	printf "in CPU time (user + system): floor %.2f s, analyze %.2f s, report %.2f s: %.2fx the floor, %.1fx report\n",
	       cf, ca, cr, cf / ca, cr / ca
	printf "peak RSS: %.1f MiB on the trace, %.1f MiB on a quarter of it (goal <= 64 MiB) %s\n",
	       rb / 1024, rs / 1024, (rb <= 65536) ? "ok" : "MISSED"
	exit (rb > 65536)
}'
