#!/bin/sh
# 0908-ci-unsafe-input.t - compare and history on hostile or mistaken input
# (issue 27): a results.json given as a baseline (the schema named after the
# file was freed), a board that is markup in the JUnit XML, history commands that read never create a database, an add
# that fails adds nothing, no output lands in a run's evidence directory,
# options of another subcommand are refused, a --plot name or a kernel
# release is never code for gnuplot, and an add on a full disk is exit 3.
. "$(dirname "$0")/lib/test-lib.sh"
need BUILT:preflight BUILT:t/ci_genruns
need CMD:sqlite3
plan 30

G="$B/t/ci_genruns"
D="$TMP/runs"
"$G" "$D" --runs 3 --seed 31 || exit 1
cd "$TMP" || exit 1

# --- ci-unsafe-1: compare --baseline on a results.json (ci/compare.c read its schema after the free)
run_cmd "$PREFLIGHT" compare --baseline "$D/run-01/results.json" "$D/run-02"
is "$rc:$err" "2:preflight: compare: $D/run-01/results.json: not a baseline (schema preflight-results/1, expected preflight-baseline/1)" \
	"ci-unsafe-1.1 a results.json is not a baseline: its schema named, exit 2"

# --- ci-unsafe-1.2: compare's JUnit XML escapes the board in its attributes as in its text
"$G" "$TMP/jb" --runs 10 --seed 33 --board 'b"<x>'"'" >/dev/null &&
"$G" "$TMP/jn" --runs 3 --seed 34 --first 11 --board 'b"<x>'"'" >/dev/null || exit 1
"$PREFLIGHT" baseline create "$TMP"/jb/run-* -o "$TMP/jb.json" >/dev/null
if test_have_prereq CMD:xmllint; then
	run_cmd "$PREFLIGHT" compare --baseline "$TMP/jb.json" "$TMP"/jn/run-* --junit "$TMP/j.xml" --tap /dev/null
	ok "ci-unsafe-1.2 a board with quotes and markup: the JUnit XML is well-formed" xmllint --noout "$TMP/j.xml"
else
	skip "ci-unsafe-1.2" "$prereq_why"
fi

# --- ci-unsafe-1.4: a --tolerance-for that matches no metric is a mistake, said
run_cmd "$PREFLIGHT" baseline create "$TMP"/jb/run-* -o "$TMP/jt.json" --tolerance-for '*.exec-time.*=5%'
is "$rc:$(test -e "$TMP/jt.json" && echo written):$err" \
	"2::preflight: baseline: --tolerance-for '*.exec-time.*' matches no metric of the runs (results.json paths, e.g. tasks.io.activation_latency_ns.p99, or io.activation_latency.p99; '*' for any part; docs/ci.md lists them)" \
	"ci-unsafe-1.4 --tolerance-for matching nothing: exit 2, no baseline"

# --- ci-unsafe-1.3: one run is "1 run"
run_cmd "$PREFLIGHT" compare --baseline "$TMP/jb.json" "$TMP/jn/run-11" --tap /dev/null
like "$out" "^compare: .* \(1 run against $TMP/jb.json\)$" "ci-unsafe-1.3 compare of one run: '1 run', not '1 runs'"

# --- ci-unsafe-2: read commands never create a database
run_cmd "$PREFLIGHT" history list --db typo.sqlite
is "$rc:$(test -e typo.sqlite && echo created)" "2:" "ci-unsafe-2.1 list on a missing database: exit 2, no file left"
like "$err" "typo.sqlite: no such history database \(history add creates one\)" "ci-unsafe-2.2 ... and says so"
run_cmd "$PREFLIGHT" history trend --db typo.sqlite --metric tasks.io.activation_latency_ns.max
is "$rc:$(test -e typo.sqlite && echo created)" "2:" "ci-unsafe-2.3 trend neither"
run_cmd "$PREFLIGHT" history export --db typo.sqlite --squad "$TMP/sq"
is "$rc:$(test -e typo.sqlite && echo created)" "2:" "ci-unsafe-2.4 export neither"

