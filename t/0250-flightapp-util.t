#!/bin/sh
# 0250-flightapp-util.t - the omap3-60 profile: on a 10-second run the app's
# realtime threads use 60 % of one CPU (+-5 points, measured as thread CPU
# time over elapsed time, so it does not depend on latency), every job does
# its calibrated work, and ekf's update spans slots. Realtime priorities
# where permitted (so other load on the machine cannot starve the app),
# --no-rt otherwise.
. "$(dirname "$0")/lib/test-lib.sh"
. "$TOP/t/lib/app-lib.sh"
need CPUS2	# the omap3-60 profile pins its tasks to CPU 1
plan 7

rt=--no-rt
[ "$(id -u)" -eq 0 ] && chrt -f 1 true 2>/dev/null && rt=
run_cmd "$FLIGHTAPP" $rt --quiet --profile omap3-60 --duration 10 \
	--joblog "$TMP/jobs.csv" --stats-json "$TMP/stats.json"
is "$rc" 0 "app-6.1 omap3-60 run exits 0 (${rt:-realtime})"
util=$(json_get "$TMP/stats.json" .app_utilisation_pct)
ok "app-6.2 app utilisation $util % of one CPU is within 60 +- 5" \
	perl -e 'exit !($ARGV[0] >= 55 && $ARGV[0] <= 65)' "$util"
is "$(json_get "$TMP/stats.json" .profile)" "omap3-60" "app-6.3 the profile is named in the statistics"
app_summary "$TMP/jobs.csv" 0.2
bad=""
for t in io ctl100 nav10 ekf mission1; do
	[ "$(app_get "cpu_under.$t"):$(app_get "cpu_mean_ok.$t")" = 0:1 ] || bad="$bad $t"
done
is "$bad" "" "app-6.4 every realtime job did its calibrated work, within 20 % on average"
ok "app-6.5 ekf's update spans slots (shortest job $(app_get span_min.ekf) ns > 10 ms)" \
	test "$(app_get span_min.ekf)" -gt 10000000
app_within "$(app_get jobs.ekf)" 10 1 "app-6.6 ekf released by the 1 Hz stand-in source: 10 jobs"
like "$(app_get meta.task.io)" "cpus=1 work_ns=2000000$" "app-6.7 job log metadata: io pinned to CPU 1, 2 ms of work"
done_testing
