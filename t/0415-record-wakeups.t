#!/bin/sh
# 0415-record-wakeups.t - preflight record --wakeups rt: the kernel keeps
# sched_waking / sched_wakeup of realtime threads only, the file says so
# (its CPU statistics header), and analyze then gives no wakeup latency
# (null, with the reason) for the other threads instead of a zero, while the
# realtime ones keep theirs. The same for --switches rt: sched_switch to or
# from a realtime thread or idle only (and a thread's last switch, so that
# analyze knows it died); the other threads have no run time.
. "$(dirname "$0")/lib/test-lib.sh"
need TRACEFS CMD:chrt CMD:trace-cmd
. "$TOP/t/lib/rec-lib.sh"
plan 18

# realtime sleepers and normal ones, woken by their timers. The realtime ones are children of a
# realtime perl (chrt -f 50), so realtime from their fork: a 'chrt -f 50 sleep' is a normal
# thread until chrt sets its policy, and a thread seen at a normal priority too has neither its
# wakeups nor its run time in full under the rt filters (nor has a normal thread PI-boosted on
# PREEMPT_RT: in the amd64 RT guest the storm's shell ran at a threaded IRQ handler's priority 49)
rtsleeps="chrt -f 50 perl -e 'system(\"sleep\", \"0.002\") for 1 .. 30'"
cat > "$TMP/sleepers.sh" <<SH
$rtsleeps &
i=0
while [ \$i -lt 30 ]; do sleep 0.002; i=\$((i + 1)); done
wait
SH
run_cmd "$PREFLIGHT" record -q --wakeups rt -o "$TMP/rt.dat" -- sh "$TMP/sleepers.sh"
is "$rc" 0 "rec-wk-1.1 record --wakeups rt exits 0"
# a realtime kernel priority (0-99) as trace-cmd prints it: sched_waking 'prio=49', sched_wakeup '[49]'
rtprio=' prio=[0-9]{1,2} | \[[0-9]{1,2}\] '
report=$(trace-cmd report -i "$TMP/rt.dat" 2>/dev/null)
rt=$(printf '%s\n' "$report" | grep -E 'sched_wak(ing|eup):' | grep -cE "$rtprio")
other=$(printf '%s\n' "$report" | grep -E 'sched_wak(ing|eup):' | grep -cvE "$rtprio")
ok "rec-wk-1.2 wakeups of realtime threads are recorded ($rt)" [ "$rt" -gt 0 ]
is "$other" 0 "rec-wk-1.3 and no wakeup of any other thread"
like "$(trace-cmd report --stat -i "$TMP/rt.dat" 2>/dev/null)" \
	"Buffer: preflight-[0-9]+ \(preflight record, streaming, wakeups of realtime threads only\)" \
	"rec-wk-1.4 the file's CPU statistics header says so, for any reader"

"$PREFLIGHT" analyze -q --trace "$TMP/rt.dat" -o "$TMP/rt.json" --all-threads
is "$(json_get "$TMP/rt.json" trace.wakeups_recorded)" "realtime threads" "rec-wk-2.1 analyze: trace.wakeups_recorded"
is "$(json_get "$TMP/rt.json" 'threads.comm=sh.wakeup_latency_ns' 'threads.comm=sh.wakeups')" "null
null" "rec-wk-2.2 a normal thread has no wakeup latency and no wakeup count (null, not 0)"
like "$(json_get "$TMP/rt.json" 'threads.comm=sh.wakeup_latency_unavailable')" \
	"realtime threads only \(preflight record --wakeups rt\)" "rec-wk-2.3 ... with the reason"
