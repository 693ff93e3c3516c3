#!/bin/sh
# 0510-analyze-lost.t - lost events: the 'lost' synthetic trace has a page of
# CPU 1 flagged with 5 missed events (just before ctl100's job 3 ends) and
# per-CPU statistics reporting 2 dropped events on CPU 0. Both are counted,
# the window is located, and the metrics it touches are flagged.
. "$(dirname "$0")/lib/test-lib.sh"
. "$(dirname "$0")/lib/analyze-lib.sh"
need BUILT:t/gentrace
plan 12

"$GEN" lost "$TMP/l.dat" "$TMP/l.csv"
run_cmd "$PREFLIGHT" analyze --trace "$TMP/l.dat" --joblog "$TMP/l.csv" -o "$TMP/r.json"
R="$TMP/r.json"
is "$rc" 0 "lost-1.1 analyze exits 0"
is "$(json_get "$R" trace.lost_events)" 7 "lost-1.2 missed_events and CPU statistics counted"
is "$(json_get "$R" trace.lost_by_cpu)" "[2,5]" "lost-1.3 per CPU"
is "$(json_get "$R" lost_events.windows.0.cpu)" 1 "lost-1.4 the window's CPU"
is "$(json_get "$R" lost_events.windows.0.start_ns)" 1000030152000 "lost-1.5 window starts at CPU 1's previous event (job 3 start)"
is "$(json_get "$R" lost_events.windows.0.end_ns)" 1000032152000 "lost-1.6 window ends at the first event after the loss"
is "$(json_get "$R" lost_events.windows.0.events)" 5 "lost-1.7 count stored in the page"
is "$(json_get "$R" tasks.name=ctl100.lost_events_jobs)" 1 "lost-2.1 ctl100 job 3 is flagged"
is "$(json_get "$R" tasks.name=io.lost_events_jobs)" 1 "lost-2.2 io job 3 overlaps the window too"
is "$(json_get "$R" cpus.0.lost_events)" 2 "lost-2.3 CPU 0 flagged from its statistics"
like "$(json_get "$R" lost_events.affected)" 'tasks\.ctl100.*app\.utilisation' "lost-2.4 affected metrics listed"
like "$out" 'LOST 7 events' "lost-2.5 the summary says so"
done_testing
