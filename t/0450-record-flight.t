#!/bin/sh
# 0450-record-flight.t - the flight recorder: a trigger marker (in the instance, or written to
# the top-level trace_marker like cyclictest --tracemark) or SIGUSR1 saves a snapshot holding
# the trigger and the events before it; recording re-arms up to --max-snapshots
. "$(dirname "$0")/lib/test-lib.sh"
need TRACEFS
. "$TOP/t/lib/rec-lib.sh"
plan 16

# the command: markers "tick N" every 0.2 s, then "BOOM", then more, then a top-level marker
cmd='m="$PREFLIGHT_TRACE_DIR/trace_marker"
for i in 1 2 3; do sleep 0.2; echo "tick $i" > "$m"; done
echo "BOOM one" > "$m"; sleep 0.4
echo "tick 4" > "$m"; sleep 0.2
echo "hit latency threshold (99 > 10)" > "$TRACEFS_TOP/trace_marker"; sleep 0.3'
export TRACEFS_TOP="$TRACEFS"
run_cmd "$PREFLIGHT" record -F --instance $PFT-fl -o "$TMP/fl.dat" -b 8192 --window 5s --trigger BOOM -- sh -c "$cmd"
is "$rc" 0 "rec-fl-1.1 flight recorder run exits 0" || echo "$err" | sed "s|^|#   |"
like "$err" "1 snapshot saved" "rec-fl-1.2 one snapshot for the one BOOM marker"
ok "rec-fl-1.3 the snapshot is readable" trace-cmd report -i "$TMP/fl-001.dat"
rep=$(trace-cmd report -i "$TMP/fl-001.dat" 2>/dev/null)
like "$(echo "$rep" | grep -c 'BOOM one')" "^1$" "rec-fl-1.4 the snapshot holds the trigger marker"
like "$(echo "$rep" | grep -o 'tick [0-9]' | tr '\n' ' ')" "^tick 1 tick 2 tick 3 $" \
	"rec-fl-1.5 ... and the markers before it, none after"
before=$(echo "$rep" | awk '/BOOM one/ { exit } /sched_switch/ { n++ } END { print n + 0 }')
like "$before" "^[1-9]" "rec-fl-1.6 ... and kernel events before it ($before sched_switch)"
is "$(rec_summary "$TMP/fl-001.dat" lost)" "0" "rec-fl-1.7 a window's overwritten past is not counted as lost"

# default trigger: cyclictest's text, written to the top-level trace_marker; max 1 snapshot.
# It reaches the instance through options/copy_trace_marker, which older kernels lack (the
# Debian RT kernel, 6.1): the top-level marker then cannot trigger, and the recorder says so
mkdir "$TRACEFS/instances/$PFT-cp" && copy=$(test -e "$TRACEFS/instances/$PFT-cp/options/copy_trace_marker" && echo 1)
rmdir "$TRACEFS/instances/$PFT-cp"
run_cmd "$PREFLIGHT" record -F --instance $PFT-fl -o "$TMP/ct.dat" -b 1024 --max-snapshots 1 -- sh -c "$cmd; sleep 5"
if [ -n "$copy" ]; then
	like "$(trace-cmd report -i "$TMP/ct-001.dat" 2>/dev/null | grep -c 'hit latency threshold')" "^1$" \
		"rec-fl-2.1 a top-level cyclictest --tracemark marker triggers a snapshot"
	like "$err" "1 snapshot saved" "rec-fl-2.2 --max-snapshots 1 ends the run after the first"
	is "$(ls "$TMP" | grep -c '^ct-')" "1" "rec-fl-2.3 no second snapshot file"
else
	like "$err" "note: this kernel has no options/copy_trace_marker: markers written to the top-level" \
		"rec-fl-2.1 without copy_trace_marker (this kernel) a top-level marker cannot trigger, and a note says so"
	like "$rc:$(echo "$err" | tail -1)" "^0:.*0 snapshots saved" "rec-fl-2.2 ... so the run ends with its command, no snapshot"
	is "$(ls "$TMP" | grep -c '^ct-')" "0" "rec-fl-2.3 no snapshot file"
fi

# SIGUSR1, sent once the recorded command has run 20 short sleeps (scheduler events in the
# buffer) and said so; SIGINT once the snapshot is written
"$PREFLIGHT" record -F --instance $PFT-fl -o "$TMP/usr.dat" -b 1024 -e sched -- \
	sh -c 'for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do sleep 0.01; done; touch "$1"; sleep 60' \
	- "$TMP/usr.ready" >"$TMP/usr.out" 2>&1 &
pid=$!
wait_for 60 test -e "$TMP/usr.ready"
kill -USR1 $pid
wait_for 60 grep -q "wrote $TMP/usr-001.dat" "$TMP/usr.out"
kill -INT $pid; wait $pid
like "$(trace-cmd report -i "$TMP/usr-001.dat" 2>/dev/null | grep -c 'preflight-snapshot SIGUSR1')" "^1$" \
	"rec-fl-3.1 SIGUSR1 saves a snapshot ending in its own marker"
like "$(rec_summary "$TMP/usr-001.dat" events)" "^[1-9][0-9]+$" "rec-fl-3.2 ... with the events before it"
# the app's own trigger: flightapp writes "flightapp deadline miss: ..." when a job misses its deadline
if test_have_prereq BUILT:flightapp; then
	printf '[app]\ndma_latency = false\n[task mission1]\ndeadline = 1ms\nwork = 2ms\n' > "$TMP/miss.ini"
	run_cmd "$PREFLIGHT" record -F --instance $PFT-fl -o "$TMP/app.dat" -b 1024 --max-snapshots 1 \
		--trigger "flightapp deadline miss" -- "$B/flightapp" --no-rt -q -d 3 --config "$TMP/miss.ini" \
		--trace-instance $PFT-fl
	rep=$(trace-cmd report -i "$TMP/app-001.dat" 2>/dev/null)
	like "$rc:$(echo "$err" | tail -1)" "^0:.*1 snapshot saved" "rec-fl-5.1 an app deadline miss triggers a snapshot"
	# (mission1's first job misses by design; on an emulated CPU another task may miss first)
	like "$(echo "$rep" | grep -cE 'flightapp deadline miss: task [0-9]+ seq [0-9]+ ')" "^1$" \
		"rec-fl-5.2 ... holding the app's miss marker (the first miss: mission1's first job, by design)"
	like "$(echo "$rep" | awk '/flightapp deadline miss/ { exit } /raw_data/ { n++ } END { print n + 0 }')" "^[1-9]" \
		"rec-fl-5.3 ... and the app's job markers before it"
else
	skip "rec-fl-5.1 rec-fl-5.2 rec-fl-5.3"
fi
is "$(rec_instances)" "" "rec-fl-4.1 no instance left behind"
done_testing
