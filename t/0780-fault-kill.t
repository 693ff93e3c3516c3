#!/bin/sh
# 0770-fault-kill.t - killed at any moment, nothing is lost and nothing is left: a recorder
# killed by SIGKILL leaves pages that 'record --recover' turns into a trace marked incomplete
# (its instance stopped at once by any preflight command, never one whose recorder lives);
# 'preflight run' killed by SIGKILL at each phase boundary and in the middle of each phase
# leaves no process, instance, namespace or registry entry, and a run directory that says it
# was interrupted and analyses; each child of a run (recorder, flightapp, sensorsim, a load)
# killed by SIGKILL or SIGTERM stops the run with a clear error, its trace kept.
. "$(dirname "$0")/lib/test-lib.sh"
need TRACEFS
need RT
need BUILT:flightapp BUILT:sensorsim
. "$TOP/t/lib/rec-lib.sh"
. "$TOP/t/lib/audit-lib.sh"
RUNPF="$B/preflight"	# runs find flightapp and sensorsim beside the program
plan 72

# The audit helper itself: a leaked instance named after a pid of the test fails it.
audit_begin
sleep 30 & leak=$!
audit_own "$leak"
mkdir "$TRACEFS/instances/pf-audit-$leak"
kill "$leak"; wait "$leak" 2>/dev/null
audit_left > "$TMP/leak.out"
like "$(cat "$TMP/leak.out")" "^instance pf-audit-$leak\$" "kill-0.1 the audit finds an instance the test left"
rmdir "$TRACEFS/instances/pf-audit-$leak"
audit_end kill-0.2 "and passes once it is removed"

# --- a recorder killed by SIGKILL --------------------------------------------------------
audit_begin
mkdir "$TMP/rk"
cp "$(command -v sleep)" "$TMP/rk-sleeper"
"$PREFLIGHT" record -o "$TMP/rk/trace.dat" -b 1024 --no-kallsyms -- "$TMP/rk-sleeper" 60 \
	>"$TMP/rk.out" 2>&1 &
rec=$!
audit_own "$rec"
wait_for 60 pgrep -f "^$TMP/rk-sleeper 60" >/dev/null
wait_for 60 test -s "$TMP/rk/.preflight-record."*/session
inst=preflight-$rec
"$PREFLIGHT" record --cleanup-stale -q
"$PREFLIGHT" record --recover "$TMP/rk" 2>/dev/null
is "$(cat "$TRACEFS/instances/$inst/tracing_on")" 1 \
	"kill-1.1 an instance whose recorder lives is left recording by --cleanup-stale and --recover"
ok "kill-1.2 and its pages are left where they are" test -d "$(ls -d "$TMP/rk/.preflight-record."*)"
kill -KILL "$rec"; wait "$rec" 2>/dev/null
wait_for 60 sh -c "! pgrep -f '^$TMP/rk-sleeper'"
# (any preflight command of another test running now may already have stopped it)
is "$(test -d "$TRACEFS/instances/$inst" && echo left)/$(cat /run/preflight/record/$inst)" "left/$rec" \
	"kill-1.3 SIGKILL: the instance and its registry entry stay"
"$PREFLIGHT" help >/dev/null
is "$(cat "$TRACEFS/instances/$inst/tracing_on")" 0 "kill-1.4 any preflight command stops it at once"
run_cmd "$PREFLIGHT" record --recover "$TMP/rk"
is "$rc" 0 "kill-1.5 record --recover DIR: exit 0"
like "$err" "recovered $TMP/rk/trace.dat: [1-9][0-9]* events of the killed recorder \\(pid $rec\\), marked incomplete" \
	"kill-1.6 and says what it recovered"
like "$(rec_summary "$TMP/rk/trace.dat" events)" "^[1-9]" "kill-1.7 the trace holds the events recorded before the kill"
like "$("$PREFLIGHT" record --summary "$TMP/rk/trace.dat" | grep '^incomplete')" \
	"^incomplete recovered after the recorder \\(pid $rec\\) was killed" "kill-1.8 marked incomplete, with why"
ok "kill-1.9 trace-cmd reads it" trace-cmd report -i "$TMP/rk/trace.dat"
run_cmd "$PREFLIGHT" analyze --trace "$TMP/rk/trace.dat" -o "$TMP/rk/results.json" -q
is "$rc" 0 "kill-1.10 and preflight analyze"
audit_end kill-1.11 "nothing left: instance, registry entries, raw pages"

# --- preflight run killed by SIGKILL at each phase boundary and inside each phase --------
cat > "$TMP/k.ini" <<'INI'
[scenario]
name = t0770
[flightapp]
sim = yes
[phase idle]
duration = 1s
measure = cyclictest
loads = cpu
[phase app]
duration = 3s
measure = flightapp
loads = spi
INI
# the app phase alone, 30 s: a child is killed once the app runs, and a kill after the phase's
# last 0.5 s is no early end (a slow emulated guest took that long to see the job log begin)
sed -e '/^\[phase idle\]/,/^loads = cpu/d' -e 's/^duration = 3s$/duration = 30s/' "$TMP/k.ini" > "$TMP/c.ini"
# the same untraced, where the trace is not what is tested (an analysis of a trace takes long)
for f in k c; do sed 's/^sim = yes$/sim = yes\ntrace = off/' "$TMP/$f.ini" > "$TMP/${f}n.ini"; done

