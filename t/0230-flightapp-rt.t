#!/bin/sh
# 0230-flightapp-rt.t - the default table with realtime priorities (root):
# every task thread really runs SCHED_FIFO at its configured priority (read
# back from /proc/<pid>/task/<tid>/stat), the SCHED_OTHER ones stay OTHER,
# memory is locked, and nothing in the outputs claims --no-rt.
. "$(dirname "$0")/lib/test-lib.sh"
need RT
. "$TOP/t/lib/app-lib.sh"
plan 17

cfg=
if test_have_prereq CPUS2; then
	printf '[app]\ncpus = 1\n[task ctl100]\ncpus = 0\n' > "$TMP/affinity.ini"
	cfg="--config $TMP/affinity.ini"
fi
# a run long enough to be read while it lasts, however slow the machine (an emulated
# target took longer than a 2 s run between its first status line and the reading),
# then ended as an operator ends it: SIGINT, exit 0
"$FLIGHTAPP" --duration 120 --joblog "$TMP/jobs.csv" --stats-json "$TMP/stats.json" $cfg \
	> "$TMP/out" 2> "$TMP/err" &
pid=$!
# read the threads once the first live status block says every task has been running
wait_for 60 grep -q '^flightapp: t=' "$TMP/err"
# comm, policy (field 41) and rt_priority (field 40) of every thread
for t in /proc/$pid/task/*; do
	echo "$(cat "$t/comm") $(awk '{ print $41, $40 }' "$t/stat")"
done | sort > "$TMP/threads"
locked=$(awk '/^VmLck:/ { print ($2 > 0) }' /proc/$pid/status)
dma=$(ls -l /proc/$pid/fd 2>/dev/null | grep -c 'cpu_dma_latency')
for t in /proc/$pid/task/*; do
	echo "$(cat "$t/comm") $(awk '/^Cpus_allowed_list:/ { print $2 }' "$t/status")"
done | sort > "$TMP/cpus"
kill -INT "$pid"
wait "$pid"
rc=$?
is "$rc" 0 "app-4.1 realtime run exits 0"
[ "$rc" -eq 0 ] || sed 's/^/#   /' "$TMP/err" | head
for tp in "io 1 90" "ctl100 1 80" "nav10 1 70" "ekf 1 65" "mission1 1 60" "logger 0 0" "telemetry 0 0"; do
	is "$(grep "^${tp%% *} " "$TMP/threads")" "$tp" "app-4.2 ${tp%% *}: policy and priority as configured ($tp)"
done
is "$locked" 1 "app-4.3 memory locked (VmLck > 0)"
# a kernel without the device (the armhf guest's) gets a run without it, said in the statistics
if [ -e /dev/cpu_dma_latency ]; then
	is "$dma:$(json_get "$TMP/stats.json" dma_latency)" "1:held" \
		"app-4.3a /dev/cpu_dma_latency held open while running (statistics: held)"
else
	is "$dma:$(json_get "$TMP/stats.json" dma_latency)" "0:unavailable" \
		"app-4.3a no /dev/cpu_dma_latency on this kernel: not held, the statistics say unavailable"
fi
if [ -n "$cfg" ]; then
	is "$(grep '^io ' "$TMP/cpus")" "io 1" "app-4.3b io pinned to CPU 1 ([app] cpus)"
	is "$(grep '^ctl100 ' "$TMP/cpus")" "ctl100 0" "app-4.3c ctl100 pinned to CPU 0 ([task] cpus)"
else
	skip "app-4.3b app-4.3c" "needs two CPUs"
fi
app_summary "$TMP/jobs.csv"
is "$(app_get meta.no_rt):$(app_get nort_bad)" "0:0" "app-4.4 job log: not --no-rt, no record flagged 0x4"
is "$(json_get "$TMP/stats.json" .no_rt):$(json_get "$TMP/stats.json" .tasks.0.policy):$(json_get "$TMP/stats.json" .tasks.0.priority)" \
	"false:fifo:90" "app-4.5 JSON: realtime, io fifo 90"
like "$(head -1 "$TMP/out")" "SCHED_FIFO as configured" "app-4.6 final table states the scheduling"

# without the privilege: a clear error and exit 3, unless --no-rt
if test_have_prereq CMD:setpriv USER:nobody; then
	# a copy that user nobody can reach wherever the tree lives
	mkdir "$TMP/nb" && cp "$FLIGHTAPP" "$TMP/nb/flightapp" && chmod 755 "$TMP/nb" && chmod 711 "$TMP"
	run_cmd setpriv --reuid=nobody --regid="$(id -g nobody)" --clear-groups \
		"$TMP/nb/flightapp" --quiet --no-dma-latency --duration 1
	is "$rc:$err" "3:flightapp: set-up: SCHED_FIFO priority 60: not permitted (run as root or with CAP_SYS_NICE, or use --no-rt)" \
		"app-4.7 unprivileged without --no-rt: exit 3, one line"
	run_cmd setpriv --reuid=nobody --regid="$(id -g nobody)" --clear-groups \
		"$TMP/nb/flightapp" --quiet --no-rt --duration 0.3
	is "$rc" 0 "app-4.8 unprivileged with --no-rt: runs"
else
	skip "app-4.7 app-4.8"
fi
done_testing
