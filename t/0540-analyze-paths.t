#!/bin/sh
# 0540-analyze-paths.t - the other ways in and out: the job log alone, the
# markers alone, a run directory, --threads, --slot-ms, --csv tables, -o -.
. "$(dirname "$0")/lib/test-lib.sh"
. "$(dirname "$0")/lib/analyze-lib.sh"
need BUILT:t/gentrace
plan 41

"$GEN" basic "$TMP/b.dat" "$TMP/b.csv"

# job log alone: the app-level metrics, marked as such
R="$TMP/jl.json"
run_cmd "$PREFLIGHT" analyze --joblog "$TMP/b.csv" -o "$R"
is "$rc" 0 "path-1.1 job log alone"
is "$(json_get "$R" trace)" null "path-1.2 no trace member"
is "$(json_get "$R" tasks.name=ctl100.source)" joblog "path-1.3 source: joblog"
is "$(json_get "$R" tasks.name=ctl100.jobs)" 11 "path-1.4 jobs"
is "$(json_get "$R" tasks.name=ctl100.activation_latency_ns.max)" 2014000 "path-1.5 latency from the job log (start + 1 us)"
is "$(json_get "$R" tasks.name=ctl100.overruns)/$(json_get "$R" tasks.name=ctl100.deadline_misses)" 1/1 "path-1.6 overrun and deadline miss from the flags"
is "$(json_get "$R" tasks.name=ctl100.missed_activations)" 1 "path-1.7 missed activations from the job log"
is "$(json_get "$R" tasks.name=ctl100.exec_time_ns)" null "path-1.8 no trace execution time"
is "$(json_get "$R" tasks.name=ctl100.cpu_time_ns.max)" 12000000 "path-1.9 job-log CPU time"
is "$(json_get "$R" app.source)" joblog "path-1.10 app utilisation from the job log"
is "$(json_get "$R" slots.overruns)/$(json_get "$R" slots.count)" 1/12 "path-1.11 slots and overruns from the job log"
is "$(json_get "$R" tasks.name=ctl100.period_ns)/$(json_get "$R" tasks.name=ctl100.policy)" 10000000/fifo "path-1.12 declaration from the job log's metadata"
is "$(json_get "$R" app.utilisation)" 0.366666667 "path-1.14 app utilisation: job CPU time over start_mono_ns..end_mono_ns (44 ms / 120 ms)"
grep -v '^# task\.' "$TMP/b.csv" > "$TMP/nodecl.csv"
"$PREFLIGHT" analyze -q --joblog "$TMP/nodecl.csv" -o "$TMP/nd.json"
is "$(json_get "$TMP/nd.json" tasks.name=ctl100.period_ns)/$(json_get "$TMP/nd.json" tasks.name=ctl100.policy)" 10000000/null \
	"path-1.15 undeclared: the period from the release gaps"
sed 's/policy=fifo/policy=other/' "$TMP/b.csv" > "$TMP/nort.csv"
"$PREFLIGHT" analyze -q --joblog "$TMP/nort.csv" -o "$TMP/nr.json"
is "$(json_get "$TMP/nr.json" app.no_rt)/$(json_get "$TMP/nr.json" app.utilisation)" true/0.366666667 \
	"path-1.16 a run without realtime: every non-background task counts, and says so"
like "$out" "ctl100 +joblog +11" "path-1.13 summary"

# markers alone: no job log
R="$TMP/tr.json"
run_cmd "$PREFLIGHT" analyze --trace "$TMP/b.dat" -o "$R"
is "$(json_get "$R" tasks.name=ctl100.source)" trace "path-2.1 source: trace"
is "$(json_get "$R" tasks.name=ctl100.joblog)/$(json_get "$R" tasks.name=ctl100.cpu_time_ns)" null/null "path-2.2 no job-log members"
is "$(json_get "$R" tasks.name=ctl100.activation_latency_ns.max)" 2013000 "path-2.3 latency from the markers"

# a trace of the markers only (no scheduler events): latencies yes, runtime not available
"$GEN" markers "$TMP/m.dat"
R="$TMP/m.json"
run_cmd "$PREFLIGHT" analyze --trace "$TMP/m.dat" -o "$R"
is "$(json_get "$R" tasks.name=ctl100.activation_latency_ns.max)/$(json_get "$R" tasks.name=ctl100.overruns)" 2013000/1 \
	"path-2.4 markers alone: latency and overruns"
