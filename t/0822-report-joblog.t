#!/bin/sh
# 0822-report-joblog.t - 'preflight report' reads the app phase's jobs.csv
# through the one job-log reader (lib/joblog_read.c), as 'preflight analyze'
# does (issue 29): a job log of another format version, without its version
# line, or with a row that cannot be is refused with one line naming the file
# and the line (exit 2, no report written), never drawn from; the old and the
# new version line, and metadata keys the report does not know, give the same
# bytes (the figures T1, R1, U1 are drawn from the rows alone).
. "$(dirname "$0")/lib/test-lib.sh"
need BUILT:t/gentrace
need BUILT:preflight
need CMD:gnuplot
plan 13

"$TOP/t/fixtures/report/make-rundir.sh" full "$TMP/run" >"$TMP/mk.log" 2>&1 || { sed 's/^/# /' "$TMP/mk.log"; exit 1; }
JL="$TMP/run/03-app/jobs.csv"
cp "$JL" "$TMP/jobs.orig"
# figures FILE - the ids of the figures, in order
figures() { grep -o '<figure id="fig-[A-Z0-9.]*"' "$1" | sed 's/.*fig-//; s/"//' | tr '\n' ' '; }
# line PATTERN - the number of the first line of the original job log matching PATTERN
line() { grep -n "$1" "$TMP/jobs.orig" | head -1 | cut -d: -f1; }

run_cmd "$PREFLIGHT" report "$TMP/run" -o "$TMP/plain.html"
is "$rc" 0 "report-jl-1.1 the fixture's job log: exit 0" || printf '%s\n' "$err" | sed 's/^/#   /'
is "$(figures "$TMP/plain.html" | grep -o 'T1 R1 U1')" "T1 R1 U1" "report-jl-1.2 the figures of the job log are drawn"

# refused ID EDIT WHY - the job log edited by the sed script EDIT is refused with one line WHY (a regex)
refused() {
	cp "$TMP/jobs.orig" "$JL"
	sed -i "$2" "$JL"
	rm -f "$TMP/bad.html"
	run_cmd "$PREFLIGHT" report "$TMP/run" -o "$TMP/bad.html"
	like "$rc:$(printf '%s\n' "$err" | wc -l):$err" "^2:1:preflight: report: $JL:$3" "report-jl-$1 refused: exit 2, one line naming file and line"
}
refused 2.1 '1s|.*|# preflight-joblog/2|' '1: job-log format v2 is not supported \(v1 is\)$'
ok "report-jl-2.2 ... and no report written" test ! -e "$TMP/bad.html"
refused 2.3 '1s|.*|# preflight-joblog v3|' '1: job-log format v3 is not supported \(v1 is\)$'
N=$(line '^task,')
refused 2.4 '1d' "$((N - 1)): not a preflight job log \\(no '# preflight-joblog/1' line first\\)\$"
N=$(line '^ctl100,2,')
refused 2.5 "${N}s|^ctl100,2,\\([0-9]*\\),\\([0-9]*\\),|ctl100,2,\\1,12x4,|" "$N: bad job-log row: start_ns '12x4' is not a number >= 0\$"
# release and start swapped: a negative activation latency the old positional read drew as one
refused 2.6 "${N}s|^ctl100,2,\\([0-9]*\\),\\([0-9]*\\),|ctl100,2,\\2,\\1,|" "$N: bad job-log row: times out of order .*activation latency"
refused 2.7 "${N}s|,[0-9]*,1,0,0\$|,1,0|" "$N: bad job-log row: 7 fields, the header has 9\$"

# the same rows under the old version line and with keys the report does not know: the same bytes
cp "$TMP/jobs.orig" "$JL"
sed -i '1s|.*|# preflight-joblog/1|; 2i # a_new_key=1' "$JL"
echo '# another_new_key=2' >> "$JL"
run_cmd "$PREFLIGHT" report "$TMP/run" -o "$TMP/new.html"
is "$rc" 0 "report-jl-3.1 '# preflight-joblog/1' and unknown keys: exit 0" || printf '%s\n' "$err" | sed 's/^/#   /'
ok "report-jl-3.2 ... the same report as '# preflight-joblog v1' gives" cmp "$TMP/plain.html" "$TMP/new.html"
# a last line cut short (a crash, a full disk): the rows before it are drawn, as analyze reads them
cp "$TMP/jobs.orig" "$JL"
printf 'io,99,100' >> "$JL"
run_cmd "$PREFLIGHT" report "$TMP/run" -o "$TMP/cut.html"
is "$rc" 0 "report-jl-3.3 a job log whose last line is cut short: exit 0" || printf '%s\n' "$err" | sed 's/^/#   /'
ok "report-jl-3.4 ... the line skipped, the report the same" cmp "$TMP/plain.html" "$TMP/cut.html"
cp "$TMP/jobs.orig" "$JL"
