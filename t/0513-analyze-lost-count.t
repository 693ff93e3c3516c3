#!/bin/sh
# 0513-analyze-lost-count.t - a real lossy recording: the file's per-CPU
# statistics count every lost event and the records' missed_events place some
# of the same losses, so analyze reports per CPU the larger of the two (the
# recorder's own count), never their sum.
. "$(dirname "$0")/lib/test-lib.sh"
. "$(dirname "$0")/lib/analyze-lib.sh"
need TRACEFS
need CMD:hackbench
plan 5

f="$TMP/storm.dat"
run_cmd "$PREFLIGHT" record -o "$f" -e sched -b 8 --buffer-percent 100 --no-kallsyms -- hackbench -l 300 -g 2
is "$rc" 0 "lcount-1.1 a lossy recording (8 KiB buffers under hackbench)"
# per CPU: overrun + commit overrun + dropped, as the recorder printed them
percpu=$(printf '%s\n' "$err" | perl -ne 'print $2 + $3 + $4, "," if /cpu(\d+): overrun (\d+), commit overrun (\d+), dropped (\d+)/' | sed 's/,$//')
summary=$("$PREFLIGHT" record --summary "$f")
lost=$(printf '%s\n' "$summary" | awk '$1 == "lost" { print $2 }')
missed=$(printf '%s\n' "$summary" | awk '$1 == "missed" { print $2 }')
R="$TMP/r.json"
run_cmd "$PREFLIGHT" analyze -q --trace "$f" -o "$R"
is "$rc" 0 "lcount-1.2 analyzed"
if [ "${lost:-0}" -gt 0 ] && [ "${missed:-0}" -gt 0 ]; then
	is "$(json_get "$R" trace.lost_events)" "$lost" \
		"lcount-1.3 trace.lost_events is the recorder's count ($lost), not it plus the records' missed_events ($missed)"
else
	_report 0 "lcount-1.3 # skip this run lost $lost events, $missed of them in records: nothing to reconcile"
fi
is "$(json_get "$R" trace.lost_by_cpu | tr -d '[]')" "$percpu" "lcount-1.4 per CPU: the statistics' count"
is "$(json_get "$R" lost_events.total)" "$(json_get "$R" trace.lost_events)" "lcount-1.5 lost_events.total the same"
done_testing
