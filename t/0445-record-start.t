#!/bin/sh
# 0445-record-start.t - how preflight record starts, as 'preflight run' starts it
# (docs/scenarios.md): --ready-fd / --go-fd: set up first, say "ready", record and start the
# command only on "go"; closed, a signal or another line first: nothing recorded, nothing
# left behind, exit 3. --nice N: the recorder's threads at nice N, the command at the
# recorder's own nice value; a nice value that cannot be set is refused
. "$(dirname "$0")/lib/test-lib.sh"
need TRACEFS
. "$TOP/t/lib/rec-lib.sh"
plan 28

inst=$PFT-ready
idir=/sys/kernel/tracing/instances/$inst
# the command: a marker, whether it inherited the handshake's descriptors, then a file saying it ran
cmd='echo "pf1 T 3 probe tid=$$ period_ns=0 deadline_ns=0 prio=0 policy=other" > "$PREFLIGHT_TRACE_DIR/trace_marker"
if [ -e /proc/$$/fd/3 ] || [ -e /proc/$$/fd/4 ]; then echo inherited > "$0.fds"; fi
touch "$0.started"'

# start_recorder NAME - record into $TMP/NAME.dat, "ready" into $TMP/NAME.ready, "go" read
# from the FIFO $TMP/NAME.go, held open for writing on fd 5; the recorder's pid in $pid
start_recorder() {
	mkfifo "$TMP/$1.go"
	exec 5<>"$TMP/$1.go"
	"$PREFLIGHT" record -q -i "$inst" -o "$TMP/$1.dat" --ready-fd 3 --go-fd 4 -- \
		sh -c "$cmd" "$TMP/$1" 3>"$TMP/$1.ready" 4<"$TMP/$1.go" 5>&- 2>"$TMP/$1.err" &
	pid=$!
}
ready() { grep -qx ready "$TMP/$1.ready"; }
gone() { ! kill -0 "$pid"; }

# 1: ready, held, then go
start_recorder go
ok "ready-1.1 the recorder says ready" wait_for 120 ready go
ok "ready-1.2 its instance is set up by then" test -d "$idir"
sleep 0.5	# not a timing bound: a recorder that did not wait would have run the command by now
ok "ready-1.3 the command has not started before go" test ! -e "$TMP/go.started"
ok "ready-1.4 nothing is written before go" test ! -e "$TMP/go.dat"
echo go >&5
wait "$pid"
is "$?" 0 "ready-1.5 after go the recording ends with the command: exit 0"
exec 5>&-
ok "ready-1.6 the command ran" test -e "$TMP/go.started"
ok "ready-1.7 the command did not inherit the handshake's descriptors" test ! -e "$TMP/go.fds"
is "$(rec_summary "$TMP/go.dat" markers.pf1)" 1 \
	"ready-1.8 the trace holds the command's marker"
ok "ready-1.9 the instance is removed" test ! -d "$idir"

# 2: the other side closes before go (the runner died)
start_recorder closed
ok "ready-2.1 ready" wait_for 120 ready closed
exec 5>&-
wait "$pid"
is "$?" 3 "ready-2.2 closed before go: exit 3"
like "$(cat "$TMP/closed.err")" "closed before \"go\": nothing recorded" "ready-2.3 one line says why"
ok "ready-2.4 no command, no trace" test ! -e "$TMP/closed.started" -a ! -e "$TMP/closed.dat"
ok "ready-2.5 no instance and no temporary directory left" \
	sh -c "test ! -d '$idir' && ! ls -d '$TMP'/.preflight-record.* 2>/dev/null"

# 3: a signal while it waits for go
start_recorder term
ok "ready-3.1 ready" wait_for 120 ready term
kill -TERM "$pid"
wait "$pid"
is "$?" 3 "ready-3.2 SIGTERM before go: exit 3"
like "$(cat "$TMP/term.err")" "Terminated: nothing recorded" "ready-3.3 one line says it was stopped"
ok "ready-3.4 no command, no trace, no instance" \
	sh -c "test ! -e '$TMP/term.started' -a ! -e '$TMP/term.dat' -a ! -d '$idir'"
exec 5>&-

# 4: a line other than go
start_recorder other
ok "ready-4.1 ready" wait_for 120 ready other
echo stop >&5
wait "$pid"
is "$?" 3 "ready-4.2 another line: exit 3"
like "$(cat "$TMP/other.err")" "a line other than \"go\"" "ready-4.3 one line says why"
exec 5>&-

# 5: bad input
run_cmd "$PREFLIGHT" record -o "$TMP/bad.dat" --go-fd 97 -- true
like "$rc:$err" "^2:.*--go-fd '97': not an open file descriptor" "ready-5.1 a closed --go-fd is a usage error"

# 6: --nice: the recorder's threads (the stream threads included: they exist once the command
# runs) at N, the command at the recorder's original nice value
nice_cmd='awk "{ print \$19 }" /proc/$PPID/task/*/stat | sort -u > "$0.rec"; awk "{ print \$19 }" /proc/$$/stat > "$0.cmd"'
run_cmd "$PREFLIGHT" record -q -o "$TMP/nice.dat" --nice 7 -- sh -c "$nice_cmd" "$TMP/nice"
is "$rc" 0 "ready-6.1 record --nice 7 exits 0"
is "$(cat "$TMP/nice.rec")" 7 "ready-6.2 every thread of the recorder runs at nice 7"
is "$(cat "$TMP/nice.cmd")" "$(awk '{ print $19 }' /proc/$$/stat)" "ready-6.3 the command keeps the original nice value"
run_cmd "$PREFLIGHT" record -o "$TMP/bad.dat" --nice 20 -- true
like "$rc:$err" "^2:.*--nice '20': not in -20..19" "ready-6.4 a nice value out of range is a usage error"
# root without CAP_SYS_NICE: tracefs works, a negative nice value cannot be set
run_cmd setpriv --bounding-set=-sys_nice "$PREFLIGHT" record -o "$TMP/nonice.dat" --nice -5 -- true
like "$rc:$err" "^3:.*--nice -5: cannot set the recorder's nice value: Permission denied" \
	"ready-6.5 a nice value that cannot be set is refused loudly (exit 3)"
ok "ready-6.6 ... before anything is recorded" test ! -e "$TMP/nonice.dat"
