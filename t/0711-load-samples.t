#!/bin/sh
# 0711-load-samples.t - 'preflight load --samples FILE': once a second (and at
# the stop) what the load achieved over that second and its target, as a
# versioned CSV (docs/loads.md, "Samples"); none for a load with nothing to
# sample. The rates themselves are not asserted (a shared 2-vCPU machine).
. "$(dirname "$0")/lib/test-lib.sh"
need RT
need BUILT:preflight
plan 13

# samples ID NAME PARAMS... - run a load for 2.5 s with --samples; the file in $TMP/NAME.csv
samples() {
	_id=$1 _name=$2; shift 2
	run_cmd "$PREFLIGHT" load "$_name" -d 2500ms -w "$TMP" -o "$TMP/$_name.json" --samples "$TMP/$_name.csv" "$@"
	is "$rc" 0 "$_id $_name ran (exit 0)" || echo "$err" | sed 's/^/#   /'
}

samples lsamp-1.1 spi rate=500 size=64
is "$(head -3 "$TMP/spi.csv" | tr '\n' '|')" "# preflight-load-samples/1|# load=spi unit=transfers/s|t_ns,achieved,target|" \
	"lsamp-1.2 the header: version, load and unit, columns"
n=$(tail -n +4 "$TMP/spi.csv" | wc -l)
ok "lsamp-1.3 rows: one a second and one at the stop (at least one, got $n)" test "$n" -ge 1
is "$(tail -n +4 "$TMP/spi.csv" | awk -F, '$1 !~ /^[0-9]+$/ || !($2 > 0) || $3 != 500' | head -1)" "" \
	"lsamp-1.4 each row: a monotonic time, a positive rate, the target rate=500"
is "$(tail -n +4 "$TMP/spi.csv" | awk -F, 'NR > 1 && $1 <= t { print } { t = $1 }')" "" "lsamp-1.5 times increase"
# the rates add up to the report's count: the transfers of the samples' seconds are at most all of them
sum=$(tail -n +4 "$TMP/spi.csv" | awk -F, 'NR == 1 { t0 = $1 } { s += $2 * ($1 - p) / 1e9; p = $1 } NR == 1 { s = 0 } END { printf "%d", s }')
tr=$(json_get "$TMP/spi.json" achieved.transfers)
ok "lsamp-1.6 the sampled transfers ($sum after the first second) are no more than the report's ($tr)" test "$sum" -le "$tr"

samples lsamp-2.1 rt-swarm tasks=4 period=20ms work=10us
is "$(sed -n 2p "$TMP/rt-swarm.csv")" "# load=rt-swarm unit=jobs/s" "lsamp-2.2 rt-swarm counts jobs per second"
is "$(tail -n +4 "$TMP/rt-swarm.csv" | awk -F, '{ print $3 }' | sort -u)" "200" "lsamp-2.3 its target: 4 tasks / 20 ms"
# a start that takes the whole duration (1 ns here; an emulated CPU's 2.5 s): still the row at the stop
run_cmd "$PREFLIGHT" load rt-swarm -d 1ns -w "$TMP" -o "$TMP/short.json" --samples "$TMP/short.csv" tasks=4 period=20ms work=10us
is "$rc:$(tail -n +4 "$TMP/short.csv" | awk -F, '{ print $3 }' | paste -sd' ')" "0:200" \
	"lsamp-2.4 a load whose start took its whole duration: one row, at the stop, with its target"

samples lsamp-3.1 cpu hackbench_groups=1 hackbench_loops=10 stress_cpus=0
is "$(wc -l < "$TMP/cpu.csv")" 3 "lsamp-3.2 cpu without stress-ng workers: no target to sample, the header only"

mkdir "$TMP/none"
run_cmd "$PREFLIGHT" load spi -d 1500ms -w "$TMP/none" -o "$TMP/none/n.json" rate=100
is "$(ls "$TMP/none")" "n.json" "lsamp-4.1 without --samples no samples file is written"
