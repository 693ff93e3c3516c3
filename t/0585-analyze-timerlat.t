#!/bin/sh
# 0585-analyze-timerlat.t - rtla as an external oracle (results.json timerlat,
# docs/results.md): a trace of an rtla timerlat run in the PREEMPT_RT guest
# (t/fixtures/rtla/README.md). preflight's per-CPU thread maximum must equal
# rtla's own summary exactly (ns, rtla -n). The worst sample of each CPU is
# decomposed by rtla's auto-analysis rule (timerlat_aa.c) over the tracer's
# osnoise events, and each is checked against `trace-cmd report` of the same
# file: the blocking thread is the one the timer interrupted (the IRQ entry's
# context), its duration that thread's first thread_noise. preflight's own
# culprit code over the same window (after_irq: IRQ entry to thread entry)
# names the same threads and agrees with the tracer's time for each within the
# error goal, 2 µs per time stamp: a thread's time is cut by its two ends and by
# the entry and exit of each interrupt in the window, which both accounts
# subtract with their own clock reads: 2 µs x (2 + 2 x interrupts). (Under TCG
# the accounts differ by 0.4 µs (CPU 0) and 2.1 µs (CPU 1) per interrupt: above
# 2 µs per interval, within 2 µs per time stamp.) On PREEMPT_RT the tracer writes no softirq_noise: a softirq stays
# in the thread it ran in, so preflight's part of a thread adds the softirqs
# run in its context (from the report).
. "$(dirname "$0")/lib/test-lib.sh"
need CMD:trace-cmd
plan 14

F="$TOP/t/fixtures/rtla"
R="$TMP/r.json"
run_cmd "$PREFLIGHT" analyze -q --trace "$F/rtla-timerlat.dat" -o "$R"
is "$rc" 0 "tlat-1.1 analyze the trace of rtla's run ($err)"

# rtla's summary: CPU, #count, |, IRQ cur min avg max, |, Thr cur min avg max
rtla_max() { awk -v c="$1" '$1 == c && $2 ~ /^#/ { print $12 }' "$F/rtla-top.txt"; }
is "$(json_get "$R" timerlat.cpus.0.thread_latency_ns.max)" "$(rtla_max 0)" "tlat-1.2 CPU 0 thread max = rtla's"
is "$(json_get "$R" timerlat.cpus.1.thread_latency_ns.max)" "$(rtla_max 1)" "tlat-1.3 CPU 1 thread max = rtla's"
is "$(json_get "$R" timerlat.thread_latency_max_ns)" "$(rtla_max 0)" "tlat-1.4 the run's worst is CPU 0's"

