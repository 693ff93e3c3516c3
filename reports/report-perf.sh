#!/bin/sh
# report-perf.sh - the reviewer report's benchmark ('make perf'): render time and size of
# 'preflight report' for (1) a small run directory made from fixtures, (2) a synthetic hour of
# the app (about 400 000 jobs in the job log, as a 1-hour seed run), (3) every run directory
# given as argument (a quick run, say: 'build/preflight run quick -o DIR'), and (4) for the first
# of them, the synthetic hour with that run's results.json (a real trace's threads, culprits and
# timelines: a seed run's results.json is as big as a quick run's or bigger). Goals: quick <= 10 s,
# 1-hour seed <= 30 s, HTML <= 5 MB; the last column says whether both were met.
#
#   reports/report-perf.sh [RUN_DIR...]
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
P="$TOP/build/preflight"
TMP=$(mktemp -d "${TMPDIR:-/tmp}/preflight-bench.XXXXXX")
trap 'rm -rf "$TMP"' EXIT

command -v gnuplot >/dev/null || { echo "bench-report: gnuplot is not installed" >&2; exit 3; }
[ -x "$TOP/build/t/gentrace" ] || { echo "bench-report: build/t/gentrace is not built (make unit-tests)" >&2; exit 3; }

# render LABEL DIR GOAL_S - render DIR's report, print the time and size, and whether the goals were met
render() {
	t0=$(date +%s.%N)
	"$P" report "$2" -o "$TMP/r.html" >/dev/null 2>"$TMP/err" || { echo "bench-report: $1: $(cat "$TMP/err")" >&2; return; }
	t1=$(date +%s.%N)
	jobs=$(grep -vc '^#\|^task,' "$(find "$2" -name jobs.csv | head -1)" 2>/dev/null || echo 0)
	secs=$(echo "$t1 - $t0" | bc)
	mb=$(echo "$(stat -c %s "$TMP/r.html") / 1048576" | bc -l)
	printf '%-34s %10s %10.2f %10.2f %8s %8s\n' "$1" "$jobs" "$secs" "$mb" "$(grep -c '<figure' "$TMP/r.html")" \
		"$(echo "$secs <= $3 && $mb <= 5" | bc | sed 's/1/ok/; s/^0$/MISSED/') (<= $3 s, 5 MB)"
}

echo "# preflight report benchmark: $(nproc) CPUs, $(uname -r), $(gnuplot --version)"
printf '%-34s %10s %10s %10s %8s %8s\n' "# run directory" "jobs" "render_s" "html_MB" "figures" "goal"
"$TOP/t/fixtures/report/make-rundir.sh" full "$TMP/small" >/dev/null 2>&1 && render "fixtures (small)" "$TMP/small" 10

# half an hour of two 100 Hz tasks and a 10 Hz one (378 000 jobs, about a 1-hour seed run), long-tailed latencies
mkdir -p "$TMP/hour"
awk 'BEGIN {
	print "# preflight-joblog/1"; print "# slot_ns=10000000"; print "# start_mono_ns=1000000000000"
	print "# task.io=id=0 kind=tick period_ns=10000000 deadline_ns=10000000 policy=fifo prio=90"
	print "# task.ctl100=id=1 kind=periodic period_ns=10000000 deadline_ns=10000000 policy=fifo prio=80"
	print "# task.nav10=id=2 kind=periodic period_ns=100000000 deadline_ns=100000000 policy=fifo prio=70"
	print "task,seq,release_ns,start_ns,end_ns,cpu_ns,cpu,flags,missed"
	srand(1); t = 1000000000000
	for (k = 0; k < 180000; k++) {
		r = t + k * 10000000
		for (i = 0; i < 2; i++) {
			lat = 20000 + int(30000 * rand() ^ 4) + (rand() < 0.0001 ? int(2000000 * rand()) : 0)
			printf "%s,%d,%.0f,%.0f,%.0f,%d,%d,0,0\n", i ? "ctl100" : "io", k, r, r + lat, r + lat + 300000 * (i + 1), 300000 * (i + 1), i
		}
		if (k % 10 == 0) {
			lat = 200000 + int(100000 * rand() ^ 3)
			printf "nav10,%d,%.0f,%.0f,%.0f,1000000,1,0,0\n", k / 10, r, r + lat, r + lat + 1000000
		}
	}
}' > "$TMP/hour/jobs.csv"
"$P" analyze -q --joblog "$TMP/hour/jobs.csv" -o "$TMP/hour/results.json" && render "synthetic 378k jobs" "$TMP/hour" 30

for d in "$@"; do
	render "$(basename "$d")" "$d" 10
done
if [ $# -gt 0 ] && [ -s "$1/results.json" ]; then
	mkdir -p "$TMP/hour-real"
	cp "$TMP/hour/jobs.csv" "$TMP/hour-real/jobs.csv"
	# the first run's results.json, its job log pointed at the synthetic hour's
	sed 's|"joblog": *"[^"]*"|"joblog": "'"$TMP/hour-real/jobs.csv"'"|' "$1/results.json" > "$TMP/hour-real/results.json"
	render "378k jobs + $(basename "$1")'s results" "$TMP/hour-real" 30
fi
