#!/bin/sh
# 0220-flightapp-run.t - a 3-second --no-rt run of the default table: job
# counts, exact release spacing, start >= release, end >= start, CPU time
# within 20 % of the configured work, the job log format, the statistics
# JSON, the live status, and --no-rt stated in every output.
. "$(dirname "$0")/lib/test-lib.sh"
. "$TOP/t/lib/app-lib.sh"
plan 38

run_cmd "$FLIGHTAPP" --no-rt --duration 3 --joblog "$TMP/jobs.csv" --stats-json "$TMP/stats.json"
is "$rc" 0 "app-3.1 3-second --no-rt run exits 0"
[ "$rc" -eq 0 ] || printf '%s\n' "$err" | sed 's/^/#   /' | head -20
app_summary "$TMP/jobs.csv" 0.2
is "$(head -1 "$TMP/jobs.csv")" "# preflight-joblog/1" "app-3.2 job log starts with its versioned header"
is "$(app_get header)" "task,seq,release_ns,start_ns,end_ns,cpu_ns,cpu,flags,missed" "app-3.3 column row"
is "$(app_get meta.slot_ns):$(app_get meta.no_rt):$(app_get meta.profile)" "10000000:1:default" \
	"app-3.4 metadata: slot, no_rt, profile"

# 3 s = 300 slots: io and ctl100 every slot, nav10 and telemetry every 10th, mission1 and ekf every
# 100th. However loaded the machine, every release either ran or was counted missed (before a
# job, or after the last one): the counts add up whatever the scheduling did.
for tj in io:300 ctl100:300 nav10:30 telemetry:30 mission1:3 ekf:3; do
	t=${tj%%:*}
	is "$(($(app_get "jobs.$t") + $(app_get "missed.$t") + $(app_get "meta.missed_after_last.$t")))" "${tj#*:}" \
		"app-3.5 $t: jobs + missed activations = ${tj#*:} releases (jobs $(app_get "jobs.$t"), missed $(app_get "missed.$t"))"
done
for t in io:10000000 ctl100:10000000 nav10:100000000 ekf:1000000000 mission1:1000000000 telemetry:100000000; do
	# whole periods apart; a release the app had to skip shows as missed, never as drift (the
	# closest two are two periods apart when a 1 s task missed one of its three, as under TCG)
	g=$(app_get "gap_min.${t%%:*}")
	is "$([ "${g:-0}" -gt 0 ] && echo $((g % ${t#*:}))):$(app_get "gap_bad.${t%%:*}")" "0:0" \
		"app-3.6 ${t%%:*}: releases whole periods apart, the skipped ones counted as missed"
done
# bad KEY... - the tasks whose summary value of KEY is not 0
bad() {
	for t in io ctl100 nav10 ekf mission1 telemetry; do
		for k in "$@"; do
			[ "$(app_get "$k.$t")" = 0 ] || printf ' %s.%s=%s' "$k" "$t" "$(app_get "$k.$t")"
		done
	done
}
is "$(bad seq_bad order_bad)" "" "app-3.7 every job: seq in order, start >= release, end >= start"
is "$(bad cpu_under)" "" "app-3.7a every job consumed at least its calibrated work in CPU time"
is "$(bad cpu_mean_ok | sed 's/ [^ ]*=1//g')" "" "app-3.7b each task's CPU time per job within 20 % of its work (mean)"
is "$(app_get nort_bad)" 0 "app-3.8 every record flagged --no-rt (0x4)"
is "$(grep -c '^# dropped\.[a-z0-9]*=0$' "$TMP/jobs.csv")" 6 "app-3.9 ring drops reported per task, none"
is "$(app_get meta.rows)" "$(grep -vc '^#' "$TMP/jobs.csv" | awk '{print $1 - 1}')" "app-3.10 every drained record is a row"

is "$(json_get "$TMP/stats.json" .schema)" "preflight-flightapp-stats/1" "app-3.11 statistics JSON schema"
is "$(json_get "$TMP/stats.json" .no_rt)" "true" "app-3.12 JSON says --no-rt"
is "$(json_get "$TMP/stats.json" .tasks.0.name):$(json_get "$TMP/stats.json" .tasks.0.jobs)" "io:$(app_get jobs.io)" \
	"app-3.13 JSON job count matches the job log"
