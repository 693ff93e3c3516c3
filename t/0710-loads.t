#!/bin/sh
# 0710-loads.t - each load starts, achieves a non-zero plausible rate, stops on
# command and leaves nothing behind; rt-swarm at N = 2000 starts and tears down
. "$(dirname "$0")/lib/test-lib.sh"
need RT
plan 27

# leftovers PGID - what a load could leave behind: processes of its group,
# namespaces, links, qdiscs, loop devices, mounts, images (empty when clean)
leftovers() {
	ps -eo pgid=,stat=,comm= | awk -v g="$1" '$1 == g && $2 !~ /^Z/ { print "process " $3 }'
	ip netns list 2>/dev/null | grep -E "^pfw$1( |$)" | sed 's/^/netns /'
	ip -o link show 2>/dev/null | grep -o "pfw$1[hg]" | sed 's/^/link /'
	tc qdisc show 2>/dev/null | grep -o "dev pfw$1[hg]" | sed 's/^/qdisc /'
	grep "pfsd$1[^0-9]" /proc/mounts | sed 's/^/mount /'
	losetup -a 2>/dev/null | grep "pfsd$1[^0-9]" | sed 's/^/loop /'
	ls /var/tmp 2>/dev/null | grep "^pfsd$1[^0-9]" | sed "s/^/file /"
}

# load ID NAME DURATION PARAMS... - run one load in its own session (pgid = pid); report in $TMP/NAME.json
load() {
	_id=$1 _name=$2 _dur=$3; shift 3
	setsid "$PREFLIGHT" load "$_name" -d "$_dur" -w "$TMP" -o "$TMP/$_name.json" "$@" \
		>"$TMP/$_name.out" 2>&1 &
	_pid=$!
	wait "$_pid"
	is "$?" 0 "$_id $_name ran and reported (exit 0)" || sed 's/^/#   /' "$TMP/$_name.out"
	is "$(leftovers "$_pid")" "" "$_id $_name left nothing behind (processes, netns, links, mounts, loops)"
}

# load_until ID NAME PERL PARAMS... - like load, but the load runs until its samples
# ($TMP/NAME.csv: t_ns,achieved,target, one row a second) satisfy PERL (@a: the achieved
# values), then is stopped (SIGTERM): a condition, not a time, on a CPU of any speed
load_until() {
	_id=$1 _name=$2 _cond=$3; shift 3
	setsid "$PREFLIGHT" load "$_name" -d 600s -w "$TMP" -o "$TMP/$_name.json" --samples "$TMP/$_name.csv" "$@" \
		>"$TMP/$_name.out" 2>&1 &
	_pid=$!
	wait_for 500 perl -e 'open my $f, "<", $ARGV[0] or exit 1; my @a = map { (split /,/)[1] }
		grep { /^\d/ } <$f>; exit !(eval $ARGV[1])' "$TMP/$_name.csv" "$_cond"
	kill -TERM "$_pid"
	wait "$_pid"
	is "$?" 0 "$_id $_name ran and reported (exit 0)" || sed 's/^/#   /' "$TMP/$_name.out"
	is "$(leftovers "$_pid")" "" "$_id $_name left nothing behind (processes, netns, links, mounts, loops)"
}

# num FILE PATH - a number of a report, 0 when missing
num() { v=$(json_get "$TMP/$1.json" "$2"); case "$v" in ''|null) echo 0 ;; *) echo "$v" ;; esac; }

# check EXPR DESC - a perl numeric expression as a test
check() { ok "$2" perl -e "exit !($1)"; }

# (until three seconds of samples show more than 1 Mbit/s: on an emulated CPU the namespace, the
# link and iperf3 take most of a 5 s clock to start)
load_until loads-1.1 wifi '(grep { $_ > 1e6 } @a) >= 3' rate=10mbit udp_rate=2mbit chunk=2s
check "$(num wifi achieved.received_bps) > 1e6 && $(num wifi achieved.received_bps) < 2 * 10e6" \
	"loads-1.3 wifi received a plausible rate (1..20 Mbit/s on a 10 Mbit/s link)"
check "$(num wifi achieved.udp.packets) > 0 && $(num wifi achieved.tcp.received_bytes) > 0" \
	"loads-1.4 wifi moved UDP packets and TCP bytes"
