#!/bin/sh
# agreement-perf.sh - activation latency from the trace against the job log
# (the goal: within 5 us at p99 on a real recorded run). Records flightapp for
# SECONDS under 'preflight record', analyses trace and job log together, and
# prints per task the p50 / p99 / max of |trace - job log| from
# results.json's tasks[].agreement. Needs root and tracefs (exit 3 without).
#
# usage: analysis/agreement-perf.sh [SECONDS]   (default 30)
set -eu
TOP=$(cd "$(dirname "$0")/.." && pwd)
B="$TOP/build"
SECONDS_RUN=${1:-30}
TMP=$(mktemp -d "${TMPDIR:-/tmp}/agreement-perf.XXXXXX")
trap 'rm -rf "$TMP"' EXIT INT TERM

for p in "$B/preflight" "$B/flightapp"; do
	[ -x "$p" ] || { echo "agreement-perf: $p not built (make)" >&2; exit 3; }
done
[ "$(id -u)" -eq 0 ] || { echo "agreement-perf: needs root (tracefs, SCHED_FIFO)" >&2; exit 3; }

"$B/preflight" record -q -o "$TMP/trace.dat" -- sh -c \
	"exec '$B/flightapp' --trace-instance \"\$PREFLIGHT_TRACE_INSTANCE\" -d $SECONDS_RUN -q -j '$TMP/jobs.csv' > '$TMP/app.out'"
"$B/preflight" analyze -q --trace "$TMP/trace.dat" --joblog "$TMP/jobs.csv" -o "$TMP/results.json"
echo "trace vs job log, |difference| of activation latency over a ${SECONDS_RUN} s flightapp run (goal: p99 <= 5 us)"
perl -MJSON::PP -e '
	local $/; my $j = decode_json(<STDIN>); my $worst = 0;
	for my $t (@{$j->{tasks}}) {
		my $a = $t->{agreement} or next;
		next unless $a->{matched};
		my $d = $a->{activation_latency_diff_ns};
		printf "%-10s %6d jobs  p50 %7.2f us  p99 %7.2f us  max %8.2f us\n",
			$t->{name}, $a->{matched}, $d->{p50} / 1e3, $d->{p99} / 1e3, $d->{max} / 1e3;
		$worst = $d->{p99} if $d->{p99} > $worst;
	}
	printf "worst p99 %.2f us: %s\n", $worst / 1e3, $worst <= 5000 ? "goal met" : "goal missed";
' < "$TMP/results.json"
