#!/bin/sh
# 0518-analyze-snapshots.t - a phase recorded by the flight recorder: the job
# log gives the figures, the snapshots (trace-NNN.dat) the culprits of the
# worst activations they hold. Synthetic windows of gentrace's 'basic' trace
# (answers known by construction): one holds ctl100's job 3 (the hog, 150 us),
# a second overlaps it (not counted twice), a third begins after job 5's
# release (too short: unexplained, not a wrong culprit); the rest say why no
# snapshot holds them, and the summary is never silent about it.
. "$(dirname "$0")/lib/test-lib.sh"
need BUILT:preflight BUILT:t/gentrace
plan 12

D=$TMP/phase
mkdir -p "$D"
"$B/t/gentrace" window "$D/trace-001.dat" 29000 32000 "$D/jobs.csv" >/dev/null &&
"$B/t/gentrace" window "$D/trace-002.dat" 29500 31000 >/dev/null &&
"$B/t/gentrace" window "$D/trace-003.dat" 50500 52000 >/dev/null || skip_all "gentrace window failed"
printf '{"scenario": "t", "phases": [{"name": "flight", "trace": "flight", "trigger_ns": 500000, "max_snapshots": 1000}]}\n' \
	> "$TMP/facts.json"
run_cmd "$PREFLIGHT" analyze "$D" -o "$TMP/r.json" -q --run "$TMP/facts.json"
is "$rc" 0 "snap-1.1 a phase directory with snapshots and no trace.dat is analysed"
R=$TMP/r.json
is "$(json_get "$R" trace.mode 'trace.snapshots.*.file')" "flight-recorder snapshots
trace-001.dat trace-002.dat trace-003.dat" "snap-1.2 trace lists every snapshot"
is "$(json_get "$R" tasks.name=ctl100.jobs tasks.name=ctl100.activation_latency_ns.max)" "11
2014000" "snap-1.3 the figures are the job log's, over the whole run"

# ctl100's worst five by the job log: 9 (2014 us), 5 (1018), 3 (153), 6 (113), then a 13 us one
is "$(json_get "$R" 'tasks.name=ctl100.culprits.*.seq' 'tasks.name=ctl100.culprits.*.snapshot')" "3
trace-001.dat" "snap-2.1 job 3 is explained, by the first snapshot that holds it"
like "$(json_get "$R" tasks.name=ctl100.culprits.0.summary)" "ctl100 job 3.* 15[23] µs late .*hog.* 150 µs" \
	"snap-2.2 ... with the right culprit: the hog, 150 us"
is "$(json_get "$R" trace.snapshots.0.explained trace.snapshots.1.explained trace.snapshots.1.explained_again)" "2
0
2" "snap-2.3 the overlapping snapshot explains nothing twice (explained_again)"
is "$(json_get "$R" 'tasks.name=ctl100.unexplained.*.seq')" "9 5 6 0" "snap-3.1 the other worst activations are listed as unexplained"
like "$(json_get "$R" 'tasks.name=ctl100.unexplained.seq=5.why')" "^window too short: trace-003.dat begins .* after the release$" \
	"snap-3.2 a snapshot that begins after the release does not explain it: too short, said so"
is "$(json_get "$R" 'tasks.name=ctl100.unexplained.seq=5.capture_with')" "a longer window (preflight record --window)" \
	"snap-3.3 ... and what would capture it"
if [ "$(json_get "$R" trace.trigger_ns)" = 500000 ]; then
	like "$(json_get "$R" 'tasks.name=ctl100.unexplained.seq=6.why')" "not above the trigger \(500 µs\)" \
		"snap-3.4 below the run's trigger: no snapshot was asked for"
else
	ok "snap-3.4 (the run's facts were not read)" false
fi
is "$(json_get "$R" tasks.name=ctl100.culprit_coverage.worst tasks.name=ctl100.culprit_coverage.explained)" "5
1" "snap-3.5 culprit_coverage counts them"

# the summary names the culprits and the coverage: never an empty section after snapshots
mkdir -p "$TMP/run/03-flight"
cp "$R" "$TMP/run/results.json"
printf '{"schema": "preflight-run/1", "scenario": {"name": "t"}, "phases": []}\n' > "$TMP/run/run.json"
"$PREFLIGHT" summary "$TMP/run" > "$TMP/sum.txt" 2>/dev/null
like "$(sed -n '/^worst culprits/,/^$/p' "$TMP/sum.txt")" "ctl100 job 3.*hog.*
.*3 flight-recorder snapshots
.*ctl100: 1 of its 5 worst activations explained; e.g. job 9: .*capture with" \
	"snap-4.1 the summary's worst culprits name the explained ones and say how many are not, and why"
done_testing
