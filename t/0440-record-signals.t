#!/bin/sh
# 0440-record-signals.t - every exit path cleans up: SIGINT and SIGTERM mid-run, a failing
# command, a command that cannot start, a stale instance from a crashed run, an instance in use
. "$(dirname "$0")/lib/test-lib.sh"
need TRACEFS
. "$TOP/t/lib/rec-lib.sh"
plan 28

# rec_interrupt SIG FILE - record 'sleep 30' (in its own marker-named copy), send SIG once it runs
rec_interrupt() {
	"$PREFLIGHT" record -o "$2" --instance $PFT-int -e sched --no-kallsyms -- "$TMP/rec-sleeper" 30 \
		>"$TMP/.int.out" 2>&1 &
	pid=$!
	wait_for 60 pgrep -f "^$TMP/rec-sleeper 30"
	kill -"$1" "$pid"
	wait "$pid"
	rc=$?
}
cp "$(command -v sleep)" "$TMP/rec-sleeper"

rec_interrupt INT "$TMP/int.dat"
is "$rc" 0 "rec-sig-1.1 SIGINT mid-run: exit 0"
ok "rec-sig-1.2 SIGINT: the file is readable" trace-cmd report -i "$TMP/int.dat"
like "$(rec_summary "$TMP/int.dat" events)" "^[1-9]" "rec-sig-1.3 SIGINT: the events up to the signal are there"
is "$(pgrep -f "^$TMP/rec-sleeper")" "" "rec-sig-1.4 SIGINT: the command is stopped"

rec_interrupt TERM "$TMP/term.dat"
is "$rc" 0 "rec-sig-2.1 SIGTERM mid-run: exit 0"
ok "rec-sig-2.2 SIGTERM: the file is readable" trace-cmd report -i "$TMP/term.dat"
is "$(pgrep -f "^$TMP/rec-sleeper")$(rec_instances)" "" "rec-sig-2.3 SIGTERM: no command and no instance left"

# a second SIGTERM while the recorder waits for a command that ignores the first (SIGKILL after 2 s)
"$PREFLIGHT" record -q -o "$TMP/term2.dat" --instance $PFT-term2 -e sched --no-kallsyms -- \
	sh -c 'trap "" TERM; exec "$0" 30' "$TMP/rec-sleeper" >/dev/null 2>&1 &
pid=$!
wait_for 60 pgrep -f "^$TMP/rec-sleeper 30"
kill -TERM "$pid"
wait_for 60 rec_signal_taken "$pid"
kill -TERM "$pid"; wait "$pid"; rc=$?
is "$rc" 0 "rec-sig-2.4 a second SIGTERM while stopping: exit 0, not killed after the cleanup"
ok "rec-sig-2.5 ... the file is readable" trace-cmd report -i "$TMP/term2.dat"
is "$(pgrep -f "^$TMP/rec-sleeper")$(rec_instances)" "" "rec-sig-2.6 ... no command and no instance left"

run_cmd "$PREFLIGHT" record -q -o "$TMP/fail.dat" --instance $PFT-fail -e sched -- sh -c 'sleep 0.2; exit 7'
like "$rc:$err" "^1:preflight: record: command: exited with status 7" "rec-sig-3.1 a failing command: exit 1, one-line reason"
ok "rec-sig-3.2 a failing command: the file is readable" trace-cmd report -i "$TMP/fail.dat"
run_cmd "$PREFLIGHT" record -q -o "$TMP/nx.dat" --instance $PFT-nx -e sched -- "$TMP/no-such-command"
like "$rc:$err" "^2:preflight: record: command: cannot run: " "rec-sig-3.3 a command that cannot start: exit 2"
run_cmd "$PREFLIGHT" record -q -o "$TMP/dur.dat" --instance $PFT-dur -e sched -d 300ms -- \
	sh -c '"$0" 0.2 & exec "$0" 30' "$TMP/rec-sleeper"
is "$rc:$(pgrep -f "^$TMP/rec-sleeper")" "0:" "rec-sig-3.4 --duration ends the command and everything it started"
is "$(rec_instances)" "" "rec-sig-3.5 no instance left after failures"