# --- ci-unsafe-3: an add that fails adds nothing
run_cmd "$PREFLIGHT" history add --db h.sqlite "$D/run-01" "$TMP/nonexistent"
is "$rc:$(test -e h.sqlite && echo created)" "2:" "ci-unsafe-3.1 one bad run of two: exit 2, no database made"
run_cmd "$PREFLIGHT" history add --db h.sqlite "$D/run-01"
is "$rc" 0 "ci-unsafe-3.2 one run added"
run_cmd "$PREFLIGHT" history add --db h.sqlite "$D/run-02" "$TMP/nonexistent" "$D/run-03"
is "$rc:$(sqlite3 h.sqlite 'SELECT count(*) FROM runs')" "2:1" "ci-unsafe-3.3 a bad run among good ones: none of them added"
mkdir "$TMP/bare" && cp "$D/run-02/results.json" "$TMP/bare/"
run_cmd "$PREFLIGHT" history add --db h.sqlite "$TMP/bare/results.json"
is "$rc:$(sqlite3 h.sqlite 'SELECT count(*) FROM runs')" "2:1" "ci-unsafe-3.4 a results.json with no run.json or sysinfo.json: refused"
like "$err" "no run.json or sysinfo.json beside its results.json" "ci-unsafe-3.5 ... saying why"
run_cmd "$PREFLIGHT" history add --db h.sqlite "$D/run-02" "$D/run-03"
is "$rc:$out" "0:history: 2 runs added, 0 already there" "ci-unsafe-3.6 the good ones alone: added"

# --- ci-unsafe-4: nothing written into a run directory (SHA256SUMS: evidence)
(cd "$D/run-01" && sha256sum results.json run.json sysinfo.json > SHA256SUMS)
run_cmd "$PREFLIGHT" history export --db h.sqlite --squad "$D/run-01"
is "$rc:$(ls "$D/run-01" | paste -sd' ')" "2:SHA256SUMS results.json run.json scenario.ini sysinfo.json" \
	"ci-unsafe-4.1 export --squad RUN: refused, the run directory untouched"
run_cmd "$PREFLIGHT" history trend --db h.sqlite --metric tasks.io.activation_latency_ns.max --csv "$D/run-01/trend.csv"
is "$rc:$(test -e "$D/run-01/trend.csv" && echo written)" "2:" "ci-unsafe-4.2 trend --csv into a run directory: refused"

# --- ci-unsafe-5: an option of another subcommand, an argument list does not take
run_cmd "$PREFLIGHT" history trend --db h.sqlite --metric tasks.io.activation_latency_ns.max --squad "$TMP/sq"
is "$rc:$err" "2:preflight: history: trend: --squad is an option of export only (see 'preflight history --help')" \
	"ci-unsafe-5.1 trend --squad: exit 2"
run_cmd "$PREFLIGHT" history list --db h.sqlite "$D/run-01"
is "$rc" 2 "ci-unsafe-5.2 list RUN: exit 2"

# --- ci-unsafe-5.3: a metric the history lacks: nothing on stdout, the metrics there are named
run_cmd "$PREFLIGHT" history trend --db h.sqlite --metric io.activation_latency.maximum
is "$rc:$out" "2:" "ci-unsafe-5.3 a wrong trend metric: exit 2, no CSV header first"
like "$err" "no run has metric 'io.activation_latency.maximum' \(tasks\.io\.activation_latency_ns\.maximum\); the history's metrics: .*tasks\.io\.activation_latency_ns\.max, " \
	"ci-unsafe-5.4 ... and the error lists the valid names"
# --budget as check writes budgets: with its unit
run_cmd "$PREFLIGHT" history trend --db h.sqlite --metric tasks.io.activation_latency_ns.max --budget 62us --csv /dev/null
is "$rc:$err" "0:" "ci-unsafe-5.5 --budget 62us: a time with its unit is accepted"
run_cmd "$PREFLIGHT" history trend --db h.sqlite --metric tasks.io.overruns --budget 62us --csv /dev/null
like "$rc:$err" "^2:.*--budget is a time, metric 'tasks.io.overruns' is not" "ci-unsafe-5.6 ... but not for a count"

