#!/bin/sh
# 0530-analyze-foreign.t - traces preflight did not write: the LISA trace
# (trace-cmd v6, 6 CPUs, arm64, no wakeup events), a v7 zstd conversion of a
# trace, and the recorder's committed reference traces (stable results).
. "$(dirname "$0")/lib/test-lib.sh"
. "$(dirname "$0")/lib/analyze-lib.sh"
need BUILT:t/gentrace
plan 33

# the LISA trace lives outside the repository: shared/traces beside the
# checkout (as CI lays it), /work/shared/traces, or $LISA_TRACE
LISA=${LISA_TRACE:-$TOP/../shared/traces/lisa-sched_load.dat}
[ -r "$LISA" ] || LISA=/work/shared/traces/lisa-sched_load.dat
if ! test_have_prereq "FILE:$LISA"; then
	skip "$(seq -f 'for-1.%g' 1 13)" "$LISA not found (set LISA_TRACE)"
else
R="$TMP/lisa.json"
run_cmd "$PREFLIGHT" analyze --trace "$LISA" -o "$R" --all-threads
is "$rc" 0 "for-1.1 LISA trace analyzed"
is "$(json_get "$R" trace.events)" 3724 "for-1.2 every event"
is "$(json_get "$R" trace.cpus)" 6 "for-1.3 six CPUs"
is "$(json_get "$R" trace.file_version)" 6 "for-1.4 file version"
is "$(json_get "$R" threads.comm=sshd.wakeup_latency_ns)" null "for-1.5 no wakeup latency without wakeup events, never zeros"
is "$(json_get "$R" threads.comm=sshd.wakeup_latency_unavailable)" "no sched_waking events in the trace" "for-1.6 ... and why"
like "$out" "wakeup latency: not available" "for-1.7 the summary says so"
is "$(json_get "$R" cpus.0.hardirq_ns)" null "for-1.8 IRQ time not recorded: null"
is "$(json_get "$R" tasks)" "[]" "for-1.9 no app tasks"
is "$(json_get "$R" app)" null "for-1.10 no app"

