#!/bin/sh
# 0521-analyze-joblog-range.t - job-log numbers that cannot be: a row whose
# end is INT64_MAX hung analyze (stepping through every 1 s window up to it),
# and one whose cpu_ns is INT64_MAX gave an app utilisation of
# -922337203677 %, which check then passed against '<= 60 %'. Each is now
# the one-line error of a bad row, exit 2, and nothing is written.
. "$(dirname "$0")/lib/test-lib.sh"
need BUILT:t/gentrace
plan 6

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
run_cmd "$PREFLIGHT" analyze -q --joblog "$TMP/jobs.csv" -o "$TMP/ok.json"
is "$rc" 0 "jl-range-1.3 the same job log unchanged analyses"
like "$(json_get "$TMP/ok.json" app.utilisation)" '^0\.[0-9]+$' "jl-range-1.4 ... with an app utilisation between 0 and 1"
