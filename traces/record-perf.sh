#!/bin/sh
# record-perf.sh - the recorder's benchmark ('make perf'): sustained streaming rate with zero
# loss under an event storm at 16 MiB per CPU, the recorder's CPU use near 100 000 events/s, and
# the same storm captured by 'trace-cmd extract' (the snapshot baseline), printed side by side.
#
#   traces/record-perf.sh [SECONDS]      (default 5 s per storm; needs root and tracefs)
#
# Storms: stress-ng --switch (context-switch ping-pong; the densest sched event source here) and
# hackbench (the load users measure with, many threads); both recorded with the 'sched' event set. The rate line is
# printed by preflight record itself ("recorder CPU while recording: ..., N events/s").
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
P="$TOP/build/preflight"
T=/sys/kernel/tracing
SECS=${1:-5}
TMP=$(mktemp -d "${TMPDIR:-/tmp}/preflight-perf.XXXXXX")
X=pf-bench-extract-$$
trap '[ -d "$T/instances/$X" ] && { echo 0 > "$T/instances/$X/tracing_on"; rmdir "$T/instances/$X"; }; rm -rf "$TMP"' EXIT

[ "$(id -u)" -eq 0 ] || { echo "record-perf: needs root (tracefs)" >&2; exit 3; }
[ -e "$T/trace_marker" ] || mount -t tracefs nodev "$T" || exit 3
for tool in stress-ng hackbench trace-cmd; do
	command -v $tool >/dev/null || { echo "record-perf: $tool is not installed" >&2; exit 3; }
done

# record ID LABEL ARGS... - record a storm; sets ev (events), lost, cpu (% of one CPU), rate (events/s)
record() {
	name=$1 label=$2; shift 2
	"$P" record -o "$TMP/$name.dat" -e sched --no-kallsyms -b 16384 -- "$@" \
		>/dev/null 2>"$TMP/$name.err"
	ev=$(sed -n 's/.*wrote .*: \([0-9]*\) events.*/\1/p' "$TMP/$name.err")
	lost=$(sed -n 's/.*wrote .*, lost \([0-9]*\).*/\1/p' "$TMP/$name.err")
	cpu=$(sed -n 's/.*recording: .* (\([0-9.]*\) % of one CPU).*/\1/p' "$TMP/$name.err")
	rate=$(sed -n 's/.*of one CPU), \([0-9]*\) events\/s.*/\1/p' "$TMP/$name.err")
	printf '%-34s %12s %10s %9s %12s\n' "$label" "${ev:-?}" "${lost:-?}" "${cpu:-?}" "${rate:-?}"
	rm -f "$TMP/$name.dat"
}

echo "# preflight record benchmark: $(nproc) CPUs, $(uname -r), ${SECS} s per storm, 16 MiB per CPU, event set sched"
printf '%-34s %12s %10s %9s %12s\n' "# storm (streaming)" "events" "lost" "cpu_%" "events/s"
record switch2 "stress-ng --switch 2 (max rate)" stress-ng --switch 2 --timeout "${SECS}s" -q
s_rate=$rate s_lost=$lost s_ev=$ev
record hackbench "hackbench -T -p -g 4" timeout "$SECS" hackbench -T -p -l 1000000 -g 4
record switch100k "stress-ng --switch 1 @~100k ev/s" stress-ng --switch 1 --switch-freq 18000 --timeout "${SECS}s" -q
k_rate=$rate k_cpu=$cpu

# the snapshot baseline: the same max-rate storm into an instance, then trace-cmd extract
I="$T/instances/$X"
mkdir "$I" && echo mono > "$I/trace_clock" && echo 16384 > "$I/buffer_size_kb" || exit 3
for e in sched_switch sched_waking sched_wakeup sched_wakeup_new sched_migrate_task sched_process_exit; do
	echo 1 > "$I/events/sched/$e/enable"
done
echo 1 > "$I/tracing_on"
stress-ng --switch 2 --timeout "${SECS}s" -q
echo 0 > "$I/tracing_on"
start=$(date +%s.%N)
trace-cmd extract -B "$X" -o "$TMP/extract.dat" >/dev/null 2>&1
end=$(date +%s.%N)
[ -d "$I" ] && { echo 0 > "$I/events/enable"; rmdir "$I"; }
x_ev=$("$P" record --summary "$TMP/extract.dat" | awk '$1 == "events" { print $2 }')
x_lost=$("$P" record --summary "$TMP/extract.dat" | awk '$1 == "lost" { print $2 }')
echo
printf '%-34s %12s %10s %9s %12s\n' "# snapshot baseline (extract)" "events" "lost" "extract_s" "kept/s"
printf '%-34s %12s %10s %9.2f %12.0f\n' "stress-ng --switch 2 + extract" "$x_ev" "$x_lost" \
	"$(echo "$end - $start" | bc -l)" "$(echo "$x_ev / $SECS" | bc -l)"

echo
echo "# results"
echo "sustained streaming rate, zero loss required: ${s_rate} events/s (lost ${s_lost}; goal >= 1000000)"
echo "recorder CPU at ~100k events/s: ${k_cpu} % of one CPU at ${k_rate} events/s (goal < 10 %)"
echo "events kept, streaming / extract snapshot: ${s_ev} / ${x_ev} = $(echo "scale=1; $s_ev / $x_ev" | bc -l)x"
echo "extract kept $(echo "scale=2; 100 * $x_ev / ($x_ev + $x_lost)" | bc -l) % of the storm's events (the rest overwritten in the 16 MiB buffers)"
