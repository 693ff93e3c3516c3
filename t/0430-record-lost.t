#!/bin/sh
# 0430-record-lost.t - a storm overflowing a deliberately tiny buffer (rec_storm): the loss is counted,
# stored in the file (rec_read_lost_events / --summary) and reported loudly
. "$(dirname "$0")/lib/test-lib.sh"
need TRACEFS RT CMD:taskset
. "$TOP/t/lib/rec-lib.sh"
plan 6

f="$TMP/storm.dat"
rec_storm "$f"
is "$rc" 0 "rec-lost-1.1 a lossy recording still exits 0 (the loss is in the file)"
like "$err" "WARNING: .*storm.dat IS INCOMPLETE: [1-9][0-9]* events LOST" "rec-lost-1.2 the loss is reported loudly"
like "$err" "cpu[01]: overrun [0-9]+" "rec-lost-1.3 per-CPU counts are printed"
like "$(rec_summary "$f" lost)" "^[1-9][0-9]*$" "rec-lost-2.1 a non-zero lost count is stored in the file"
like "$(trace-cmd report -i "$f" --stat 2>/dev/null | grep '^overrun:' | sort -u | tr '\n' ' ')" "overrun: [1-9]" \
	"rec-lost-2.2 trace-cmd report --stat shows the overrun"
ok "rec-lost-2.3 the lossy file is still readable" trace-cmd report -i "$f"
done_testing
