#!/bin/sh
# 0235-flightapp-dma-latency.t - a kernel without /dev/cpu_dma_latency (the
# armhf guests): flightapp goes on with one warning line, as cyclictest does,
# and says "unavailable" in its job log and statistics; 'preflight run' makes
# that a warning of the run (run.json, the summary). --require-dma-latency
# refuses instead. The device is stood in for by PREFLIGHT_TEST_DMA_LATENCY
# (a missing path, or a plain file): the real /dev is never touched.
. "$(dirname "$0")/lib/test-lib.sh"
need RT
. "$TOP/t/lib/app-lib.sh"
plan 10

none="$TMP/no-cpu_dma_latency"
run_cmd env PREFLIGHT_TEST_DMA_LATENCY="$none" "$FLIGHTAPP" -q -d 0.3 -j "$TMP/j1.csv" --stats-json "$TMP/s1.json"
is "$rc" 0 "dma-1.1 no such device, SCHED_FIFO run: the app runs (exit 0)"
is "$err" "flightapp: warning: $none: No such file or directory: going on without it (idle states not held shallow; --require-dma-latency to refuse)" \
	"dma-1.2 ... with one warning line naming it"
is "$(grep -c '^# dma_latency=unavailable$' "$TMP/j1.csv")/$(json_get "$TMP/s1.json" .dma_latency)" "1/unavailable" \
	"dma-1.3 ... the job log and the statistics say dma_latency unavailable"
run_cmd env PREFLIGHT_TEST_DMA_LATENCY="$none" "$FLIGHTAPP" -q -d 0.3 --require-dma-latency -j "$TMP/j2.csv"
is "$rc:$err" "3:flightapp: $none: No such file or directory (--require-dma-latency)" \
	"dma-1.4 --require-dma-latency: exit 3, one line"
ok "dma-1.5 ... before the run: no job row written" test "$(cat "$TMP/j2.csv" 2>/dev/null | grep -vc '^#')" -le 1
: > "$TMP/stand-in"
run_cmd env PREFLIGHT_TEST_DMA_LATENCY="$TMP/stand-in" "$FLIGHTAPP" -q -d 0.3 --require-dma-latency --stats-json "$TMP/s3.json"
is "$rc:$err:$(json_get "$TMP/s3.json" .dma_latency)" "0::held" "dma-1.6 a device that takes the request: held, nothing said"
run_cmd "$FLIGHTAPP" --no-dma-latency --require-dma-latency --check
is "$rc:$err" "2:flightapp: --require-dma-latency: contradicts --no-dma-latency" "dma-1.7 both options: exit 2"

# --- preflight run: a warning of the run ---------------------------------------------------------
cat > "$TMP/t.ini" <<'INI'
[scenario]
name = t0235
[flightapp]
trace = off
[phase app]
duration = 2s
measure = flightapp
INI
R="$TMP/run"
run_cmd env PREFLIGHT_TEST_DMA_LATENCY="$none" "$PREFLIGHT" run "$TMP/t.ini" -o "$R" --no-report
like "$rc" '^[01]$' "dma-2.1 run of the app without the device: the phase runs (exit $rc)" ||
	printf '%s\n' "$err" | sed 's/^/#   /' | tail -5
like "$(json_get "$R/run.json" warnings)" "phase app: the app could not hold /dev/cpu_dma_latency \\(its job log: dma_latency=unavailable" \
	"dma-2.2 run.json's warnings say so"
like "$(cat "$R/report.txt" 2>/dev/null)" "the app could not hold /dev/cpu_dma_latency" "dma-2.3 ... and the summary (report.txt)"