rtn=$(perl -MJSON::PP -0e '
	my $n = 0; for (@{decode_json(<>)->{threads}}) { $n += $_->{wakeup_latency_ns}{count} // 0 if $_->{comm} eq "sleep" && ($_->{policy} // "") eq "rt" } print $n' "$TMP/rt.json")
ok "rec-wk-2.4 the realtime sleepers keep their wakeup latencies ($rtn samples)" [ "$rtn" -gt 0 ]

run_cmd "$PREFLIGHT" record -q -o "$TMP/all.dat" -- sh -c 'sleep 0.01'
"$PREFLIGHT" analyze -q --trace "$TMP/all.dat" -o "$TMP/all.json"
is "$(json_get "$TMP/all.json" trace.wakeups_recorded)" "all threads" "rec-wk-3.1 by default every wakeup is recorded"
run_cmd "$PREFLIGHT" record --wakeups some -o "$TMP/x.dat" -- true
is "$rc:$err" "2:preflight: record: --wakeups 'some': rt or all (see 'preflight record --help')" \
	"rec-wk-3.2 a bad --wakeups is a usage error, nothing recorded"

# --switches rt: two normal threads switching among themselves beside realtime sleepers
cat > "$TMP/storm.sh" <<SH
i=0
while [ \$i -lt 300 ]; do echo x; i=\$((i + 1)); done | while read -r l; do :; done &
$rtsleeps
wait
SH
run_cmd "$PREFLIGHT" record -q --switches rt -o "$TMP/sw.dat" -- sh "$TMP/storm.sh"
is "$rc" 0 "rec-wk-4.1 record --switches rt exits 0"
sw=$(trace-cmd report -i "$TMP/sw.dat" 2>/dev/null | grep 'sched_switch:')
# kept: a realtime priority (0-99) or the idle task (pid 0) on one side, or a thread's last (X, Z)
kept=' \[[0-9]{1,2}\] |\[[0-9]{1,2}\]$|:0 \[|\] [XZ] ==>'
ok "rec-wk-4.2 switches of realtime threads are recorded ($(printf '%s\n' "$sw" | grep -cE "$kept"))" \
	[ "$(printf '%s\n' "$sw" | grep -cE "$kept")" -gt 0 ]
is "$(printf '%s\n' "$sw" | grep -cvE "$kept")" 0 "rec-wk-4.3 and no switch between two other threads"
like "$(trace-cmd report --stat -i "$TMP/sw.dat" 2>/dev/null)" \
	"Buffer: preflight-[0-9]+ \(preflight record, streaming, switches of realtime threads and idle only\)" \
	"rec-wk-4.4 the file's CPU statistics header says so"
"$PREFLIGHT" analyze -q --trace "$TMP/sw.dat" -o "$TMP/sw.json" --all-threads
is "$(json_get "$TMP/sw.json" trace.switches_recorded)/$(json_get "$TMP/all.json" trace.switches_recorded)" \
	"realtime threads and idle/all threads" "rec-wk-4.5 analyze: trace.switches_recorded"
is "$(json_get "$TMP/sw.json" 'threads.comm=sh.runtime_ns')|$(json_get "$TMP/sw.json" 'threads.comm=sh.runtime_unavailable')" \
	"null|switches recorded to or from realtime threads and idle only (preflight record --switches rt)" \
	"rec-wk-4.6 a normal thread has no run time (null, with the reason)"
rtrun=$(perl -MJSON::PP -0e '
	my $n = 0; for (@{decode_json(<>)->{threads}}) { $n++ if $_->{comm} eq "sleep" && ($_->{policy} // "") eq "rt" && ($_->{runtime_ns} // 0) > 0 } print $n' "$TMP/sw.json")
ok "rec-wk-4.7 the realtime sleepers keep their run times ($rtrun threads)" [ "$rtrun" -gt 0 ]

# a normal thread's last switch to another normal one is kept: 20 short processes beside a busy loop on CPU 0
cat > "$TMP/deaths.sh" <<SH
taskset -c 0 sh -c 'while [ ! -e "$TMP/stop" ]; do :; done' &
j=0
while [ \$j -lt 20 ]; do taskset -c 0 true; j=\$((j + 1)); done
touch "$TMP/stop"
wait
SH
run_cmd "$PREFLIGHT" record -q --switches rt -o "$TMP/deaths.dat" -- sh "$TMP/deaths.sh"
last=$(trace-cmd report -i "$TMP/deaths.dat" 2>/dev/null | grep 'sched_switch:' | grep -E '\[1[0-3][0-9]\] [XZ] ==>' |
	grep -cvE ':0 \[[0-9]+\]$')
ok "rec-wk-4.8 a normal thread's last switch (X, Z) to another normal thread is kept ($last)" [ "$rc:$((last > 0))" = 0:1 ]
done_testing