# kill_run N WHEN SIG - start a run, send SIG to the runner once run.log matches WHEN
kill_run() {
	R="$TMP/run-$1"
	ini=kn.ini
	case $2 in *preflight:*) ini=k.ini ;; esac	# the kill inside the traced app
	"$RUNPF" run "$TMP/$ini" -o "$R" --no-report >"$R.out" 2>&1 &
	pid=$!
	audit_own "$pid"
	case $2 in
	*preflight:*)
		# the moment the recorder started, before it set itself up (a few ms): looked for
		# without a pause from the line just before it, while the runner lives, for at most
		# 120 s (the clock read every 200 looks, not to slow them)
		wait_for 120 grep -q "phase app: sensorsim: pid" "$R/run.log"
		deadline=$(($(date +%s) + 120)) i=0
		until grep -Eq "$2" "$R/run.log" || ! kill -0 "$pid" 2>/dev/null; do
			i=$((i + 1))
			[ $((i % 200)) -ne 0 ] || [ "$(date +%s)" -lt "$deadline" ] || break
		done ;;
	*)
		wait_for 120 grep -Eq "$2" "$R/run.log" ;;
	esac
	kill -"$3" "$pid"
	wait "$pid"
	rc=$?
}

n=0
# (not at "phase app: end": on an idle machine the analysis after it is done before the kill lands)
for when in "phase idle: begin" "phase idle: cyclictest: pid" "phase idle: end" \
	    "phase app: sensorsim: pid" "phase app: .*/preflight: pid"; do
	n=$((n + 1))
	audit_begin
	kill_run "k$n" "$when" KILL
	is "$rc" 137 "kill-2.$n.1 run killed by SIGKILL at '$when'"
	audit_end "kill-2.$n.2" "nothing left behind (processes, instance, namespaces, registry, temp files)"
	is "$(json_get "$R/run.json" complete)/$(json_get "$R/run.json" partial)" "false/true" \
		"kill-2.$n.3 run.json says the run did not complete"
	"$PREFLIGHT" summary "$R" > "$R/summary.txt" 2>&1
	like "$(grep -E "^(preflight qualification|INTERRUPTED)" "$R/summary.txt" | tr '\n' ' ')" \
		"scenario 't0770' .*INTERRUPTED: the run did not finish: its runner pid $pid" \
		"kill-2.$n.4 the summary names the scenario and says the run was interrupted"
	if [ -e "$R/01-idle/cyclictest.json" ] || [ -e "$R/02-app/jobs.csv" ]; then
		run_cmd "$PREFLIGHT" analyze "$R" -q
		is "$rc:$(json_get "$R/results.json" partial)" "0:true" \
			"kill-2.$n.5 analyze RUN_DIR analyses its phase directories, marked partial" ||
			echo "$err" | sed 's/^/#   /'

	else
		run_cmd "$PREFLIGHT" analyze "$R" -q
		is "$rc" 2 "kill-2.$n.5 nothing measured yet: analyze RUN_DIR says so (exit 2)"
	fi
done
# killed while the recorder still sets up (before run says go) nothing was recorded: no trace
ok "kill-2.7 a run killed in the app phase as its recorder starts keeps its trace, if it had begun recording" \
	sh -c 'trace-cmd report -i "$0/02-app/trace.dat" >/dev/null 2>&1 || ! grep -q "phase app: recorder (pid" "$0/run.log"' "$TMP/run-k5"

# --- each child of a run killed, by SIGKILL and by SIGTERM --------------------------------
# child_pid WHICH - the pid of one child of the run in $R
child_pid() {
	case $1 in
	recorder) sed -n 's|.*phase app: .*/preflight: pid \([0-9]*\)$|\1|p' "$R/run.log" ;;
	flightapp) pgrep -P "$(child_pid recorder)" ;;
	sensorsim) sed -n 's/.*phase app: sensorsim: pid \([0-9]*\)$/\1/p' "$R/run.log" ;;
	load) sed -n 's/.*phase app: load spi: pid \([0-9]*\) .*/\1/p' "$R/run.log" ;;
	esac
}

n=0
for sig in KILL TERM; do
	for child in recorder flightapp sensorsim load; do
		n=$((n + 1))
		R="$TMP/child-$n"
		audit_begin
		case $child in recorder|flightapp) ini=c.ini ;; *) ini=cn.ini ;; esac
		"$RUNPF" run "$TMP/$ini" -o "$R" --no-report >"$R.out" 2>"$R.err" &
		pid=$!
		audit_own "$pid"
		wait_for 120 grep -Eq "phase app: .*/(preflight|flightapp): pid" "$R/run.log"
		wait_for 60 test -s "$R/01-app/jobs.csv"
		victim=$(child_pid $child)
		kill -"$sig" "$victim"
		wait "$pid"
		rc=$?
		like "$rc:$(json_get "$R/run.json" partial)" "^3:true" \
			"kill-3.$n.1 SIG$sig of the $child: the run stops, exit 3, partial"
		like "$(grep -i "phase app" "$R.err" | grep -v "warning: phase app: no housekeeping CPU" | head -1)" "phase app: .*(exit|ended|exited)" \
			"kill-3.$n.2 with one line saying what ended"
		if [ "$child" = recorder ] || [ "$child" = flightapp ]; then
			ok "kill-3.$n.3 the trace is kept" trace-cmd report -i "$R/01-app/trace.dat"
		else
			like "$(json_get "$R/results.json" tasks.0.jobs)" '^[1-9]' "kill-3.$n.3 what ran is analysed"
		fi
		audit_end "kill-3.$n.4" "nothing left behind"
	done
done
like "$("$PREFLIGHT" record --summary "$TMP/child-1/01-app/trace.dat" | grep '^incomplete')" "^incomplete recovered" \
	"kill-3.9 a recorder killed by SIGKILL: its trace recovered by the run, marked incomplete"
done_testing
