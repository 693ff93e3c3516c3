#!/bin/sh
# 0410-record-sleep.t - preflight record -- sleep 1 (with markers and short-lived threads):
# trace-cmd report and libtracecmd read the file, counts agree, markers and comms are there
. "$(dirname "$0")/lib/test-lib.sh"
need TRACEFS
. "$TOP/t/lib/rec-lib.sh"
plan 24

f="$TMP/sleep.dat"
# the command: a text marker, a binary PFM1 marker, children that exit during the run, sleep 1
cmd='echo "pf1 T 3 probe tid=$$ period_ns=0 deadline_ns=0 prio=0 policy=other" > "$PREFLIGHT_TRACE_DIR/trace_marker"
printf "\061\115\106\120S\003\000\000\007\000\000\000\000\000\000\000\001\002\003\004\005\006\007\010" > "$PREFLIGHT_TRACE_DIR/trace_marker_raw"
echo "$PREFLIGHT_TRACE_INSTANCE" > "$0.instance"
"${0%/*}/rec-shortlived"; sh -c "exec sleep 1"'
cp /bin/true "$TMP/rec-shortlived"
run_cmd "$PREFLIGHT" record -o "$f" -- sh -c "$cmd" "$TMP/cmd"
is "$rc" 0 "rec-sleep-1.1 record -- sleep 1 exits 0"
like "$err" "wrote .*sleep.dat: [0-9]+ events.*clock mono.*lost 0" "rec-sleep-1.2 summary line: events, clock mono, lost 0"
like "$(cat "$TMP/cmd.instance" 2>/dev/null)" "^preflight-[0-9]+$" "rec-sleep-1.3 the command saw PREFLIGHT_TRACE_INSTANCE"

ok "rec-sleep-2.1 trace-cmd report reads the file" trace-cmd report -i "$f"
n_report=$(rec_report_count "$f")
n_lib=$(rec_summary "$f" events)
like "$n_lib" "^[1-9][0-9]*$" "rec-sleep-2.2 libtracecmd reads events ($n_lib)"
is "$n_lib" "$n_report" "rec-sleep-2.3 libtracecmd and trace-cmd report count the same events"
is "$(rec_summary_event "$f" sched:sched_switch)" "$(rec_report_count "$f" sched_switch)" \
	"rec-sleep-2.4 sched_switch counts agree"
is "$(rec_summary "$f" clock)" "mono" "rec-sleep-2.5 the clock stored is mono"
is "$(rec_summary "$f" lost)" "0" "rec-sleep-2.6 lost events stored: 0"

is "$(rec_summary "$f" markers.pf1)" "1" "rec-sleep-3.1 the text marker is in the trace"
is "$(rec_summary "$f" markers.pfm1)" "1" "rec-sleep-3.2 the binary PFM1 marker is in the trace"
# (in hex, or decoded where preflight's trace-cmd plugin is installed: a guest's image)
like "$(trace-cmd report -i "$f" 2>/dev/null | grep raw_data)" "(# 50464d31 53 03 00 00 07 00|job_start sh #7 release=)" \
	"rec-sleep-3.3 raw marker payload intact in trace-cmd report"

sum=$("$PREFLIGHT" record --summary "$f")
is "$(rec_summary "$f" pids.unnamed)" "0" "rec-sleep-4.1 every pid in the trace has a comm"
like "$sum" "pid [0-9]+ sleep " "rec-sleep-4.2 the sleep process is named"
like "$(trace-cmd report -i "$f" 2>/dev/null | grep -c 'rec-shortlived-[0-9]')" "^[1-9]" \
	"rec-sleep-4.3 a process that exited during the run is named (trace-cmd report)"
inst=$(cat "$TMP/cmd.instance")
is "$(ls -d "$TRACEFS/instances/$inst" 2>/dev/null)" "" "rec-sleep-5.1 no instance left behind ($inst)"

# --compress: v7 with compressed sections, read by both
run_cmd "$PREFLIGHT" record -q -z -e sched -o "$TMP/v7.dat" -- sleep 0.3
like "$(trace-cmd dump --summary -i "$TMP/v7.dat" 2>&1 | tr "\n\t" "  ")" "7[[:space:]]+\[Version\].*(zstd|zlib)[[:space:]]+\[Compression algorithm\]" \
	"rec-sleep-6.1 --compress writes a compressed v7 file"
n=$(rec_report_count "$TMP/v7.dat")
like "$(rec_summary "$TMP/v7.dat" events):$n" "^([1-9][0-9]*):\1$" "rec-sleep-6.2 trace-cmd report and libtracecmd agree on v7"
is "$(rec_summary "$TMP/v7.dat" lost)" "0" "rec-sleep-6.3 v7 file carries the lost-event counts"

# event sets: full (optional events skipped where missing), an explicit system, a missing event
run_cmd "$PREFLIGHT" record -q -e full -o "$TMP/full.dat" -- sh -c 'sleep 0.2; ls / >/dev/null'
ok "rec-sleep-8.1 --events full records a readable file" trace-cmd report -i "$TMP/full.dat"
run_cmd "$PREFLIGHT" record -q -e sched,raw_syscalls -o "$TMP/sys.dat" -- sleep 0.1
like "$(rec_summary_event "$TMP/sys.dat" raw_syscalls:sys_enter)" "^[1-9]" "rec-sleep-8.2 a whole system named in the list is recorded"
run_cmd "$PREFLIGHT" record -q -e sched,irq:no_such_event -o "$TMP/bad.dat" -- true
like "$rc:$err" "^2:preflight: record: event 'irq:no_such_event': not available" "rec-sleep-8.3 a missing explicit event: exit 2"

# the reader on a trace-cmd extract file (instance buffer, stats of the top level and the buffer)
I="$TRACEFS/instances/$PFT-extract"
mkdir "$I" && echo 1 > "$I/events/sched/sched_switch/enable" && sleep 0.3 && echo 0 > "$I/tracing_on"
trace-cmd extract -B $PFT-extract -o "$TMP/extract.dat" >/dev/null 2>&1
[ -d "$I" ] && { echo 0 > "$I/events/enable"; rmdir "$I"; }
like "$(rec_summary_event "$TMP/extract.dat" sched:sched_switch)" "^[1-9]" \
	"rec-sleep-7.1 --summary reads the instance buffer of a trace-cmd extract file"
like "$(rec_summary "$TMP/extract.dat" lost)" "^[0-9]+$" "rec-sleep-7.2 ... and its stored CPU stats"
done_testing