# runtime of every thread against an independent sum over 'trace-cmd report'
# (microsecond time stamps: allow 1 us per switch)
bad=$(trace-cmd report -i "$LISA" 2>/dev/null | perl -MJSON::PP -e '
	my (%since, %cur, %rt, %sw, $last);
	while (<STDIN>) {
		next unless /\[(\d+)\]\s+([\d.]+):/;
		my ($cpu, $ts) = ($1, int($2 * 1e6 + 0.5));
		$last = $ts if !defined $last || $ts > $last;
		next unless /sched_switch:\s+.*?:(\d+) \[-?\d+\] \S+ ==> .*:(\d+) \[-?\d+\]/;
		my ($p, $n) = ($1, $2);
		if (exists $since{$cpu} && $p) { $rt{$p} += $ts - $since{$cpu}; $sw{$p}++; }
		$since{$cpu} = $ts; $cur{$cpu} = $n;
	}
	for my $c (keys %cur) { $rt{$cur{$c}} += $last - $since{$c} if $cur{$c}; }
	local $/; open my $f, "<", $ARGV[0] or die; my $d = JSON::PP->new->decode(<$f>);
	my $bad = 0;
	for my $t (@{$d->{threads}}) {
		my $exp = ($rt{$t->{pid}} // 0) * 1000;
		$bad++ if abs($exp - $t->{runtime_ns}) > 1000 * (($sw{$t->{pid}} // 0) + 2);
	}
	print scalar(@{$d->{threads}}), " threads, $bad differ";' "$R")
is "$bad" "30 threads, 0 differ" "for-2.1 runtime of every thread agrees with trace-cmd report"
is "$(json_get "$R" threads.comm=bash.preemptions)" 69 "for-2.2 preemptions (switched out runnable)"
is "$(json_get "$R" threads.comm=sshd.migrations)" 6 "for-2.3 migrations"
fi

# a v7 file with zstd-compressed sections gives the same results as its v6 original
"$GEN" basic "$TMP/b.dat"
if trace-cmd convert -i "$TMP/b.dat" -o "$TMP/b7.dat" --file-version 7 --compression any >/dev/null 2>&1; then
	"$PREFLIGHT" analyze -q --trace "$TMP/b.dat" -o "$TMP/6.json"
	"$PREFLIGHT" analyze -q --trace "$TMP/b7.dat" -o "$TMP/7.json"
	is "$(json_get "$TMP/7.json" trace.file_version)" 7 "for-3.1 v7 read"
	for k in threads cpus tasks app slots; do
		is "$(json_get "$TMP/7.json" $k)" "$(json_get "$TMP/6.json" $k)" "for-3.2 v7 compressed: same $k as v6"
	done
else
	for i in 1 2 3 4 5 6; do _report 1 "for-3.$i trace-cmd convert to v7 failed"; done
fi

# the recorder's reference trace of flightapp alone: stable expected results
R="$TMP/ref.json"
run_cmd "$PREFLIGHT" analyze --trace "$TOP/traces/ref/app-alone.dat" -o "$R"
is "$rc" 0 "for-4.1 reference trace analyzed"
is "$(json_get "$R" trace.events)" 15017 "for-4.2 events"
is "$(json_get "$R" trace.lost_events)" 0 "for-4.3 nothing lost"
is "$(json_get "$R" tasks.name=io.jobs)/$(json_get "$R" tasks.name=ctl100.jobs)/$(json_get "$R" tasks.name=nav10.jobs)/$(json_get "$R" tasks.name=mission1.jobs)" \
	300/300/30/3 "for-4.4 jobs per task (666 with ekf and telemetry)"
is "$(json_get "$R" tasks.name=io.activation_latency_ns.max)" 263954 "for-4.5 io worst activation latency"
is "$(json_get "$R" tasks.name=io.activation_latency_ns.max_id)" 134 "for-4.6 ... job 134"
is "$(json_get "$R" tasks.name=ctl100.activation_latency_ns.max)" 286038 "for-4.7 ctl100 worst activation latency"
is "$(json_get "$R" slots.count)/$(json_get "$R" slots.overruns)" 300/0 "for-4.8 slots and overruns"

# accounting invariants on real traces: every CPU's busy + idle time is its elapsed time,
# and the threads' runtimes add up to the CPUs' busy time (no time lost or counted twice)
for f in app-alone app-cpuload cyclictest-tracemark; do
	"$PREFLIGHT" analyze -q --trace "$TOP/traces/ref/$f.dat" -o "$TMP/inv.json" --all-threads
	inv=$(perl -MJSON::PP -e 'local $/; open my $f, "<", $ARGV[0] or die; my $d = decode_json(<$f>);
		my ($run, $busy, $bad) = (0, 0, 0);
		$run += $_->{runtime_ns} for @{$d->{threads}};
		for (@{$d->{cpus}}) { $busy += $_->{busy_ns}; $bad++ if $_->{busy_ns} + $_->{idle_ns} != $_->{elapsed_ns}; }
		print $bad || $run != $busy ? "cpus off: $bad, runtime $run, busy $busy" : "ok";' "$TMP/inv.json")
	is "$inv" ok "for-6 $f: busy + idle = elapsed per CPU, sum of runtimes = busy"
done

# text markers (ftrace:print) on a real recording, and cyclictest's own threads
R="$TMP/text.json"
"$PREFLIGHT" analyze -q --trace "$TOP/traces/ref/app-text-markers.dat" -o "$R"
is "$(json_get "$R" tasks.name=io.jobs)/$(json_get "$R" tasks.name=ctl100.jobs)/$(json_get "$R" tasks.name=nav10.jobs)" 100/100/10 \
	"for-5.1 text markers: jobs per task"
R="$TMP/ct.json"
"$PREFLIGHT" analyze -q --trace "$TOP/traces/ref/cyclictest-tracemark.dat" -o "$R" --threads cyclictest
is "$(json_get "$R" threads.pid=27959.rtprio)/$(json_get "$R" threads.pid=27959.policy)" 80/rt \
	"for-5.2 cyclictest -p 80 thread: FIFO 80 (its highest priority; it drops to normal at exit)"
is "$(json_get "$R" threads.pid=27959.wakeup_latency_ns.max)" 114261 \
	"for-5.3 its worst kernel wakeup latency, at cyclictest's 139 us hit"
done_testing