# --- ci-unsafe-6: gnuplot gets data, never code
if test_have_prereq CMD:gnuplot; then
	run_cmd "$PREFLIGHT" history trend --db h.sqlite --metric tasks.io.activation_latency_ns.max --csv /dev/null \
		--plot "a.svg'; system('touch PWNED'); set output 'b.svg"
	is "$rc:$(test -e "$TMP/PWNED" && echo PWNED):$(head -c 5 "$TMP/a.svg'; system('touch PWNED'); set output 'b.svg" 2>/dev/null)" \
		"0::<?xml" "ci-unsafe-6.1 --plot with a quote: no command run, the SVG under that very name"
	sqlite3 h.sqlite "UPDATE runs SET kernel_release = '6.1''
EOD
system(\"touch PWNED2\")
\$x << EOD' WHERE uuid = (SELECT min(uuid) FROM runs)"
	run_cmd "$PREFLIGHT" history trend --db h.sqlite --metric tasks.io.activation_latency_ns.max --csv /dev/null --plot k.svg
	is "$rc:$(test -e "$TMP/PWNED2" && echo PWNED2)" "0:" "ci-unsafe-6.2 a kernel release with a newline and EOD: data, no command run"
	run_cmd "$PREFLIGHT" history trend --db h.sqlite --metric tasks.io.activation_latency_ns.max --csv /dev/null \
		--plot /nonexistent/x.svg
	is "$rc:$out:$err" "2::preflight: history: /nonexistent/x.svg: cannot write: No such file or directory" \
		"ci-unsafe-6.3 --plot in a missing directory: one line naming it, nothing on stdout"
	"$G" "$TMP/one" --runs 1 --seed 32 --first 9 >/dev/null || exit 1
	"$PREFLIGHT" history add --db one.sqlite "$TMP/one/run-09" >/dev/null || exit 1
	run_cmd "$PREFLIGHT" history trend --db one.sqlite --metric tasks.io.activation_latency_ns.max --csv /dev/null --plot one.svg
	is "$rc:$err" "0:" "ci-unsafe-6.4 one run: plotted, nothing of gnuplot's on stderr"
else
	skip "ci-unsafe-6.1 ci-unsafe-6.2 ci-unsafe-6.3 ci-unsafe-6.4" "$prereq_why"
fi

# --- ci-unsafe-7: history add on a full disk (a small tmpfs, filled): exit 3 as the README's table
# says, one line (it was exit 2 and a second line, "cannot rollback - no transaction is active"),
# no database left by the add that made it, and a database that was there keeps its runs
if test_have_prereq ROOT && mkdir "$TMP/fs" && mount -t tmpfs -o size=1m "pf-t0908-$$" "$TMP/fs"; then
	cp h.sqlite "$TMP/fs/kept.sqlite"
	"$G" "$TMP/more" --runs 1 --seed 33 --first 4 >/dev/null || exit 1
	dd if=/dev/zero of="$TMP/fs/fill" bs=4k 2>/dev/null
	run_cmd "$PREFLIGHT" history add --db "$TMP/fs/h.sqlite" "$D/run-01"
	is "$rc:$err" "3:preflight: history: sqlite: database or disk is full" "ci-unsafe-7.1 add onto a full disk: exit 3, one line"
	ok "ci-unsafe-7.2 ... no database left behind" test ! -e "$TMP/fs/h.sqlite"
	run_cmd "$PREFLIGHT" history add --db "$TMP/fs/kept.sqlite" "$TMP/more/run-04"
	is "$rc:$(printf '%s\n' "$err" | wc -l):$(sqlite3 "$TMP/fs/kept.sqlite" 'SELECT count(*) FROM runs')" "3:1:3" \
		"ci-unsafe-7.3 an add to a database there before: exit 3, one line, its runs kept"
	run_cmd "$PREFLIGHT" history export --db h.sqlite --squad "$TMP/fs/sq"
	is "$rc:$(printf '%s\n' "$err" | wc -l):$(test -e "$TMP/fs/sq" && echo left)" "3:1:" \
		"ci-unsafe-7.4 export onto a full disk: exit 3, one line, no part of a submission left, nor the directory it made"
	umount "$TMP/fs"
else
	skip "ci-unsafe-7.1 ci-unsafe-7.2 ci-unsafe-7.3 ci-unsafe-7.4" "${prereq_why:-cannot mount a tmpfs}"
fi
done_testing
