#!/bin/sh
# 0521-analyze-joblog-range.t - job-log numbers that cannot be: a row whose
# end is INT64_MAX hung analyze (stepping through every 1 s window up to it),
# and one whose cpu_ns is INT64_MAX gave an app utilisation of
# -922337203677 %, which check then passed against '<= 60 %'. A job log
# whose release_ns and start_ns columns were swapped in its header gave
# negative activation latencies (-28 us) that check passed against 62 us;
# a job starting before its release is as impossible. Each is now the
# one-line error of a bad row, exit 2, and nothing is written.
. "$(dirname "$0")/lib/test-lib.sh"
need BUILT:t/gentrace
plan 12

"$B/t/gentrace" basic "$TMP/b.dat" "$TMP/jobs.csv" >/dev/null
# the first job row: task,seq,release_ns,start_ns,end_ns,cpu_ns,...
row=$(grep -n -v '^#\|^task,' "$TMP/jobs.csv" | head -1 | cut -d: -f1)

# bad_field ID COLUMN VALUE REGEX DESC - the job log with COLUMN of its first row set to VALUE
bad_field() {
	awk -F, -v OFS=, -v n="$row" -v c="$2" -v v="$3" 'NR == n { $c = v } { print }' "$TMP/jobs.csv" > "$TMP/bad.csv"
	run_cmd timeout 60 "$PREFLIGHT" analyze -q --joblog "$TMP/bad.csv" -o "$TMP/$1.json"
	like "$rc:$err" "^2:preflight: analyze: $TMP/bad.csv:$row: bad job-log row: $4" "$1 $5: exit 2, one line (not a hang)"
	ok "$1 ... no results.json written" test ! -e "$TMP/$1.json"
}
bad_field jl-range-1.1 5 9223372036854775807 "a job of [0-9]+ s .* is not possible" "end_ns = INT64_MAX"
bad_field jl-range-1.2 6 9223372036854775807 "cpu_ns 9223372036854775807 exceeds the job's wall time" \
	"cpu_ns = INT64_MAX"
first=$(sed -n "${row}p" "$TMP/jobs.csv")
release=$(echo "$first" | cut -d, -f3)
bad_field jl-range-1.5 4 $((release - 1)) \
	"times out of order \(release $release, start $((release - 1)), .*\): a negative activation latency" \
	"start_ns 1 ns before release_ns"

# the header's release_ns and start_ns swapped: every row's latency negative
sed 's/^task,seq,release_ns,start_ns,/task,seq,start_ns,release_ns,/' "$TMP/jobs.csv" > "$TMP/bad.csv"
for in in joblog trace; do
	set -- --joblog "$TMP/bad.csv"
	[ "$in" = trace ] && set -- --trace "$TMP/b.dat" "$@"
	run_cmd "$PREFLIGHT" analyze -q "$@" -o "$TMP/swap-$in.json"
	like "$rc:$err" "^2:preflight: analyze: $TMP/bad.csv:$row: bad job-log row: times out of order .*negative activation latency" \
		"jl-range-2.$in header columns swapped ($in): exit 2, file:line of the first row"
	ok "jl-range-2.$in ... no results.json written" test ! -e "$TMP/swap-$in.json"
done

run_cmd "$PREFLIGHT" analyze -q --joblog "$TMP/jobs.csv" -o "$TMP/ok.json"
is "$rc" 0 "jl-range-1.3 the same job log unchanged analyses"
like "$(json_get "$TMP/ok.json" app.utilisation)" '^0\.[0-9]+$' "jl-range-1.4 ... with an app utilisation between 0 and 1"
