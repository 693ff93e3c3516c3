#!/bin/sh
# 0250-flightapp-util.t - the omap3-60 profile: its realtime tasks are
# configured for 60 % of one CPU, the app's utilisation is its realtime
# threads' CPU time over the elapsed time and holds the job log's CPU time
# (how much ran on a loaded machine is not asserted, only that the numbers
# agree), every job does its calibrated work, and ekf's update spans slots.
# Realtime priorities where permitted, --no-rt otherwise.
#
# No CPU time is bounded by a share of the elapsed time: a CPU whose host
# takes it away (an emulated guest, qemu TCG on a loaded machine) charges the
# time lost to whichever thread was on it. In the amd64 PREEMPT_RT guest the
# FIFO threads' time outside their jobs was 8.4 % of the run, and single jobs
# of 2 ms of work took 5 ms of CPU time (3 ms of 3 000 in the median job).
# What is checked instead holds on any CPU: a thread's jobs are part of its
# time, the threads' times are part of the process's, and the work loop
# stops once its work is done (the cheapest job of each task).

. "$(dirname "$0")/lib/test-lib.sh"
. "$TOP/t/lib/app-lib.sh"
need CPUS2	# the omap3-60 profile pins its tasks to CPU 1
plan 8

rt=--no-rt
test_have_prereq RT && rt=
# the process's CPU time (its children's, as times(2) gives it after the wait: whole clock ticks)
run_cmd perl -MPOSIX -e '$o = shift; $rc = system @ARGV; @t = times; open my $f, ">", $o or die;
	printf $f "%.0f %.0f\n", ($t[2] + $t[3]) * 1e9, 1e9 / POSIX::sysconf(POSIX::_SC_CLK_TCK()); exit($rc >> 8)' \
	"$TMP/process.cpu" "$FLIGHTAPP" $rt --quiet --profile omap3-60 --duration 3 \
	--joblog "$TMP/jobs.csv" --stats-json "$TMP/stats.json"
is "$rc" 0 "app-6.1 omap3-60 run exits 0 (${rt:-realtime})"
# the FIFO-configured tasks: their threads' CPU time, and their jobs' CPU time in the job log;
# every task's thread time (the logger's and telemetry's too), and the tasks whose jobs took more
threads_ns=0 log_ns=0 all_ns=0 i=0 over=""
while name=$(json_get "$TMP/stats.json" "tasks.$i.name" 2>/dev/null); do
	t_ns=$(json_get "$TMP/stats.json" "tasks.$i.thread_cpu_ns")
	l_ns=$(awk -F, -v t="$name" '$1 == t { s += $6 } END { printf "%.0f", s }' "$TMP/jobs.csv")
	all_ns=$((all_ns + t_ns))
	[ "$l_ns" -le "$t_ns" ] || over="$over $name"
	if [ "$(json_get "$TMP/stats.json" "tasks.$i.configured_policy")" = fifo ]; then
		threads_ns=$((threads_ns + t_ns))
		log_ns=$((log_ns + l_ns))
	fi
	i=$((i + 1))
done
util=$(json_get "$TMP/stats.json" app_utilisation_pct)
elapsed=$(json_get "$TMP/stats.json" elapsed_ns)
read -r process_ns tick_ns < "$TMP/process.cpu"
# a thread's CPU time is its jobs' plus its loop's, and part of the process's (whose two halves,
# user and system, times(2) each rounds down to a tick): per-thread clocks, not the process's
ok "app-6.2 app utilisation $util % = FIFO threads' CPU time $threads_ns ns over $elapsed ns, >= the job log's $log_ns ns, every task's threads $all_ns ns <= the process's $process_ns ns" \
	awk -v u="$util" -v t="$threads_ns" -v l="$log_ns" -v e="$elapsed" -v a="$all_ns" -v p="$process_ns" \
	-v k="$tick_ns" -v over="$over" \
	'BEGIN { d = u - 100 * t / e; exit !(e > 0 && d < 0.01 && d > -0.01 && l > 0 && l <= t && over == "" && a <= p + 2 * k) }'
# work_ns over period_ns (or event_period_ns) of every fifo task in the job log's metadata
load=$(sed -n 's/^# task\.[a-z0-9]*=.* period_ns=\([0-9]*\) .* event_period_ns=\([0-9]*\) policy=fifo .* work_ns=\([0-9]*\)$/\1 \2 \3/p' "$TMP/jobs.csv" |
	awk '{ s += $3 / ($1 > 0 ? $1 : $2) } END { printf "%.3f", s }')
is "$load" 0.600 "app-6.2a the realtime tasks are configured for 60 % of one CPU"
is "$(json_get "$TMP/stats.json" .profile)" "omap3-60" "app-6.3 the profile is named in the statistics"
app_summary "$TMP/jobs.csv"
# at least its work in every job; and the work loop stops then: each task's cheapest job (one
# that nothing was charged to) within half the work, where work done twice would be 100 % (20 %
# failed ekf and mission1, jobs of 100 ms and more, in an emulated guest on a loaded host: the
# interrupts an emulated CPU takes are charged to the job's thread)
bad=""
for t in io ctl100 nav10 ekf mission1; do
	work=$(app_get "meta.task.$t" | sed -n 's/.* work_ns=\([0-9]*\).*/\1/p')
	[ "$(app_get "cpu_under.$t")" = 0 ] && [ -n "$work" ] &&
		[ "$(app_get "cpu_min.$t")" -le $((work + work / 2)) ] ||
		bad="$bad $t (under: $(app_get "cpu_under.$t"), cheapest $(app_get "cpu_min.$t") ns, work $work ns)"
done
is "$bad" "" "app-6.4 every realtime job did its calibrated work, the cheapest within 50 %"
ok "app-6.5 ekf's update spans slots (shortest job $(app_get span_min.ekf) ns > 10 ms)" \
	test "$(app_get span_min.ekf)" -gt 10000000
is "$(($(app_get jobs.ekf) + $(app_get missed.ekf) + $(app_get meta.missed_after_last.ekf)))" 3 \
	"app-6.6 ekf released by the 1 Hz stand-in source: 3 releases in 3 s, each run or counted missed"
like "$(app_get meta.task.io)" "cpus=1 work_ns=2000000$" "app-6.7 job log metadata: io pinned to CPU 1, 2 ms of work"
done_testing