is "$(json_get "$TMP/stats.json" .tasks.0.latency.count)" "$(app_get jobs.io)" "app-3.14 latency histogram holds every job"
like "$(json_get "$TMP/stats.json" .tasks.1.latency.p99)" '^[0-9]+$' "app-3.15 latency percentiles present"
in_bins=$(json_get "$TMP/stats.json" 'tasks.1.latency_hist.bins.*.1' | tr ' ' '+')
outliers=$(json_get "$TMP/stats.json" 'tasks.1.latency_hist.outliers.*' | wc -w)
is "$((${in_bins:-0} + outliers))" \
	"$(app_get jobs.ctl100)" "app-3.15a latency histogram bins and outliers hold every ctl100 job"
is "$(json_get "$TMP/stats.json" .tasks.1.policy)" "other" "app-3.16 JSON policy is what ran (other)"

like "$out" "--no-rt: SCHED_OTHER everywhere" "app-3.17 final table says --no-rt"
like "$(printf '%s\n' "$out" | grep '^io ')" "^io +tick +other +10\\.000 +$(app_get jobs.io) " "app-3.18 final table row of io: the job log's count"
# how many status blocks a loaded machine prints in 3 s varies: each says --no-rt and lists every task
blocks=$(printf '%s\n' "$err" | grep -c '^flightapp: t=')
ok "app-3.19 live status blocks ($blocks), each saying --no-rt" \
	test "$blocks" -ge 1 -a "$(printf '%s\n' "$err" | grep -c '^flightapp: t=.*--no-rt')" -eq "$blocks"
is "$(printf '%s\n' "$err" | grep -c '^T:')" "$((6 * blocks))" "app-3.20 one status line per task"
c=$(printf '%s\n' "$err" | grep '^T:ctl100' | tail -1 | sed -n 's/.* C: *\([0-9][0-9]*\) Min: .*/\1/p')
ok "app-3.21 status line counts jobs ($c so far, at most the $(app_get jobs.ctl100) of the run)" \
	test -n "$c" -a "${c:-0}" -ge 1 -a "${c:-0}" -le "$(app_get jobs.ctl100)"

run_cmd "$FLIGHTAPP" --no-rt --quiet --duration 0.2
# but a warning: a kernel without /dev/cpu_dma_latency (the armhf guest's) gets its one line
want=
[ -e /dev/cpu_dma_latency ] || want="flightapp: warning: /dev/cpu_dma_latency: No such file or directory: going on without it (idle states not held shallow; --require-dma-latency to refuse)"
is "$rc:$err" "0:$want" "app-3.22 --quiet: nothing on stderr but a warning"

# stdout and stderr a closed pipe (flightapp ... | head -1): the run still ends cleanly, job log complete
{ "$FLIGHTAPP" --no-rt --duration 1.2 --joblog "$TMP/pipe.csv" 2>&1; echo $? > "$TMP/pipe.rc"; } | head -1 > /dev/null
is "$(cat "$TMP/pipe.rc"):$(tail -1 "$TMP/pipe.csv" | cut -d= -f1)" "0:# dropped.telemetry" \
	"app-3.22a output into a closed pipe: exit 0, job log complete (SIGPIPE does not cut the run short)"

# SIGINT and SIGTERM stop a run cleanly, outputs flushed (signalled once its first status block is out)
for sig in INT TERM; do
	"$FLIGHTAPP" --no-rt --joblog "$TMP/sig.csv" > "$TMP/sig.out" 2> "$TMP/sig.err" &
	pid=$!
	wait_for 60 grep -q '^flightapp: t=' "$TMP/sig.err"
	kill -"$sig" "$pid"
	wait "$pid"
	is "$?:$(tail -1 "$TMP/sig.csv" | cut -d= -f1)" "0:# dropped.telemetry" "app-3.23 SIG$sig: exit 0, job log complete"
done
done_testing
