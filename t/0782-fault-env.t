#!/bin/sh
# 0772-fault-env.t - an environment that refuses: a tool missing from PATH, realtime priority
# refused (ulimit -r 0 as a non-root user), a second 'preflight run' started while one runs
# (refused clearly, the first one's instance untouched), a ring buffer that overflows (lost
# events reported, results flagged). Each ends with a clear one-line error or flag, and the
# leftover audit finds nothing left behind.
. "$(dirname "$0")/lib/test-lib.sh"
need TRACEFS
need RT
need USER:nobody CMD:setpriv CMD:taskset
need BUILT:flightapp BUILT:sensorsim
. "$TOP/t/lib/rec-lib.sh"
. "$TOP/t/lib/audit-lib.sh"
RUNPF="$B/preflight"	# runs find flightapp and sensorsim beside the program
plan 21

# --- a tool missing from PATH ---------------------------------------------------------------
mkdir "$TMP/bin"
for t in ip tc fio hackbench stress-ng iperf3 sh find sort xargs sha256sum; do
	p=$(command -v "$t") && ln -s "$p" "$TMP/bin/$t"
done
cat > "$TMP/ct.ini" <<'INI'
[phase idle]
duration = 1s
measure = cyclictest
INI
audit_begin
run_cmd env PATH="$TMP/bin" "$RUNPF" run "$TMP/ct.ini" -o "$TMP/run-ct" --no-report
like "$rc:$(printf '%s\n' "$err" | head -1)" "^3:preflight: run: phase idle: cyclictest: not found in PATH \\(package rt-tests\\)" \
	"env-1.1 cyclictest missing from PATH: exit 3, one line naming it and its package"
ok "env-1.2 found before the first phase: nothing created" [ ! -e "$TMP/run-ct" ]
rm "$TMP/bin/fio"
run_cmd env PATH="$TMP/bin" "$PREFLIGHT" load sd -d 1s
like "$rc:$err" "^3:preflight: load: sd: cannot start: fio: not found in PATH" "env-1.3 a load's tool missing: exit 3 naming it"
audit_end env-1.4 "nothing left behind"

# --- realtime priority refused ----------------------------------------------------------------
chmod 755 "$TMP"
mkdir -m 777 "$TMP/nobody"
# as_nobody CMD... - run as the user nobody with no realtime priority allowed (ulimit -r 0)
as_nobody() {
	setpriv --reuid nobody --regid nogroup --clear-groups sh -c 'ulimit -r 0 && exec "$@"' sh "$@"
}
run_cmd as_nobody "$B/flightapp" -q -d 1 --no-dma-latency
like "$rc:$err" "^3:flightapp: (task [a-z0-9]+|set-up): SCHED_FIFO priority [0-9]+: not permitted \\(run as root or with CAP_SYS_NICE, or use --no-rt\\)" \
	"env-2.1 flightapp refused SCHED_FIFO: exit 3, one line saying how to get it"
run_cmd as_nobody "$B/flightapp" -q -d 1 --no-dma-latency --no-rt -j "$TMP/nobody/jobs.csv"
is "$rc" 0 "env-2.2 --no-rt runs without it"
run_cmd as_nobody "$RUNPF" run "$TMP/ct.ini" -o "$TMP/nobody/run"
like "$rc:$err" "^3:preflight: run: needs root" "env-2.3 run refused its privileges: exit 3, needs root, nothing else said"

# --- a second run while one is running ---------------------------------------------------------
cat > "$TMP/two.ini" <<'INI'
[scenario]
name = t0772
[flightapp]
sim = yes
[phase app]
duration = 6s
measure = flightapp
INI
# (6 s: the second run's refusal comes while the first still records, here in well under a
# second; when a slow machine's comes after the flight, env-3.3 asks its recorder's exit 0)
audit_begin
"$RUNPF" run "$TMP/two.ini" -o "$TMP/run-1" --no-report >"$TMP/run-1.out" 2>&1 &
first=$!
audit_own "$first"
wait_for 120 grep -q "phase app: .*/preflight: pid" "$TMP/run-1/run.log"
wait_for 60 grep -q 1 "$TRACEFS/instances/preflight-run-$first/tracing_on"
run_cmd "$RUNPF" run "$TMP/two.ini" -o "$TMP/run-2" --no-report
like "$rc:$(printf '%s\n' "$err" | head -1)" "^3:preflight: run: another preflight run is running \\(pid $first, scenario .*two.ini\\): refused" \
	"env-3.1 a second run is refused: exit 3, naming the one running"