# stderr a closed pipe (record ... 2>&1 | head): SIGPIPE must not kill the run before its teardown;
# the command ends the recording (a 300 ms --duration ended it before it wrote, on the armhf guest)
mkdir "$TMP/pipe"
{ "$PREFLIGHT" record -o "$TMP/pipe/p.dat" --instance $PFT-pipe -e sched --no-kallsyms -- \
	sh -c 'grep "^SigIgn:" /proc/$$/status > "$0"' "$TMP/pipe/sigign" 2>&1; echo $? > "$TMP/pipe.rc"; } \
	< /dev/null | true
is "$(cat "$TMP/pipe.rc")$(rec_instances)$(ls -A "$TMP/pipe" | grep -v '^p\.dat$\|^sigign$')" "0" \
	"rec-sig-3.6 stderr a closed pipe: exit 0, no instance and no temporary files left"
ok "rec-sig-3.7 ... the file is readable" trace-cmd report -i "$TMP/pipe/p.dat"
sigign=$(awk '{ print $2 }' "$TMP/pipe/sigign" 2>/dev/null)
is "$(( 0x${sigign:-1000} & 0x1000 ))" 0 \
	"rec-sig-3.8 ... and the command does not inherit SIGPIPE ignored (SigIgn ${sigign:-not written})"

# a crashed recorder's instance: named preflight-<dead pid>, and a registered one
sh -c 'exit 0' & dead=$!; wait $dead
mkdir "$TRACEFS/instances/preflight-$dead"
mkdir -p /run/preflight/record "$TRACEFS/instances/$PFT-stale"
echo "$dead" > /run/preflight/record/$PFT-stale
run_cmd "$PREFLIGHT" record -o "$TMP/stale.dat" -e sched -d 100ms
like "$err" "removed stale instance 'preflight-$dead'" "rec-sig-4.1 a stale instance by name is detected and removed"
like "$err" "removed stale instance '$PFT-stale'" "rec-sig-4.2 a registered stale instance is removed"
is "$(ls -d "$TRACEFS/instances/preflight-$dead" "$TRACEFS/instances/$PFT-stale" 2>/dev/null)" "" \
	"rec-sig-4.3 no stale instance left"

# a recorder killed outright (SIGKILL): its command dies with it, the next run removes its instance
"$PREFLIGHT" record -q -o "$TMP/kill.dat" --instance $PFT-kill -e sched -- "$TMP/rec-sleeper" 31 \
	>/dev/null 2>&1 &
pid=$!
# mid-run: the command runs and the recorder's temporary directory is there
wait_for 60 pgrep -f "^$TMP/rec-sleeper 31"
wait_for 60 sh -c 'ls -d "$0"/.preflight-record.* > /dev/null' "$TMP"
kill -KILL $pid; wait $pid 2>/dev/null
wait_for 60 sh -c '! pgrep -f "$0"' "$TMP/rec-sleepe[r] 31"	# [r]: not this sh's own command line
is "$(ls "$TRACEFS/instances" | grep -c "^$PFT-kill\$")" "1" "rec-sig-6.1 SIGKILL: the instance is left behind (nothing can run)"
is "$(pgrep -f "^$TMP/rec-sleeper 31")" "" "rec-sig-6.2 SIGKILL: the command died with the recorder"
ok "rec-sig-6.2a SIGKILL: its temporary directory is left beside the output" \
	sh -c 'ls -d "$0"/.preflight-record.* >/dev/null 2>&1' "$TMP"
run_cmd "$PREFLIGHT" record -o "$TMP/after.dat" -e sched -d 100ms
# (a recorder of another test run in the same tree may get there first: then it is just gone)
ok "rec-sig-6.3 the next run removes it" sh -c 'printf "%s" "$1" | grep -q "removed stale instance .$2." || [ ! -d "$3" ]' \
	_ "$err" "$PFT-kill" "$TRACEFS/instances/$PFT-kill"
is "$(ls -d "$TRACEFS/instances/$PFT-kill" 2>/dev/null)" "" "rec-sig-6.4 ... and it is gone"
is "$(ls -d "$TMP"/.preflight-record.* 2>/dev/null)" "" "rec-sig-6.5 ... and so is the killed run's temporary directory"

# an instance in use by a live process is not touched
mkdir "$TRACEFS/instances/$PFT-busy"
run_cmd "$PREFLIGHT" record -o "$TMP/busy.dat" --instance $PFT-busy -d 100ms
like "$rc:$err:$(ls "$TRACEFS/instances")" "^2:.*'$PFT-busy': already exists.*$PFT-busy" \
	"rec-sig-5.1 an existing instance is refused and left alone"
rmdir "$TRACEFS/instances/$PFT-busy"
done_testing
