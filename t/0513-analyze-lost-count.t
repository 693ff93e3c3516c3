#!/bin/sh
# 0513-analyze-lost-count.t - a real lossy recording: the file's per-CPU
# statistics count every lost event and the records' missed_events place some
# of the same losses, so analyze reports per CPU the larger of the two (the
# recorder's own count), never their sum. The loss is made sure (rec_storm:
# a marker flood starves the reader of a tiny buffer).
. "$(dirname "$0")/lib/test-lib.sh"
. "$(dirname "$0")/lib/analyze-lib.sh"
need TRACEFS RT CMD:taskset
. "$TOP/t/lib/rec-lib.sh"
plan 6

f="$TMP/storm.dat"
rec_storm "$f"
is "$rc" 0 "lcount-1.1 a lossy recording (8 KiB buffers, the reader starved by a marker flood)"

# per CPU: overrun + commit overrun + dropped, as the recorder printed them
percpu=$(printf '%s\n' "$err" | perl -ne 'print $2 + $3 + $4, "," if /cpu(\d+): overrun (\d+), commit overrun (\d+), dropped (\d+)/' | sed 's/,$//')
summary=$("$PREFLIGHT" record --summary "$f")
lost=$(printf '%s\n' "$summary" | awk '$1 == "lost" { print $2 }')
missed=$(printf '%s\n' "$summary" | awk '$1 == "missed" { print $2 }')
R="$TMP/r.json"
run_cmd "$PREFLIGHT" analyze -q --trace "$f" -o "$R"
is "$rc" 0 "lcount-1.2 analyzed"
# the precondition of what follows: a test of nothing must fail, not pass
ok "lcount-1.2a the recording lost events (${lost:-none}), some placed in records (${missed:-none})" \
	test "${lost:-0}" -gt 0 -a "${missed:-0}" -gt 0
is "$(json_get "$R" trace.lost_events)" "$lost" \
	"lcount-1.3 trace.lost_events is the recorder's count ($lost), not it plus the records' missed_events ($missed)"
is "$(json_get "$R" trace.lost_by_cpu | tr -d '[]')" "$percpu" "lcount-1.4 per CPU: the statistics' count"
is "$(json_get "$R" lost_events.total)" "$(json_get "$R" trace.lost_events)" "lcount-1.5 lost_events.total the same"
done_testing