is "$(json_get "$R" tasks.name=ctl100.exec_time_ns)/$(json_get "$R" threads.pid=$(json_get "$R" tasks.name=ctl100.tid).runtime_ns)/$(json_get "$R" app.utilisation)" \
	null/null/null "path-2.5 ... execution time, runtime and utilisation not available, never 0"
like "$out" "not available \(no sched_switch events\)" "path-2.6 ... and the summary says so"

# a trace without the app's markers (any kernel trace) beside a job log: the app from the job log
"$GEN" basic "$TMP/k.dat"
perl -e 'open my $f, "+<", $ARGV[0] or die; binmode $f; local $/; my $d = <$f>;
	$d =~ s/pf1 ([TSE]) /xx1 $1 /g; $d =~ s/\x31\x4d\x46\x50/\x00\x00\x00\x00/g; seek $f, 0, 0; print $f $d;' "$TMP/k.dat"
R="$TMP/k.json"
"$PREFLIGHT" analyze -q --trace "$TMP/k.dat" --joblog "$TMP/b.csv" -o "$R"
is "$(json_get "$R" trace.events_seen.markers)/$(json_get "$R" app.source)/$(json_get "$R" app.utilisation)" 0/joblog/0.366666667 \
	"path-2.7 no markers in the trace: the app's utilisation from the job log"

# overruns and deadline misses by the times of a row, as of a trace's job (e_k > r_k + T, e_k - r_k > D), or by its
# flags: the app flags an overrun only when a release reached the task while it ran, so a job of a task released
# by another (ctl100 by io) whose releaser was late ends after its next release unflagged (t/fixtures/report-run:
# ctl100 244 flagged of 434 late in the job log, 439 in the trace)
sed 's/^\(ctl100,8,.*\),3,0$/\1,2,0/' "$TMP/b.csv" > "$TMP/late.csv"
sed 's/^\(ctl100,8,.*\),3,0$/\1,0,0/' "$TMP/b.csv" > "$TMP/noflag.csv"
"$PREFLIGHT" analyze -q --joblog "$TMP/late.csv" -o "$TMP/late.json"
"$PREFLIGHT" analyze -q --joblog "$TMP/noflag.csv" -o "$TMP/noflag.json"
is "$(json_get "$TMP/late.json" tasks.name=ctl100.overruns)/$(json_get "$TMP/late.json" tasks.name=ctl100.deadline_misses)/$(json_get "$TMP/noflag.json" tasks.name=ctl100.overruns)/$(json_get "$TMP/noflag.json" tasks.name=ctl100.deadline_misses)" \
	1/1/1/1 "path-1.17 job log alone: job 8 ended 2 ms after its next release, without the overrun flag (or any flag): an overrun and a deadline miss"
"$PREFLIGHT" analyze -q --trace "$TMP/b.dat" --joblog "$TMP/late.csv" -o "$TMP/late2.json"
is "$(json_get "$TMP/late2.json" tasks.name=ctl100.overruns)/$(json_get "$TMP/late2.json" tasks.name=ctl100.joblog.overruns)/$(json_get "$TMP/late2.json" tasks.name=ctl100.joblog.deadline_misses)" \
	1/1/1 "path-1.18 beside the trace: the job log's own view counts it by the trace's rule (1 overrun, 1 miss)"

# the app's windows from a job log whose rows come task by task, the logger's lag apart (t/fixtures/report-run's
# 707 ms gave a slot window of 713 %, seven CPUs of two): io 1 ms and ctl100 2 ms of each 10 ms slot for 1 s,
# ctl100's rows after all of io's. Each slot holds 3 ms, each second 300 ms
{
	sed -n '/^#/p; /^task,/p' "$TMP/b.csv" | grep -v '^# end_mono\|^# missed_after\|^# dropped'
	for k in $(seq 0 99); do r=$((1000000000000 + k * 10000000)); echo "io,$k,$r,$((r + 12000)),$((r + 1012000)),1000000,0,0,0"; done
	for k in $(seq 0 99); do r=$((1000000000000 + k * 10000000)); echo "ctl100,$k,$r,$((r + 2000000)),$((r + 4000000)),2000000,1,0,0"; done
	echo "# end_mono_ns=1001000000000"
} > "$TMP/lag.csv"
"$PREFLIGHT" analyze -q --joblog "$TMP/lag.csv" -o "$TMP/lag.json"
is "$(json_get "$TMP/lag.json" app.utilisation_max_slot)/$(json_get "$TMP/lag.json" app.utilisation_max_1s)/$(json_get "$TMP/lag.json" app.utilisation)" \
	0.3/0.3/0.3 "path-1.19 job log whose rows come 1 s apart task by task: the worst slot 30 % (3 ms of 10), not the late rows piled on one slot"