like "$(json_get "$TMP/wifi.json" achieved.udp.loss_pct)" '^[0-9.e+-]+$' "loads-1.5 wifi reports UDP loss"

# (until two seconds of samples show writes: the image, mkfs and fio start slowly on an emulated CPU)
load_until loads-2.1 sd '(grep { $_ > 0 } @a) >= 2' image=ext4 image_size=64M rate=8M fsync=8
check "$(num sd achieved.write_mb_per_s) > 0.5 && $(num sd achieved.fsyncs) > 0" \
	"loads-2.3 sd wrote MB/s on a loop ext4 image and fsynced"
check "$(num sd achieved.fsync_latency_max_ns) >= $(num sd achieved.fsync_latency_p99_ns) && $(num sd achieved.fsync_latency_p99_ns) > 0" \
	"loads-2.4 sd fsync latency p99 <= max, non-zero"
is "$(json_get "$TMP/sd.json" achieved.image)" ext4 "loads-2.5 sd wrote on the image"

load loads-3.1 spi 3s rate=500
check "$(num spi achieved.transfers) > 100 && $(num spi achieved.transfers) <= 500 * $(num spi elapsed_s) + 2" \
	"loads-3.3 spi transfers at most at the configured rate, and many"
check "$(num spi achieved.transfer_time_ns.max) >= $(num spi achieved.transfer_time_ns.min) && $(num spi achieved.transfer_time_ns.min) > 0" \
	"loads-3.4 spi every transfer timed (min > 0, max >= min)"
is "$(num spi achieved.errors)" 0 "loads-3.5 spi replies all checked correct"

# three seconds of CPU use by the load (an emulated CPU needs more than three of the clock)
load_until loads-4.1 cpu '(grep { $_ > 0 } @a) >= 3' hackbench_loops=10 stress_cpus=1 stress_load=20
check "$(num cpu achieved.hackbench.rounds) >= 1 && $(num cpu achieved.stress_ng.bogo_ops) > 0" \
	"loads-4.3 cpu hackbench rounds done, stress-ng bogo-ops counted"

# run until the samples count 2000 jobs (3 s here; the amd64 guest ran 22 in 3 s). Each task
# once a second: at 100 ms, 20 000 realtime wakeups a second took both of the armhf guest's
# emulated CPUs, and its normal threads (the test's own, the monitor) stopped for minutes
load_until loads-5.1 rt-swarm 'my $n = 0; $n += $_ for @a; $n >= 2000' tasks=2000 period=1s work=5us
is "$(num rt-swarm achieved.started)" 2000 "loads-5.3 rt-swarm started 2000 SCHED_FIFO tasks"
check "$(num rt-swarm achieved.jobs) >= 2000" "loads-5.4 rt-swarm every task ran jobs"
check "$(num rt-swarm achieved.activation_latency.count) == $(num rt-swarm achieved.jobs)" \
	"loads-5.5 rt-swarm every job's latency is in the statistics"

# Stopped on command: SIGTERM in the middle, report marked interrupted, nothing left.
setsid "$PREFLIGHT" load wifi -d 60s -w "$TMP" -o "$TMP/stop.json" chunk=2s >"$TMP/stop.out" 2>&1 &
pid=$!
wait_for 60 sh -c 'ip netns list | grep -q "^pfw$0"' "$pid"
sleep 1
kill -TERM "$pid"
wait "$pid"
is "$?" 0 "loads-6.1 SIGTERM stops a load cleanly (exit 0)"
is "$(json_get "$TMP/stop.json" interrupted)" true "loads-6.2 its report says interrupted"
is "$(leftovers "$pid")" "" "loads-6.3 and nothing is left behind"

# Stale cleanup: a load killed with SIGKILL leaves its namespace; --cleanup-stale removes it.
setsid "$PREFLIGHT" load wifi -d 60s -w "$TMP" -o "$TMP/kill.json" >"$TMP/kill.out" 2>&1 &
pid=$!
wait_for 60 sh -c 'ip netns list | grep -q "^pfw$0"' "$pid"
perl -e 'kill "KILL", -$ARGV[0]' "$pid"
wait "$pid" 2>/dev/null
"$PREFLIGHT" load --cleanup-stale
is "$(leftovers "$pid")" "" "loads-7.1 --cleanup-stale removes what a killed load left"
done_testing
