#!/bin/sh
# 0523-analyze-thread-exit.t - a thread that exits keeps its own numbers, and
# its pid, used again by a later thread, is another thread (analysis/sched.c,
# an_on_exit and an_thread_freeze), on the 'exits' trace of
# t/tools/gentrace.c: 'shortlived' (pid 600, FIFO 50) is woken three times
# (10, 20, 30 us after its sched_waking), traces its sched_process_exit and
# leaves the CPU dead; 'reborn' (pid 600 again, FIFO 40) is woken once (50 us).
# Without the exit, the two would be one thread of four samples.
. "$(dirname "$0")/lib/test-lib.sh"
. "$(dirname "$0")/lib/analyze-lib.sh"
need BUILT:t/gentrace
plan 7

"$GEN" exits "$TMP/e.dat"
run_cmd "$PREFLIGHT" analyze -q --trace "$TMP/e.dat" -o "$TMP/e.json"
is "$rc" 0 "exit-1.1 the exits trace is analysed"
R="$TMP/e.json"
is "$(json_get "$R" threads.comm=shortlived.pid threads.comm=reborn.pid | tr '\n' ' ')" "600 600 " \
	"exit-1.2 pid 600 is two threads: the one that exited and the one that came after it"
is "$(json_get "$R" threads_listing.threads_seen)" 2 "exit-1.3 two threads seen"
l=threads.comm=shortlived.wakeup_latency_ns
is "$(json_get "$R" $l.count $l.min $l.p50 $l.max | tr '\n' ' ')" "3 10000 20000 30000 " \
	"exit-1.4 the thread that exited: its three wakeups (10, 20, 30 us), frozen at its death"
is "$(json_get "$R" threads.comm=shortlived.wakeup_latency_from_wakeup_ns.max threads.comm=shortlived.switches |
	tr '\n' ' ')" "29000 3 " "exit-1.5 ... from sched_wakeup 1 us less; its three runs"
l=threads.comm=reborn.wakeup_latency_ns
is "$(json_get "$R" $l.count $l.max threads.comm=reborn.wakeup_latency_from_wakeup_ns.max | tr '\n' ' ')" \
	"1 50000 49000 " "exit-1.6 the thread that came after: its own wakeup only"
is "$(json_get "$R" threads.comm=shortlived.prio threads.comm=reborn.prio | tr '\n' ' ')" "49 59 " \
	"exit-1.7 each with its own priority"
