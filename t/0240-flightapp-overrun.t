#!/bin/sh
# 0240-flightapp-overrun.t - overrun and missed-activation accounting: a task
# whose work is longer than its period, and a base tick whose own job
# overruns the slot; the counts in the statistics match the job log, every
# missed release shows in the release spacing, and no release is lost or
# silently resynced.
. "$(dirname "$0")/lib/test-lib.sh"
. "$TOP/t/lib/app-lib.sh"
plan 17

only_io='[app]
dma_latency = false
[task ctl100]
enabled = false
[task nav10]
enabled = false
[task ekf]
enabled = false
[task mission1]
enabled = false
[task telemetry]
enabled = false
'
# A: 'hog' needs 30 ms of CPU every 20 ms
printf '%s[task io]\nwork = 100us\n[task hog]\nperiod = 20ms\nwork = 30ms\npriority = 50\n' "$only_io" > "$TMP/hog.ini"
run_cmd "$FLIGHTAPP" --no-rt --quiet --duration 2 --config "$TMP/hog.ini" \
	--joblog "$TMP/hog.csv" --stats-json "$TMP/hog.json"
is "$rc" 0 "app-5.1 overrunning task: run exits 0"
app_summary "$TMP/hog.csv" 1
jobs=$(app_get jobs.hog)
missed=$(app_get missed.hog)
overruns=$(app_get overrun.hog)
ok "app-5.2 hog overran ($overruns of $jobs jobs) and missed releases ($missed)" \
	test "$overruns" -gt 0 -a "$missed" -gt 0
hj=$(json_get "$TMP/hog.json" tasks.name=hog.overruns tasks.name=hog.missed tasks.name=hog.deadline_misses | paste -sd:)
is "$hj" "$overruns:$missed:$(app_get deadline.hog)" "app-5.3 statistics (overruns:missed:deadline misses) match the job log"
is "$(app_get gap_bad.hog)" 0 "app-5.4 each release follows the previous by (missed + 1) periods"
# (a late tick skips slots too: the next job misses them without an overrun before it; on an
# emulated CPU it does, at most once per skipped slot)
is "$(app_get overrun_bad.hog):$(($(app_get miss_unflagged.hog) <= $(app_get meta.skipped_slots)))" "0:1" \
	"app-5.5 a job flagged overrun is followed by missed releases; misses without one are the tick's skipped slots"
is "$(app_get deadline_bad.hog)" 0 "app-5.6 deadline flag exactly when end - release > deadline"
# 2 s = 100 releases of a 20 ms task: each ran or was counted missed (before a job or after the last)
is "$((jobs + missed + $(app_get meta.missed_after_last.hog)))" 100 "app-5.7 jobs + missed = all 100 releases"

is "$(app_get cpu_under.hog)" 0 "app-5.8 every overrunning job still did all its work"

# B: the tick's own job takes 15 ms of a 10 ms slot: it overruns and falls behind until it skips slots
printf '%s[task io]\nwork = 15ms\n' "$only_io" > "$TMP/tick.ini"
run_cmd "$FLIGHTAPP" --no-rt --quiet --duration 1 --config "$TMP/tick.ini" \
	--joblog "$TMP/tick.csv" --stats-json "$TMP/tick.json"
is "$rc" 0 "app-5.9 overrunning tick: run exits 0"
app_summary "$TMP/tick.csv" 1
skipped=$(app_get meta.skipped_slots)
ok "app-5.10 the late tick skipped slots ($skipped) and said so" test "$skipped" -gt 0
is "$(json_get "$TMP/tick.json" .skipped_slots)" "$skipped" "app-5.11 JSON skipped slots match the job log"
is "$(($(app_get missed.io) + $(app_get meta.missed_after_last.io)))" "$skipped" \
	"app-5.12 io's missed activations (before a job or after the last) are the skipped slots"
is "$(($(app_get jobs.io) + skipped))" 100 "app-5.13 every one of the 100 slots ran or was counted skipped"
is "$(app_get gap_bad.io)" 0 "app-5.14 io releases stay on the slot grid (r = t0 + k * slot)"
ok "app-5.15 io jobs flagged overrun" test "$(app_get overrun.io)" -gt 0
is "$(json_get "$TMP/tick.json" .tasks.0.overruns)" "$(app_get overrun.io)" "app-5.16 JSON overruns match the job log"
is "$(app_get order_bad.io)" 0 "app-5.17 start >= release, end >= start"
done_testing
