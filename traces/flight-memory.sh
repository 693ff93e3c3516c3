#!/bin/sh
# flight-memory.sh - the flight recorder's memory over a long run of short-lived processes (the
# shape of the seed and soak scenarios: hackbench spawns thousands of processes, every one a new
# pid for the recorder's pid -> comm table):
#
#   traces/flight-memory.sh [SECONDS] [SNAPSHOT_EVERY_S]   (default 120 s, a snapshot every 5 s;
#                                                          needs root, tracefs, hackbench)
#
# 'preflight record --flight-recorder' runs a loop of 'hackbench -g 4 -l 50' (about 160 new
# processes a round) and gets SIGUSR1 every SNAPSHOT_EVERY_S seconds, each a snapshot. Printed:
# the recorder's resident and anonymous memory (VmRSS, RssAnon of /proc/PID/status) every 10 s,
# the processes the run created (pids wrap at pid_max, 32768 by default), the snapshots written, and the growth from the first sample to the
# last, and from the first snapshot on (its buffers are allocated once): flat is the goal (a table
# that kept every pid ever seen grew by about 64 bytes a pid, up to pid_max: 32768 pids here,
# 4194304 on a 64-bit systemd machine).
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
P=${PREFLIGHT:-$TOP/build/preflight}	# PREFLIGHT=another build: the same run with that one
SECS=${1:-120}
EVERY=${2:-5}
TMP=$(mktemp -d "${TMPDIR:-/tmp}/preflight-flightmem.XXXXXX")
REC=
trap '[ -n "$REC" ] && kill -INT "$REC" 2>/dev/null; wait 2>/dev/null; rm -rf "$TMP"' EXIT INT TERM

command -v hackbench >/dev/null || { echo "flight-memory.sh: hackbench missing (rt-tests)" >&2; exit 3; }
[ -x "$P" ] || { echo "flight-memory.sh: $P missing: run make" >&2; exit 3; }

# status_kb PID FIELD - one field of /proc/PID/status, in kB
status_kb() { awk -v f="$2:" '$1 == f { print $2 }' "/proc/$1/status" 2>/dev/null; }

# forks - processes created since boot (/proc/stat): pids wrap at pid_max, this does not
forks() { awk '$1 == "processes" { print $2 }' /proc/stat; }
forks0=$(forks)
"$P" record -q --flight-recorder --window 2s --max-snapshots 10000 -o "$TMP/snap.dat" -- \
	sh -c "end=\$((\$(date +%s) + $SECS)); while [ \$(date +%s) -lt \$end ]; do hackbench -g 4 -l 50 >/dev/null 2>&1; done" &
REC=$!
# the recorder is the child that runs the command's parent: wait until it has started the loop
while ! pgrep -P "$REC" >/dev/null 2>&1 && kill -0 "$REC" 2>/dev/null; do sleep 0.1; done

printf '%8s %10s %10s %8s %10s\n' seconds rss_kb anon_kb pids snapshots
t=0
rss0= anon0= rss1= anon1= rss= anon=
while kill -0 "$REC" 2>/dev/null && [ "$t" -le "$SECS" ]; do
	if [ $((t % 10)) -eq 0 ]; then
		rss=$(status_kb "$REC" VmRSS) anon=$(status_kb "$REC" RssAnon)
		[ -z "$rss" ] && break
		[ -z "$rss0" ] && rss0=$rss anon0=$anon
		# the steady state: from the first sample after a snapshot (its buffers allocated once)
		[ -z "$rss1" ] && [ "$(ls "$TMP" | grep -c '^snap-')" -gt 0 ] && rss1=$rss anon1=$anon
		printf '%8d %10s %10s %8d %10d\n' "$t" "$rss" "$anon" $(($(forks) - forks0)) \
			"$(ls "$TMP" | grep -c '^snap-')"
	fi
	[ $((t % EVERY)) -eq 0 ] && [ "$t" -gt 0 ] && kill -USR1 "$REC" 2>/dev/null
	sleep 1
	t=$((t + 1))
done
wait "$REC"
REC=
echo "from the start: VmRSS ${rss0:-?} -> ${rss:-?} kB, RssAnon ${anon0:-?} -> ${anon:-?} kB over $SECS s"
echo "from the first snapshot on: VmRSS ${rss1:-?} -> ${rss:-?} kB, RssAnon ${anon1:-?} -> ${anon:-?} kB"
