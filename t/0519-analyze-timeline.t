#!/bin/sh
# 0516-analyze-timeline.t - the per-CPU timeline results.json keeps around each
# worst activation (tasks[].culprits[].timeline, docs/results.md), on the
# synthetic 'basic' trace whose every segment is known by construction
# (t/tools/gentrace.c): ±2 slots, every CPU, IRQs and softirqs, the victim's
# runnable spans and releases; bounded by --top; absent without a trace; on
# the storm, a window of thousands of segments cut to the first 1000 in order.
. "$(dirname "$0")/lib/test-lib.sh"
. "$(dirname "$0")/lib/analyze-lib.sh"
need BUILT:t/gentrace
plan 19

"$GEN" basic "$TMP/b.dat" "$TMP/b.csv"
run_cmd "$PREFLIGHT" analyze -q --trace "$TMP/b.dat" --joblog "$TMP/b.csv" -o "$TMP/r.json" --top 5
is "$rc" 0 "tl-1.1 analyze exits 0"
R="$TMP/r.json"
# ctl100's job 6: released r = T0 + 60 ms, woken r+6 µs, ksoftirqd/1 r+2..r+110 on CPU 1 with
# NET_RX r+3..r+103 and IRQ 24 r+20..r+40 inside it, started r+112
C=tasks.name=ctl100.culprits.seq=6.timeline
is "$(json_get "$R" $C.from_ns) $(json_get "$R" $C.to_ns)" "1000040000000 1000080112000" \
	"tl-1.2 the window: 2 slots before the release to 2 slots after the start"
is "$(json_get "$R" $C.complete) $(json_get "$R" $C.dropped) $(json_get "$R" $C.victim_pid) $(json_get "$R" $C.columns)" \
	'true 0 100 ["cpu","start_ns","end_ns","pid","comm","state","id"]' \
	"tl-1.3 complete, nothing dropped, the victim's pid, the columns of a segment"
is "$(json_get "$R" $C.releases_ns)" \
	"[1000040000000,1000050000000,1000060000000,1000070000000,1000080000000]" \
	"tl-1.4 the victim's releases in the window (the last one's job still running at its end)"
is "$(json_get "$R" $C.segments.*.0)" "0 0 0 0 0 0 1 1 1 1 1 1 1 1 0 1 1 1" \
	"tl-1.5 every CPU's segments, by CPU, then the victim's runnable spans"
is "$(json_get "$R" $C.segments.*.5)" \
	"running running running running running running running running softirq irq running running running runnable runnable runnable runnable runnable" \
	"tl-1.6 states: running, softirq, irq (idle is a gap), runnable"
is "$(json_get "$R" $C.segments.*.3)" \
	"101 101 100 101 101 101 100 300 null null 100 100 100 100 100 100 100 100" \
	"tl-1.7 pids (none for IRQ and softirq time)"
is "$(json_get "$R" $C.segments.7.4) | $(json_get "$R" $C.segments.8.4) | $(json_get "$R" $C.segments.9.4)" \
	"ksoftirqd/1 | softirq NET_RX | irq 24 (virtio0-input)" "tl-1.8 names of the culprits"
is "$(json_get "$R" $C.segments.7.1) $(json_get "$R" $C.segments.7.2)" "1000060002000 1000060110000" \
	"tl-1.9 ksoftirqd/1 ran r+2 .. r+110"
is "$(json_get "$R" $C.segments.8.1) $(json_get "$R" $C.segments.8.2) $(json_get "$R" $C.segments.8.6)" \
	"1000060003000 1000060103000 3" "tl-1.10 NET_RX r+3 .. r+103"
is "$(json_get "$R" $C.segments.9.1) $(json_get "$R" $C.segments.9.2) $(json_get "$R" $C.segments.9.6)" \
	"1000060020000 1000060040000 24" "tl-1.11 IRQ 24 r+20 .. r+40"
is "$(json_get "$R" $C.segments.15.1) $(json_get "$R" $C.segments.15.2) $(json_get "$R" $C.segments.15.0)" \
	"1000060006000 1000060110000 1" "tl-1.12 the victim runnable from its sched_waking to its switch-in, on CPU 1"
is "$(json_get "$R" $C.segments.5.2) $(json_get "$R" $C.segments.12.2)" "1000080112000 1000080112000" \
	"tl-1.13 segments cut at the window's end"
# job 3: hog (FIFO 95) held CPU 1 from r-50 to r+150
C3=tasks.name=ctl100.culprits.seq=3.timeline
is "$(json_get "$R" $C3.segments.7.4) $(json_get "$R" $C3.segments.7.1) $(json_get "$R" $C3.segments.7.2)" \
	"hog 1000029950000 1000030150000" "tl-1.14 the culprit of job 3 on CPU 1"

run_cmd "$PREFLIGHT" analyze -q --trace "$TMP/b.dat" --joblog "$TMP/b.csv" -o "$TMP/r1.json" --top 1
is "$(json_get "$TMP/r1.json" tasks.name=ctl100.culprits.*.seq) $(json_get "$TMP/r1.json" tasks.name=ctl100.culprits.0.timeline.from_ns)" \
	"9 1000070000000" "tl-2.1 --top 1: one timeline per task, the worst's"
is "$(json_get "$R" tasks.name=ctl100.culprits.seq=9.timeline.segments.*.4)" \
	"$(json_get "$TMP/r1.json" tasks.name=ctl100.culprits.seq=9.timeline.segments.*.4)" \
	"tl-2.2 the same timeline whatever else was a candidate meanwhile"
run_cmd "$PREFLIGHT" analyze -q --joblog "$TMP/b.csv" -o "$TMP/j.json"
is "$(json_get "$TMP/j.json" tasks.name=ctl100.culprits)" "[]" "tl-3.1 the job log alone: no culprits, no timeline"

# the storm: a window holds thousands of segments; a timeline keeps 1000 of them (and the
# victim's runnable spans), dropped counts the rest, and what is kept is in CPU, then start order
"$GEN" storm "$TMP/s.dat" 1000000 > /dev/null
run_cmd "$PREFLIGHT" analyze -q --trace "$TMP/s.dat" -o "$TMP/s.json"
C=tasks.name=task0.culprits.0.timeline
states=$(json_get "$TMP/s.json" "$C.segments.*.5" | tr ' ' '\n')
kept=$(printf '%s\n' "$states" | grep -cv '^runnable$')
is "$rc $(json_get "$TMP/s.json" $C.dropped | awk '{print ($1 > 0)}') $kept" "0 1 1000" \
	"tl-4.1 a full window: some segments dropped, 1000 kept besides the victim's runnable spans"
json_get "$TMP/s.json" "$C.segments.*.0" | tr ' ' '\n' > "$TMP/cpu"
json_get "$TMP/s.json" "$C.segments.*.1" | tr ' ' '\n' > "$TMP/start"
printf '%s\n' "$states" > "$TMP/state"
order=$(paste -d ' ' "$TMP/cpu" "$TMP/start" "$TMP/state" |
	awk '$3 != "runnable" { if (n++ && ($1 < c || ($1 == c && $2 < s))) bad++; c = $1; s = $2 } END { print n, bad + 0 }')
is "$order" "1000 0" "tl-4.2 the kept segments by CPU, then start"
