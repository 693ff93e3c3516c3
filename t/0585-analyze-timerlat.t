#!/bin/sh
# 0585-analyze-timerlat.t - rtla as an external oracle (results.json timerlat,
# docs/results.md): a trace of an rtla timerlat run in the PREEMPT_RT guest
# (t/fixtures/rtla/README.md). preflight's per-CPU thread maximum must equal
# rtla's own summary exactly (ns, rtla -n), and the worst sample's decomposition
# by preflight's culprit code must agree with the tracer's own osnoise account
# of that cycle (the blocking thread) within the selftest's error goal, 2 µs.
. "$(dirname "$0")/lib/test-lib.sh"
plan 8

F="$TOP/t/fixtures/rtla"
R="$TMP/r.json"
run_cmd "$PREFLIGHT" analyze -q --trace "$F/rtla-timerlat.dat" -o "$R"
is "$rc" 0 "tlat-1.1 analyze the trace of rtla's run ($err)"

# rtla's summary: CPU, #count, IRQ cur min avg max, Thr cur min avg max
rtla_max() { awk -v c="$1" '$1 == c && $2 ~ /^#/ { print $11 }' "$F/rtla-top.txt"; }
is "$(json_get "$R" timerlat.cpus.0.thread_latency_ns.max)" "$(rtla_max 0)" "tlat-1.2 CPU 0 thread max = rtla's"
is "$(json_get "$R" timerlat.cpus.1.thread_latency_ns.max)" "$(rtla_max 1)" "tlat-1.3 CPU 1 thread max = rtla's"
is "$(json_get "$R" timerlat.thread_latency_max_ns)" "$(rtla_max 0)" "tlat-1.4 the run's worst is CPU 0's"

# the worst sample of each CPU waits for the FIFO 99 busy loop: the osnoise blocking thread
# is preflight's largest contributor, the same thread, within 2 µs
for cpu in 0 1; do
	W=timerlat.cpus.$cpu.worst
	set -- $(json_get "$R" $W.osnoise.blocking_thread.pid $W.osnoise.blocking_thread.duration_ns \
		 $W.contributors.0.pid $W.contributors.0.duration_ns)
	ok "tlat-1.$((5 + cpu * 2)) CPU $cpu: the blocking thread (pid $1) is preflight's first contributor (pid $3)" [ "$1" = "$3" ]
	d=$(( $2 - $4 )); d=${d#-}
	ok "tlat-1.$((6 + cpu * 2)) CPU $cpu: its time agrees within 2 µs (osnoise $2 ns, preflight $4 ns)" [ "$d" -le 2000 ]
done
