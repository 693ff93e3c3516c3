#!/bin/sh
# run-fuzz.sh - run libFuzzer harnesses for a bounded time each (make fuzz).
#
# usage: t/fuzz/run-fuzz.sh BUILD_DIR SECONDS NAME...
#
# Each harness BUILD_DIR/fuzz/NAME starts from its committed corpus
# t/fuzz/NAME/ and writes what it finds to BUILD_DIR/fuzz/corpus/NAME/ (new
# inputs) and BUILD_DIR/fuzz/crashes/NAME-* (crash, leak, timeout and OOM
# inputs; docs/fuzzing.md says how one becomes a committed regression input).
# Prints one line per harness: executions, new corpus inputs, crashes.
# Exit 1 when any harness found a crash.
set -u
cd "$(dirname "$0")/../.."
b=$1 secs=$2
shift 2
export FUZZ_TOP=$PWD
failed=0
printf '%-18s %12s %8s %8s\n' harness executions corpus crashes
for h in "$@"; do
	mkdir -p "$b/fuzz/corpus/$h" "$b/fuzz/crashes" "$b/fuzz/logs"
	"$b/fuzz/$h" -max_total_time="$secs" -print_final_stats=1 -close_fd_mask=3 -max_len=65536 \
		-timeout=10 -rss_limit_mb=2048 -artifact_prefix="$b/fuzz/crashes/$h-" \
		"$b/fuzz/corpus/$h" "t/fuzz/$h" > "$b/fuzz/logs/$h.log" 2>&1
	rc=$?
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$b/fuzz/logs/$h.log" | tail -1)
	crashes=$(ls "$b/fuzz/crashes" | grep -Ec "^$h-(crash|leak|timeout|oom)-")	# not slow-unit: a note, under load
	[ "$rc" = 0 ] || failed=1
	printf '%-18s %12s %8s %8s%s\n' "$h" "${execs:-?}" "$(ls "$b/fuzz/corpus/$h" | wc -l)" "$crashes" \
		"$([ "$rc" = 0 ] || echo "  (exit $rc: $b/fuzz/logs/$h.log)")"
done
exit $failed
