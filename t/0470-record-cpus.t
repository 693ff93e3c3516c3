#!/bin/sh
# 0470-record-cpus.t - preflight record --cpus pins every recorder thread (read back from
# /proc/PID/task/*/status), the command keeps the recorder's original affinity, and the
# recorder's thread ids (and --observer's) are stored in the file for analysis
. "$(dirname "$0")/lib/test-lib.sh"
need TRACEFS CPUS2
. "$TOP/t/lib/rec-lib.sh"
plan 13

run_cmd "$PREFLIGHT" record -o "$TMP/x.dat" --cpus 'a-b' -- true
like "$rc:$err" "^2:.*--cpus 'a-b': not a CPU list" "rec-cpus-1.1 a bad --cpus list is a usage error"
run_cmd "$PREFLIGHT" record -o "$TMP/x.dat" --cpus 1000 -i "$PFT-off" -- true
like "$rc:$err" "^2:.*--cpus '1000': cannot pin the recorder: no CPU of the list is online" \
	"rec-cpus-1.2 a list of CPUs that are not online is refused"
is "$(rec_instances)" "" "rec-cpus-1.3 ... and leaves no instance"
run_cmd "$PREFLIGHT" record -o "$TMP/x.dat" --observer 0 -- true
is "$rc" 2 "rec-cpus-1.4 --observer takes a pid"

# the last online CPU: the recorder is pinned there, the command is not
last=$(($(nproc) - 1))
orig=$(grep Cpus_allowed_list /proc/self/status | cut -f2)
cmd='grep Cpus_allowed_list /proc/self/status | cut -f2 > "$0.aff"; while [ ! -e "$0.stop" ]; do sleep 0.05; done'
sleep 600 &
extra=$!
"$PREFLIGHT" record -q -o "$TMP/pin.dat" -i "$PFT-pin" --cpus "$last" --observer "$extra" \
	-- sh -c "$cmd" "$TMP/cmd" 2>"$TMP/rec.err" &
rec=$!
# main thread + one stream thread per CPU, and the command has written its affinity
ncpus=$(getconf _NPROCESSORS_CONF)
threads() { ls "/proc/$rec/task" 2>/dev/null | wc -l; }
wait_for 60 sh -c "[ \$(ls /proc/$rec/task | wc -l) -ge $((ncpus + 1)) ] && [ -s '$TMP/cmd.aff' ]"
affs=$(for t in /proc/$rec/task/*; do grep Cpus_allowed_list "$t/status" | cut -f2; done | sort -u)
tids=$(ls "/proc/$rec/task" | sort -n | tr '\n' ' ')
is "$(threads)" "$((ncpus + 1))" "rec-cpus-2.1 the recorder runs its main thread and one stream thread per CPU"
is "$affs" "$last" "rec-cpus-2.2 every recorder thread is pinned to --cpus $last (Cpus_allowed_list)"
is "$(cat "$TMP/cmd.aff")" "$orig" "rec-cpus-2.3 the command keeps the recorder's original affinity ($orig)"
touch "$TMP/cmd.stop"
wait "$rec"
is "$?" 0 "rec-cpus-2.4 the pinned recording exits 0"
kill "$extra"

obs=$(trace-cmd dump --options -i "$TMP/pin.dat" 2>/dev/null | sed -n 's/^Observer pids: //p')
want=$(printf '%s\n' $tids "$extra" | sort -n | tr '\n' ' ')
is "$(printf '%s\n' $obs | sort -n | tr '\n' ' ')" "$want" \
	"rec-cpus-3.1 the file lists every recorder thread and the --observer process as the observer"
"$PREFLIGHT" analyze -q --trace "$TMP/pin.dat" -o "$TMP/pin.json" 2>/dev/null
is "$(json_get "$TMP/pin.json" trace.observer_pids | tr -d '[]' | tr ',' ' ')" "$(echo $want)" \
	"rec-cpus-3.2 analyze reads the observer's thread ids (trace.observer_pids)"
# the recorder's own sched events name it 'preflight' on the pinned CPU only
is "$(trace-cmd report -i "$TMP/pin.dat" 2>/dev/null |
	awk -v pid="$rec" '$0 ~ "sched_switch: +preflight:" pid " " { print $2 }' | sort -u | tr '\n' ' ')" \
	"[00$last] " "rec-cpus-3.3 the recorder's main thread was switched out on CPU $last only"

# without --cpus nothing is pinned: the recorder's threads keep the original affinity
"$PREFLIGHT" record -q -o "$TMP/free.dat" -i "$PFT-free" -- sh -c "$cmd" "$TMP/free" 2>/dev/null &
rec=$!
wait_for 60 sh -c "[ \$(ls /proc/$rec/task | wc -l) -ge $((ncpus + 1)) ]"
is "$(for t in /proc/$rec/task/*; do grep Cpus_allowed_list "$t/status" | cut -f2; done | sort -u)" "$orig" \
	"rec-cpus-4.1 without --cpus the recorder's threads are not pinned"
touch "$TMP/free.stop"
wait "$rec"
is "$(rec_instances)" "" "rec-cpus-4.2 no instance of this test is left"