ok "env-3.2 it started nothing (no run directory)" test ! -e "$TMP/run-2"
# the first run's recording is not stopped by the refusal: its instance still records or, when
# the refusal came after its flight (25 s and more on an emulated arm64 CPU), its recorder
# still ended by itself (exit 0)
on=$(cat "$TRACEFS/instances/preflight-run-$first/tracing_on" 2>/dev/null || echo gone)
if [ "$on" != 1 ] && grep -q "phase app: the app has ended" "$TMP/run-1/run.log"; then
	wait_for 300 grep -q "phase app: .*/preflight: exit" "$TMP/run-1/run.log"
	on="ended by itself: $(sed -n 's|.*phase app: .*/preflight: \(exit .*\)|\1|p' "$TMP/run-1/run.log")"
	[ "$on" = "ended by itself: exit 0" ] && on=1
fi
is "$on" 1 "env-3.3 the first run's instance still records (or, its flight over, its recorder ended by itself)"
wait "$first"
like "$?" "^[01]$" "env-3.4 the first run completes (exit 0 or 1)"
is "$("$PREFLIGHT" record --summary "$TMP/run-1/01-app/trace.dat" | grep -c '^incomplete')" 0 \
	"env-3.5 with its whole trace"
audit_end env-3.6 "nothing left behind"

# --- the ring buffer overflows ---------------------------------------------------------------
audit_begin
rec_storm "$TMP/storm.dat"
like "$err" "WARNING: .*storm.dat IS INCOMPLETE: [1-9][0-9]* events LOST" "env-4.1 an overflowing buffer: the recorder says events were lost"
run_cmd "$PREFLIGHT" analyze -q --trace "$TMP/storm.dat" -o "$TMP/storm.json"
like "$rc:$(json_get "$TMP/storm.json" lost_events.total):$(json_get "$TMP/storm.json" lost_events.affected.0)" \
	"^0:[1-9][0-9]*:." "env-4.2 analyze counts them and flags the metrics they touch"
audit_end env-4.3 "nothing left behind"

# --- the recorder cannot set up (its instance is taken): the run stops before any load ----------
cat > "$TMP/taken.ini" <<'INI'
[scenario]
name = t0772
[flightapp]
sim = yes
[phase app]
duration = 5s
measure = flightapp
loads = cpu
INI
audit_begin
# the run's instance (preflight-run-PID) made before the run starts: the shell's pid is the run's
run_cmd sh -c 'echo $$ > "$1/taken.pid" && mkdir "$2/instances/preflight-run-$$" && exec "$3" run "$1/taken.ini" -o "$1/run-taken" --no-report' \
	sh "$TMP" "$TRACEFS" "$RUNPF"
taken=$(cat "$TMP/taken.pid")
audit_own "$taken"
like "$rc:$(printf '%s\n' "$err" | grep -v warning: | head -1)" \
	"^3:preflight: run: phase app: the recorder could not set up: exited \\(2\\) before it was ready: preflight: record: instance 'preflight-run-$taken': already exists" \
	"env-5.1 the recorder could not set up: exit 3, one line with the recorder's own reason"
is "$(grep -cE "phase app: (load cpu|sensorsim|recorder \\(pid)" "$TMP/run-taken/run.log")" 0 \
	"env-5.2 neither the load nor the simulator nor the app was started"
like "$(sed -n 3p "$TMP/run-taken/report.txt"):$(json_get "$TMP/run-taken/run.json" partial)" \
	"^why: phase app: the recorder could not set up: .*:true$" "env-5.3 the summary says why, run.json that the run is partial"
ok "env-5.4 the instance it did not make is left alone" test -d "$TRACEFS/instances/preflight-run-$taken"
rmdir "$TRACEFS/instances/preflight-run-$taken"
audit_end env-5.5 "nothing left behind"
done_testing
