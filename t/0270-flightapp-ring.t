#!/bin/sh
# 0270-flightapp-ring.t - ring overflow is counted and reported, never
# silent: rings of 64 records drained once a second lose records, and the
# job log, the final table and the statistics all say how many; rows plus
# drops account for every job.
. "$(dirname "$0")/lib/test-lib.sh"
. "$TOP/t/lib/app-lib.sh"
plan 8

printf '[app]\nring = 64\nlogger_period = 1s\ndma_latency = false\n' > "$TMP/ring.ini"
run_cmd "$FLIGHTAPP" --no-rt --duration 2.5 --config "$TMP/ring.ini" \
	--joblog "$TMP/jobs.csv" --stats-json "$TMP/stats.json"
is "$rc" 0 "app-8.1 run with tiny rings exits 0"
app_summary "$TMP/jobs.csv"
dropped=$(app_get meta.dropped.io)
ok "app-8.2 io records dropped ($dropped) and reported in the job log" test "${dropped:-0}" -gt 0
is "$(json_get "$TMP/stats.json" .tasks.0.dropped)" "$dropped" "app-8.3 statistics JSON reports the same drops"
is "$(($(app_get jobs.io) + dropped))" "$(json_get "$TMP/stats.json" .tasks.0.jobs)" \
	"app-8.4 rows + dropped = every io job"
like "$(printf '%s\n' "$out" | grep '^io ')" " $dropped +0\$" "app-8.5 final table's dropped column"
like "$out" "\($(app_get meta.rows) rows, [1-9][0-9]* dropped\)" "app-8.6 final table's summary line counts the drops"
like "$(printf '%s\n' "$err" | grep '^T:io ' | tail -1)" ' L:[1-9][0-9]* \(us\)$' "app-8.7 live status shows the drops"
is "$(json_get "$TMP/stats.json" .tasks.0.ring_high_water)" 64 "app-8.8 a ring that overflowed reached its high-water mark of 64"
done_testing
