#!/bin/sh
# 0260-flightapp-markers.t - the marker path (docs/markers.md): with a
# tracefs instance made here (and removed on exit, even on failure), every
# job's start and end marker is in the instance buffer with the right task,
# sequence, release and flags, in binary (default) and text form; a marker
# write that fails (tracing off) is counted, not fatal.
. "$(dirname "$0")/lib/test-lib.sh"
need TRACEFS
. "$TOP/t/lib/app-lib.sh"
plan 23

inst="preflight-app-test-$$"
dir="$TRACEFS/instances/$inst"
trap 'rmdir "$dir" 2>/dev/null; rm -rf "$TMP"' EXIT
trap 'exit 1' INT TERM
mkdir "$dir" || skip_all "cannot create tracefs instance $inst"
echo mono > "$dir/trace_clock"
rt=--no-rt
chrt -f 1 true 2>/dev/null && rt=

for form in raw text; do
	opt=
	[ "$form" = text ] && opt=--trace-text
	echo > "$dir/trace"
	run_cmd "$FLIGHTAPP" $rt --quiet --duration 1 --trace-instance "$inst" $opt \
		--joblog "$TMP/$form.csv" --stats-json "$TMP/$form.json"
	is "$rc" 0 "app-7.1 $form markers: run exits 0"
	cat "$dir/trace" > "$TMP/$form.trace"
	perl "$TOP/t/lib/app-markers.pl" "$TMP/$form.trace" "$TMP/$form.csv" > "$TMP/summary"
	is "$(app_get declared)" 7 "app-7.2 $form: one declaration per task"
	rows=$(app_get rows)
	ok "app-7.3 $form: the run had jobs ($rows)" test "$rows" -gt 50
	is "$(app_get no_start):$(app_get no_end)" "0:0" "app-7.4 $form: every job has its start and end marker"
	is "$(app_get bad_release):$(app_get bad_flags)" "0:0" "app-7.5 $form: markers carry the job's release and flags"
	is "$(app_get bad_tid):$(app_get unmatched)" "0:0" "app-7.6 $form: written by the declared thread, none extra"
	is "$(app_get start_before_release)" 0 "app-7.7 $form: no start marker before its release (trace clock mono)"
	is "$(json_get "$TMP/$form.json" .markers):$(json_get "$TMP/$form.json" .tasks.0.marker_errors)" "$form:0" \
		"app-7.8 $form: statistics name the form, no failed write"
done

# tracing off: the writes fail, are counted, and the run goes on
echo 0 > "$dir/tracing_on"
run_cmd "$FLIGHTAPP" --no-rt --quiet --duration 0.5 --trace-instance "$inst" --stats-json "$TMP/off.json"
echo 1 > "$dir/tracing_on"
is "$rc" 0 "app-7.9 tracing off: run still exits 0"
is "$(json_get "$TMP/off.json" .tasks.0.marker_errors)" \
	"$(($(json_get "$TMP/off.json" .tasks.0.jobs) * 2 + 1 + $(json_get "$TMP/off.json" .tasks.0.deadline_misses)))" \
	"app-7.10 tracing off: failed writes counted (io: its declaration, two per job, one per deadline miss)"

# a missed deadline writes a text marker the flight recorder can trigger on (docs/markers.md)
echo > "$dir/trace"
printf '[app]\ndma_latency = false\n[task ctl100]\ndeadline = 1ms\nwork = 2ms\n' > "$TMP/miss.ini"
run_cmd "$FLIGHTAPP" --no-rt --quiet --duration 0.5 --config "$TMP/miss.ini" --trace-instance "$inst" \
	--joblog "$TMP/miss.csv"
cat "$dir/trace" > "$TMP/miss.trace"
app_summary "$TMP/miss.csv"
misses=$(app_get deadline.ctl100)
ok "app-7.13 run with ctl100 missing its 1 ms deadline (rc $rc, $misses misses)" test "$rc" -eq 0 -a "${misses:-0}" -gt 0
is "$(grep -c 'flightapp deadline miss: task 1 seq [0-9]* release_ns [0-9]* response_ns [0-9]*$' "$TMP/miss.trace")" \
	"$misses" "app-7.14 one deadline-miss marker per job flagged 0x2 in the job log"
# the markers name exactly the flagged jobs (task ctl100 = id 1, seq and release of the row)
is "$(grep -o 'deadline miss: task 1 seq [0-9]* release_ns [0-9]*' "$TMP/miss.trace" | awk '{ print $6 "," $8 }' | sort)" \
	"$(awk -F, '$1 == "ctl100" && int($8 / 2) % 2 { print $2 "," $3 }' "$TMP/miss.csv" | sort)" \
	"app-7.15 each carries the seq and release of a job flagged as a deadline miss"

# the same buffer through trace-cmd: extract to .dat (this ends the instance), report
echo > "$dir/trace"
run_cmd "$FLIGHTAPP" $rt --quiet --duration 0.3 --trace-instance "$inst" --joblog "$TMP/dat.csv"
rows=$(grep -vc '^#' "$TMP/dat.csv")
run_cmd trace-cmd extract -B "$inst" -o "$TMP/markers.dat"
is "$rc" 0 "app-7.11 trace-cmd extract of the instance"
is "$(trace-cmd report "$TMP/markers.dat" 2>/dev/null | grep -cE 'raw_data: *(# 50464d31 53 |job_start )')" "$((rows - 1))" \
	"app-7.12 trace-cmd report shows one start marker per job-log row"
done_testing
