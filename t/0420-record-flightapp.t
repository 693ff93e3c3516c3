#!/bin/sh
# 0420-record-flightapp.t - a short flightapp run under preflight record: the file reads back,
# counts agree, every job's markers are there, pid -> comm covers the app's threads, and the
# app's main thread sets up at a realtime priority, leaves it before its tasks go and ends the
# run at it again
. "$(dirname "$0")/lib/test-lib.sh"
need TRACEFS
need RT
. "$TOP/t/lib/rec-lib.sh"
need BUILT:flightapp
plan 11

f="$TMP/app.dat"
run_cmd "$PREFLIGHT" record -o "$f" --instance $PFT-app -- \
	"$B/flightapp" --trace-instance $PFT-app -d 1 -q -j "$TMP/jobs.csv"
is "$rc" 0 "rec-app-1.1 record -- flightapp -d 1 exits 0"
ok "rec-app-1.2 trace-cmd report reads the file" trace-cmd report -i "$f"
is "$(rec_summary "$f" events)" "$(rec_report_count "$f")" \
	"rec-app-1.3 libtracecmd and trace-cmd report count the same events"

jobs=$(grep -cv '^#\|^task,' "$TMP/jobs.csv")
like "$jobs" "^[1-9][0-9]+$" "rec-app-2.1 the app logged jobs ($jobs)"
is "$(rec_summary "$f" markers.pfm1)" "$((2 * jobs))" "rec-app-2.2 a start and an end marker for every logged job"
decl=$(trace-cmd report -i "$f" 2>/dev/null | grep -o 'pf1 T .*')
like "$(echo "$decl" | grep -c .):$(rec_summary "$f" markers.pf1)" "^([1-9][0-9]*):\1$" \
	"rec-app-2.3 the task declarations are there, as text markers"

# every declared task thread (tid=) is named after its task in the file
sum=$("$PREFLIGHT" record --summary "$f")
bad=$(echo "$decl" | while read -r _ _ _ name tid _; do
	tid=${tid#tid=}
	echo "$sum" | grep -q "^pid $tid $(echo "$name" | cut -c1-15) " || echo "$name:$tid"
done)
is "$bad" "" "rec-app-3.1 every task thread has its task's name in the file"
is "$(rec_summary "$f" pids.unnamed)" "0" "rec-app-3.2 no pid without a comm"
is "$(rec_instances)" "" "rec-app-4.1 no instance left behind"
# the app's main thread: its set-up at the tasks' lowest realtime priority (mission1's FIFO 60,
# kernel priority 39), back to SCHED_OTHER (120) before the tasks go, at 39 again only for the
# run's end (raised by the tick's last slot: a starved main thread never ended a 1-CPU run); on
# PREEMPT_RT it may be PI-boosted anywhere (49: an IRQ thread waited for a lock it held), which
# is left out
# (the main thread is the one that wakes the new task threads; the report's first 'flightapp:'
# may be a task thread, woken before it names itself)
main=$(trace-cmd report -i "$f" 2>/dev/null | grep 'sched_wakeup_new:.*flightapp:' |
	sed -n 's/^ *[^ ]*-\([0-9]*\) *\[[0-9]*\].*/\1/p' | head -n 1)
seq=$(trace-cmd report -i "$f" 2>/dev/null | grep 'sched_switch:' | grep -o "flightapp:$main \[[0-9]*\]" |
	sed 's/.*\[\([0-9]*\)\]/\1/' | grep -x '39\|120' | tr '\n' ' ')
# its set-up at 39 shows in the threads it creates (they inherit its policy: sched_wakeup_new's
# priority) and, when it was switched out during the set-up, in its own switches
newprio=$(trace-cmd report -i "$f" 2>/dev/null | grep "flightapp-$main .*sched_wakeup_new:" |
	sed -n 's/.*sched_wakeup_new: *[^ ]* \[\([0-9]*\)\].*/\1/p' | sort -u | tr '\n' ' ')
like "$newprio:$seq" "^39 :(120 )*(39 )*(120 )+(39 )+$" \
	"rec-app-5.1 flightapp's main thread sets up at SCHED_FIFO 60, runs SCHED_OTHER, ends at FIFO 60 ($main: threads made at $newprio; $(echo "$seq" | cut -c1-60) ...)"
# the logger (SCHED_OTHER) does its last drain at the end's FIFO 60 too
lseq=$(trace-cmd report -i "$f" 2>/dev/null | grep 'sched_switch:' | grep -o "logger:[0-9]* \[[0-9]*\] [RSDZ]" |
	sed 's/.*\[\([0-9]*\)\].*/\1/' | grep -x '39\|120' | uniq | tr '\n' ' ')
like "$lseq" "^120 39 $" "rec-app-5.2 the logger drains at SCHED_OTHER, its last drain at FIFO 60 ($lseq)"
done_testing
