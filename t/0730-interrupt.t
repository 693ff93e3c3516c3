#!/bin/sh
# 0730-interrupt.t - Ctrl-C (SIGINT to the runner) in the middle of a phase:
# everything stops and is cleaned up, what was recorded is analysed and marked
# partial; a load that cannot start (iperf3 missing from PATH) is exit 3 naming it
. "$(dirname "$0")/lib/test-lib.sh"
need TRACEFS
need RT
need BUILT:flightapp BUILT:sensorsim
plan 16

cat > "$TMP/i.ini" <<'INI'
[scenario]
name = t0730
[flightapp]
sim = yes
[load wifi]
chunk = 2s
[phase idle]
duration = 1s
measure = cyclictest
[phase app]
duration = 60s
measure = flightapp
loads = wifi spi rt-swarm
[phase never]
duration = 5s
measure = cyclictest
INI
R="$TMP/run"
"$PREFLIGHT" run "$TMP/i.ini" -o "$R" --no-report >"$TMP/run.out" 2>"$TMP/run.err" &
pid=$!
# the app flying (its job log has rows), not only its recorder started: the recorder sets up
# before the loads and starts the app after them (an emulated CPU takes seconds)
wait_for 120 sh -c '[ "$(grep -c -v "^#" "$0"/0*-app/jobs.csv 2>/dev/null)" -gt 10 ]' "$R"
pgids=$(sed -n 's/.*process group \([0-9]*\)).*/\1/p; s/.*: pid \([0-9]*\)$/\1/p' "$R/run.log")
kill -INT "$pid"
wait "$pid"
rc=$?
is "$rc" 3 "interrupt-1.1 an interrupted run exits 3"
like "$(cat "$TMP/run.err")" "interrupted by Interrupt: partial results in $R" "interrupt-1.2 and says where the partial results are"
is "$(json_get "$R/run.json" partial)" true "interrupt-1.3 run.json marks the run partial"
is "$(json_get "$R/run.json" phases.1.partial)" true "interrupt-1.4 the interrupted phase is partial"
ok "interrupt-1.5 later phases did not run" test -z "$(json_get "$R/run.json" phases.2 2>/dev/null)"
# (results.json read once: a live run's is megabytes; a path it lacks moves the later values up)
json_get "$R/results.json" partial tasks.0.jobs loads.wifi.interrupted > "$TMP/res"
is "$(sed -n 1p "$TMP/res")" true "interrupt-1.6 results.json was analysed and marked partial"
like "$(sed -n 2p "$TMP/res")" '^[1-9]' "interrupt-1.7 from the partial trace and job log"
like "$(sed -n 3p "$TMP/res")" '^(true|false)$' "interrupt-1.8 the loads' reports were kept"
left=
for g in $pgids; do
	ps -eo pgid=,stat= | awk -v g="$g" '$1 == g && $2 !~ /^Z/' | grep -q . && left="$left $g"
	ip netns list | grep -Eq "^pfw$g( |$)" && left="$left netns-pfw$g"
done
is "$left$(ls /sys/kernel/tracing/instances | grep "^preflight-run-$pid\$")" "" \
	"interrupt-1.9 no process (load, recorder, app, simulator), namespace or tracefs instance left"
like "$(grep -c PARTIAL "$R/report.txt")" '^[1-9]' "interrupt-1.10 the report says PARTIAL"

# A load that dies in the middle of a phase: the run stops (exit 3) naming it, instead of
# measuring on without it; what ran is kept and marked partial.
cat > "$TMP/d.ini" <<'INI'
[phase loaded]
duration = 60s
measure = cyclictest
loads = spi cpu
INI
R="$TMP/run-d"
"$PREFLIGHT" run "$TMP/d.ini" -o "$R" --no-report >"$TMP/d.out" 2>"$TMP/d.err" &
pid=$!
for i in $(seq 1 60); do
	grep -q "phase loaded: cyclictest: pid" "$R/run.log" 2>/dev/null && break
	sleep 0.25
done
victim=$(sed -n 's/.*load cpu: pid \([0-9]*\) .*/\1/p' "$R/run.log")
kill -KILL "$victim"
wait "$pid"
is "$?" 3 "interrupt-3.1 a load that dies mid-phase stops the run: exit 3"
like "$(cat "$TMP/d.err")" "phase loaded: load cpu stopped early" "interrupt-3.2 naming the load"
is "$(json_get "$R/run.json" phases.0.partial)" true "interrupt-3.3 the phase is marked partial"

# A load that cannot start: iperf3 missing from PATH. Every other tool stays reachable.
mkdir "$TMP/bin"
for t in cyclictest ip tc fio hackbench stress-ng sh find sort xargs sha256sum; do
	p=$(command -v "$t") && ln -s "$p" "$TMP/bin/$t"
done
cat > "$TMP/w.ini" <<'INI'
[phase loaded]
duration = 5s
measure = cyclictest
loads = spi wifi
INI
run_cmd env PATH="$TMP/bin" "$PREFLIGHT" run "$TMP/w.ini" -o "$TMP/run-w" --no-report
is "$rc" 3 "interrupt-2.1 a load that cannot start: exit 3"
like "$err" "load wifi cannot start: iperf3: not found in PATH" "interrupt-2.2 naming the load and why"
run_cmd env PATH="$TMP/bin" "$PREFLIGHT" load wifi -d 1s
like "$rc:$err" "^3:preflight: load: wifi: cannot start: iperf3: not found in PATH" \
	"interrupt-2.3 'preflight load wifi' alone: exit 3 naming iperf3"
done_testing
