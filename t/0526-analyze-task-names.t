#!/bin/sh
# 0526-analyze-task-names.t - task names and paths that are not what the
# documents say (issue 27 item 4). A task name holding a byte that is not
# UTF-8 gave "(null)" in analyze's summary, a tasks[] entry with no 'name'
# and then an anonymous 'ok' line in check; a name with a space was taken as
# it was. Every reader now enforces the documented syntax, [A-Za-z0-9_]{1,15}
# (docs/joblog.md, docs/markers.md), with file:line (a trace: its byte
# offset), exit 2 and nothing written. A path that is not UTF-8 left
# inputs.trace out of results.json without a word: it is written with \xNN
# for its other bytes, and said on stderr.
. "$(dirname "$0")/lib/test-lib.sh"
need BUILT:t/gentrace
plan 18

"$B/t/gentrace" basic "$TMP/b.dat" "$TMP/jobs.csv" >/dev/null
row=$(grep -n '^io,' "$TMP/jobs.csv" | head -1 | cut -d: -f1)
decl=$(grep -n '^# task\.io=' "$TMP/jobs.csv" | cut -d: -f1)
FF=$(printf '\377')

# bad_joblog ID SED REGEX DESC - analyze the job log edited by SED: exit 2, one line matching REGEX
bad_joblog() {
	sed "$2" "$TMP/jobs.csv" > "$TMP/bad.csv"
	run_cmd "$PREFLIGHT" analyze -q --joblog "$TMP/bad.csv" -o "$TMP/$1.json"
	like "$rc:$err" "^2:preflight: analyze: $TMP/bad\.csv:$3" "$1 $4: exit 2, file:line"
	ok "$1 ... no results.json written" test ! -e "$TMP/$1.json"
}
bad_joblog names-1.1 "s/^io,/i${FF}o,/" "$row: bad job-log row: task name 'i\\\\xffo' is not \\[A-Za-z0-9_\\]\\{1,15\\}$" \
	"a row's task name with a byte that is not UTF-8"
bad_joblog names-1.2 "s/^io,/i o,/" "$row: bad job-log row: task name 'i o' is not" "a task name with a space"
bad_joblog names-1.3 "s/^# task\\.io=/# task.i${FF}o=/" "$decl: bad job-log line: task name 'i\\\\xffo' is not" \
	"a declaration's task name not UTF-8"
printf '# dropped.i%so=1\n' "$FF" >> "$TMP/jobs.csv"
last=$(grep -c '' "$TMP/jobs.csv")
bad_joblog names-1.4 "" "$last: bad job-log line: task name 'i\\\\xffo' is not" "a trailer's task name not UTF-8"

# a trace whose task marker declares a name with a byte that is not UTF-8 (same length)
perl -0777 -pe 's/pf1 T 1 ctl100/pf1 T 1 ctl\xff00/' "$TMP/b.dat" > "$TMP/nb.dat"
run_cmd "$PREFLIGHT" analyze -q --trace "$TMP/nb.dat" -o "$TMP/nb.json"
like "$rc:$err" "^2:preflight: analyze: $TMP/nb\.dat: offset [0-9]+: bad task marker 'pf1 T 1 ctl\\\\xff00 tid=100 [^']*': task name is not" \
	"names-2.1 a trace's task marker with a name not UTF-8: exit 2, the marker's offset"
ok "names-2.2 ... no results.json written" test ! -e "$TMP/nb.json"

# paths that are not UTF-8: kept in results.json, said on stderr
D="$TMP/d$(printf '\351')j"
mkdir "$D"
"$B/t/gentrace" basic "$D/b.dat" "$D/jobs.csv" >/dev/null
run_cmd "$PREFLIGHT" analyze -q --trace "$D/b.dat" --joblog "$D/jobs.csv" -o "$TMP/p.json"
is "$rc" 0 "names-3.1 a trace and job log under a directory whose name is not UTF-8 analyse"
is "$(json_get "$TMP/p.json" inputs.trace)" "$TMP/d\\xe9j/b.dat" "names-3.2 ... inputs.trace kept, the byte as \\xe9"
is "$(json_get "$TMP/p.json" inputs.joblog)" "$TMP/d\\xe9j/jobs.csv" "names-3.3 ... inputs.joblog kept"
is "$(json_get "$TMP/p.json" trace.file)" "$TMP/d\\xe9j/b.dat" "names-3.4 ... trace.file kept"
like "$err" "note: the trace path is not UTF-8: results.json inputs.trace holds it as $TMP/d\\\\xe9j/b.dat" \
	"names-3.5 ... and said on stderr"

# check: a results.json task without a name, or with one outside the syntax, is refused (no anonymous line)
run_cmd "$PREFLIGHT" analyze -q --joblog "$D/jobs.csv" -o "$TMP/ok.json"
perl -0777 -pe 's/"name": "io",//' "$TMP/ok.json" > "$TMP/noname.json"
run_cmd "$PREFLIGHT" check --budgets "$TOP/budgets/seed.ini" "$TMP/noname.json"
like "$rc:$err" "^2:preflight: check: $TMP/noname\.json: tasks\\[0\\]: no 'name' \\(a task name" \
	"names-4.1 check: a task without a name is refused, exit 2"
is "$(printf '%s\n' "$out" | grep -c 'REQ-LAT-001 activation_latency')" 0 "names-4.2 ... no anonymous verdict line"
perl -0777 -pe 's/"name": "io"/"name": "i o"/' "$TMP/ok.json" > "$TMP/space.json"
run_cmd "$PREFLIGHT" check --budgets "$TOP/budgets/seed.ini" "$TMP/space.json"
like "$rc:$err" "^2:preflight: check: $TMP/space\.json: tasks\\[0\\]: name 'i o' is not a task name" \
	"names-4.3 check: a task name with a space is refused"
