#!/bin/sh
# 0460-record-ref-traces.t - the committed reference traces stay readable by trace-cmd report
# and libtracecmd, agree with each other, are complete and hold what their README says
. "$(dirname "$0")/lib/test-lib.sh"
. "$TOP/t/lib/rec-lib.sh"
need CMD:trace-cmd
plan 17

for t in app-alone app-cpuload app-text-markers cyclictest-tracemark; do
	f="$REC_REF/$t.dat"
	size=$(stat -c %s "$f")
	n=$(rec_report_count "$f")
	is "$(rec_summary "$f" events):$n" "$n:$n" "rec-ref-1.$t libtracecmd and trace-cmd report agree ($n events)"
	is "$(rec_summary "$f" lost)" "0" "rec-ref-2.$t no lost events"
	is "$((size < 2097152))" "1" "rec-ref-3.$t under 2 MB ($size bytes)"
done
is "$(rec_summary "$REC_REF/app-alone.dat" markers.pfm1)" "1332" "rec-ref-4.1 app-alone: 666 jobs, start and end markers"
like "$(rec_summary "$REC_REF/app-text-markers.dat" markers.pf1)" "^[1-9][0-9]+$" "rec-ref-4.2 app-text-markers: text job markers"
like "$(trace-cmd report -i "$REC_REF/cyclictest-tracemark.dat" 2>/dev/null | grep -c 'hit latency threshold')" "^1$" \
	"rec-ref-4.3 cyclictest-tracemark: cyclictest's threshold marker"

# the reader on a v7 compressed copy made by trace-cmd itself
trace-cmd convert -i "$REC_REF/app-alone.dat" -o "$TMP/v7.dat" --file-version 7 --compression any >/dev/null 2>&1
is "$(rec_summary "$TMP/v7.dat" events)" "$(rec_summary "$REC_REF/app-alone.dat" events)" \
	"rec-ref-5.1 a trace-cmd v7 compressed copy reads back with the same events"
is "$(rec_summary "$TMP/v7.dat" lost)" "0" "rec-ref-5.2 ... and the same lost-event count"
done_testing