# a run directory: trace.dat, jobs.csv, results.json there
mkdir "$TMP/run"
cp "$TMP/b.dat" "$TMP/run/trace.dat"
cp "$TMP/b.csv" "$TMP/run/jobs.csv"
run_cmd "$PREFLIGHT" analyze -q "$TMP/run"
is "$rc" 0 "path-3.1 run directory"
is "$(json_get "$TMP/run/results.json" tasks.name=ctl100.source)" trace+joblog "path-3.2 results.json written there, both inputs found"

# --threads: comm globs and pids
run_cmd "$PREFLIGHT" analyze -q --trace "$TMP/b.dat" --threads 'ctl*,200' -o "$R"
is "$(json_get "$R" 'threads.*.comm' | tr ' ' ,)" \
	"ctl100,hog" "path-4.1 --threads selects by comm glob and pid"

# --slot-ms: 20 ms slots have no base-rate task here
run_cmd "$PREFLIGHT" analyze -q --trace "$TMP/b.dat" --slot-ms 20 -o "$R"
is "$(json_get "$R" slots.slot_ns)/$(json_get "$R" slots.count)" 20000000/null "path-4.2 --slot-ms with no base-rate task: count not measured"

# -o to a FIFO (as to /dev/null): written in place, the FIFO stays a FIFO
mkfifo "$TMP/fifo"
cat "$TMP/fifo" > "$TMP/fifo.out" &
"$PREFLIGHT" analyze -q --trace "$TMP/b.dat" -o "$TMP/fifo"
wait
[ -p "$TMP/fifo" ] && [ "$(json_get "$TMP/fifo.out" schema)" = preflight-results/1 ]
is "$?" 0 "path-4.4 -o to a FIFO or device writes into it, never replaces it"

# -o - : JSON on stdout
run_cmd "$PREFLIGHT" analyze --trace "$TMP/b.dat" -o -
is "$(printf '%s' "$out" | json_get - schema)" \
	preflight-results/1 "path-4.3 -o - writes the JSON to stdout"

# --csv: the tables, read back with a CSV reader
run_cmd "$PREFLIGHT" analyze -q --trace "$TMP/b.dat" --joblog "$TMP/b.csv" --csv "$TMP/csv" -o "$R"
is "$(ls "$TMP/csv" | tr '\n' ' ')" "results-cpus.csv results-culprits.csv results-jobs.csv results-tasks.csv results-threads.csv " \
	"path-5.1 every table, named apart from any input (a run's jobs.csv is the job log)"
is "$(grep -c '' "$TMP/csv/results-jobs.csv")" 24 "path-5.2 results-jobs.csv: header and one row per job (12 io + 11 ctl100)"
is "$(grep '^"ctl100",8,' "$TMP/csv/results-jobs.csv" | cut -d, -f3,13,14)" "8,1,1" "path-5.3 results-jobs.csv: job 8 in slot 8, overrun, deadline miss"
is "$(sed -n 1p "$TMP/csv/results-tasks.csv" | cut -d, -f1-4)" '"name","tid","source","jobs"' "path-5.4 tasks.csv header"
is "$(grep '^"ctl100"' "$TMP/csv/results-tasks.csv" | cut -d, -f5)" '"2013000"' "path-5.5 tasks.csv: worst latency"
like "$(grep -m1 '^"ctl100"' "$TMP/csv/results-culprits.csv")" '^"ctl100","9",.*"ctl100 job 9 \(pid 100, released at 1000\.090000000 s\): 2013 µs late' "path-5.6 culprits.csv: worst first with its summary"

# --cyclictest: the baseline side by side in the same file (cyclictest_load, analysis/cyclictest.h)
run_cmd "$PREFLIGHT" analyze -q --trace "$TMP/b.dat" --cyclictest "$TOP/t/fixtures/cyclictest/us.json" -o "$R"
is "$rc/$(json_get "$R" cyclictest.schema)" 0/preflight-cyclictest/1 "path-6.1 --cyclictest imported into results.json"
echo '{bad' > "$TMP/ct.json"
run_cmd "$PREFLIGHT" analyze -q --trace "$TMP/b.dat" --cyclictest "$TMP/ct.json" -o "$R"
is "$rc" 2 "path-6.2 a malformed cyclictest file: exit 2"
like "$err" "^preflight: analyze: .*ct\.json:1: " "path-6.3 ... one line naming file and line"
done_testing
