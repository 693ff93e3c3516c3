#!/bin/sh
# 0550-analyze-live.t - traces recorded here: (1) a tracefs instance read by
# 'trace-cmd extract' with a SCHED_FIFO shell loop in it (a foreign recording
# path: trace-cmd's own file), (2) flightapp recorded by 'preflight record'
# with its job log, every job matched between trace and job log. Timing is
# not asserted (noisy VM); the trace-versus-job-log difference is printed.
. "$(dirname "$0")/lib/test-lib.sh"
. "$(dirname "$0")/lib/analyze-lib.sh"
need TRACEFS
need RT
plan 12

INST=pf-an-test-$$
trap 'if [ -d "$TRACEFS/instances/$INST" ]; then echo 0 > "$TRACEFS/instances/$INST/events/enable"; rmdir "$TRACEFS/instances/$INST"; fi; rm -rf "$TMP"' EXIT INT TERM
mkdir "$TRACEFS/instances/$INST"
# 16 MiB a CPU, not the default 1.4: the buffer overwrites its oldest pages, and a test beside this
# one that switches a few hundred thousand times a second on CPU 0 can fill it within the loop below
# (the likely cause of "6 sleep threads" in two full make checks: the first sleeps gone)
echo 16384 > "$TRACEFS/instances/$INST/buffer_size_kb"
echo 1 > "$TRACEFS/instances/$INST/events/sched/enable"
taskset -c 0 chrt -f 50 sh -c 'for i in 1 2 3 4 5 6 7 8; do sleep 0.01; done'
echo 0 > "$TRACEFS/instances/$INST/tracing_on"
ok "live-1.1 trace-cmd extract of the instance" trace-cmd extract -B "$INST" -o "$TMP/ex.dat"
run_cmd "$PREFLIGHT" analyze -q --trace "$TMP/ex.dat" -o "$TMP/ex.json" --threads sleep
is "$rc" 0 "live-1.2 analyze a trace-cmd extract file"
sleeps=$(json_get "$TMP/ex.json" threads | perl -MJSON::PP -e '
	my @t = grep { $_->{comm} eq "sleep" && ($_->{rtprio} // -1) == 50 } @{decode_json(<STDIN>)};
	my $run = grep { $_->{runtime_ns} > 0 && $_->{migrations} == 0 } @t;
	my $w = grep { $_->{wakeup_latency_ns}{count} >= 1 } @t;
	print scalar(@t) == 8 && $run == 8 && $w >= 1 ? "ok" : scalar(@t) . " sleep threads, $run ran on CPU 0 only, $w with wakeups";')
is "$sleeps" ok "live-1.3 the 8 FIFO-50 'sleep' threads: each ran, on CPU 0 only, with wakeup latencies"
is "$(json_get "$TMP/ex.json" trace.events_seen.sched_switch)" "$(trace-cmd report -i "$TMP/ex.dat" 2>/dev/null | grep -c ' sched_switch: ')" \
	"live-1.4 every sched_switch trace-cmd report shows was read"

# flightapp under preflight record, with its job log
test_have_prereq BUILT:flightapp || { skip "live-2.1 live-2.2 live-2.3 live-2.4 live-2.5 live-2.6 live-2.7 live-2.8"; done_testing; }
run_cmd "$PREFLIGHT" record -o "$TMP/app.dat" -- sh -c \
	'exec "$0" --trace-instance "$PREFLIGHT_TRACE_INSTANCE" -d 2 -q -j "$1"' "$B/flightapp" "$TMP/jobs.csv"
is "$rc" 0 "live-2.1 flightapp recorded"
R="$TMP/app.json"
run_cmd "$PREFLIGHT" analyze --trace "$TMP/app.dat" --joblog "$TMP/jobs.csv" -o "$R"
is "$rc" 0 "live-2.2 analyze the recording with the job log"
is "$(json_get "$R" tasks.name=ctl100.source)" trace+joblog "live-2.3 ctl100 from both"
# 2 s are 200 releases of ctl100: each one ran or was counted missed (the job log's count, with
# those after its last job), however late the CPU (an emulated one ran 146 of them), never lost
jobs=$(json_get "$R" tasks.name=ctl100.joblog.jobs)
missed=$(json_get "$R" tasks.name=ctl100.joblog.missed_activations)
is "$((jobs + missed)):$([ "$jobs" -gt 0 ] && echo ran)" "200:ran" \
	"live-2.4 ctl100's 200 releases in 2 s: $jobs jobs ran, $missed missed"
unmatched=$(json_get "$R" 'tasks.*.agreement.trace_only' 'tasks.*.agreement.joblog_only' | awk '{ for (i = 1; i <= NF; i++) n += $i } END { print n + 0 }')
lost=$(( $(json_get "$R" trace.lost_events) + $(json_get "$R" trace.lost_unknown) ))
if [ "$lost" = 0 ]; then
	is "$unmatched" 0 "live-2.5 every job in the trace is in the job log and back"
else
	skip live-2.5 "the recording lost $lost events under this machine's load ($unmatched jobs unmatched)"
fi
is "$(( $(json_get "$R" tasks.name=ctl100.agreement.matched) + $(json_get "$R" tasks.name=ctl100.agreement.trace_only) ))" "$jobs" \
	"live-2.6 ctl100: every trace job matched or counted trace-only"
is "$(json_get "$R" tasks.name=ekf.period_ns)/$(json_get "$R" tasks.name=ekf.policy)" 0/fifo "live-2.7 the declarations (ekf: event-triggered, FIFO)"
is "$(json_get "$R" app.source)" trace "live-2.8 app utilisation from the trace"
for t in io ctl100 nav10; do
	echo "# trace vs job log activation latency, $t: p99 $(json_get "$R" tasks.name=$t.agreement.activation_latency_diff_ns.p99) ns, max $(json_get "$R" tasks.name=$t.agreement.activation_latency_diff_ns.max) ns"
done
done_testing