# cycle CPU SEQ - trace-cmd report of the CPU from its IRQ entry of cycle SEQ to its thread entry
cycle() {
	trace-cmd report -t --cpu "$1" "$F/rtla-timerlat.dat" 2>/dev/null |
		awk -v s="seq:$2" '$0 ~ "timerlat: +" s "\tcontext:0" { on = 1 } on { print }
				   $0 ~ "timerlat: +" s "\tcontext:1" { exit }'
}
# oracle PID - from the cycle on stdin: the IRQ entry's context pid, that pid's first thread_noise,
# the thread_noise of PID summed, and the softirq time run in PID's context (ns)
oracle() {
	awk -v p="$1" '
	function ts(  t) { t = $0; sub(/^.*\] +/, "", t); sub(/:.*/, "", t); return t }
	NR == 1 { n = split($1, a, "-"); ctx = a[n] }
	/thread_noise:/ { split($0, b, "thread_noise: *"); split(b[2], c, " "); q = c[1]; sub(/^.*:/, "", q)
			  d = $NF == "ns" ? $(NF - 1) : $NF
			  if (q == ctx && first == "") first = d
			  if (q == p) sum += d }
	/softirq_entry:/ { n = split($1, a, "-"); if (a[n] == p) s0 = ts() }
	/softirq_exit:/ && s0 != "" { soft += (ts() - s0) * 1e9; s0 = "" }
	END { printf "%s %s %d %.0f\n", ctx, first, sum, soft }'
}
W() { echo "timerlat.cpus.$1.worst"; }
# pf_thread CPU PID - preflight's time for PID in the worst cycle of CPU from the IRQ entry (after_irq)
pf_thread() {
	perl -MJSON::PP -e '
		my $j = decode_json(do { local $/; open my $f, "<", $ARGV[0] or die; <$f> });
		my $s = 0;
		$s += $_->{duration_ns} for grep { $_->{kind} eq "thread" && $_->{pid} == $ARGV[2] }
			@{$j->{timerlat}{cpus}[$ARGV[1]]{worst}{after_irq}{contributors}};
		print $s' "$R" "$1" "$2"
}
# per CPU: its blocking thread, its top interfering thread, their times (CPU 1: one thread, both)
ids_0=$(echo "tlat-1.5" "tlat-1.6" "tlat-1.7" "tlat-1.8")
ids_1=$(echo "tlat-1.9" "tlat-1.10" "tlat-1.11")
for cpu in 0 1; do
	eval ids=\$ids_$cpu
	seq=$(json_get "$R" "$(W $cpu).seqnum")
	cycle $cpu "$seq" > "$TMP/c$cpu"
	set -- $(json_get "$R" "$(W $cpu).osnoise.blocking_thread.pid" "$(W $cpu).osnoise.blocking_thread.duration_ns" \
		 "$(W $cpu).osnoise.thread_interference_top.pid" "$(W $cpu).osnoise.irq_interference_count")
	bpid=$1 bns=$2 tpid=$3 goal=$((2000 * (2 + 2 * $4)))
	set -- $(oracle "$bpid" < "$TMP/c$cpu")
	ok "${ids%% *} CPU $cpu cycle $seq: the blocking thread (pid $bpid, $bns ns) is the one the timer interrupted (report: pid $1, its first thread_noise $2 ns)" \
		[ "$bpid" = "$1" -a "$bns" = "$2" ]
	ids=${ids#* }
	is "$tpid" "$(json_get "$R" "$(W $cpu).after_irq.contributors.0.pid")" \
		"${ids%% *} CPU $cpu: the top interfering thread is preflight's first contributor from the IRQ entry"
	ids=${ids#* }
	for pid in $(echo $bpid $tpid | tr ' ' '\n' | uniq); do
		set -- $(oracle "$pid" < "$TMP/c$cpu")
		pf=$(pf_thread $cpu $pid)
		d=$((pf + $4 - $3)); d=${d#-}
		ok "${ids%% *} CPU $cpu pid $pid: preflight $pf ns + softirq in it $4 ns against osnoise $3 ns: $d <= $goal ns" \
			[ "$pf" -gt 0 -a "$d" -le "$goal" ]
		ids=${ids#* }
	done
done

# --- a CPU silent before the timer interrupt of the worst cycle (t/fixtures/rtla/README.md:
# armhf-silent.dat, the 1-CPU armhf guest's rtla run cut to 57.90-58.40 s): the time from the
# release to the interrupt is the silence's, as for the app's tasks and cyclictest, not bash's
# that was current (it was, before: "bash 327809 µs ... [100 % explained]")
S="$TMP/s.json"
"$PREFLIGHT" analyze -q --trace "$F/armhf-silent.dat" -o "$S" 2>/dev/null
rel=$(json_get "$S" timerlat.cpus.0.worst.release_ns)
# oracle: CPU 0's first timer interrupt at or after the release, and CPU 0's event before it
oracle=$(trace-cmd report -t -i "$F/armhf-silent.dat" 2>/dev/null | awk -v rel="$rel" '$2 == "[000]" {
	t = $3; sub(":", "", t); split(t, p, "."); ns = p[1] * 1000000000 + p[2]
	if (/irq_handler_entry:.*name=arch_timer/ && ns >= rel && !done) { printf "%.0f %.0f\n", prev, ns; done = 1 }
	prev = ns }')
is "$(json_get "$S" timerlat.cpus.0.worst.silent.cpu timerlat.cpus.0.worst.silent.from_ns timerlat.cpus.0.worst.silent.to_ns | tr '\n' ' ')" \
	"0 $oracle " "tlat-6.1 the worst cycle's silence: CPU 0 from its last event to the timer interrupt (trace-cmd report: $oracle)"
to=${oracle#* }
is "$(perl -CO -MJSON::PP -e 'local $/; my $w = decode_json(<STDIN>)->{timerlat}{cpus}[0]{worst};
	print join "|", map { "$_->{name}=$_->{duration_ns}" } grep { $_->{kind} eq "silent" } @{$w->{contributors}}' < "$S")" \
	"timer interrupt late: interrupts off or CPU not running (no event on CPU 0 for 4341.7 µs)=$((to - rel))" \
	"tlat-6.2 ... a contributor of its own, from the release to the interrupt ($((to - rel)) ns)"
is "$(json_get "$S" timerlat.cpus.0.worst.explained timerlat.cpus.0.worst.after_irq.silent | tr '\n' ' ')" "0.988680469 null " \
	"tlat-6.3 ... not explained by anyone (98.9 % explained); the part after the interrupt has no silence"
