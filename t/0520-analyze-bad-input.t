#!/bin/sh
# 0520-analyze-bad-input.t - bad input never crashes preflight analyze: a
# truncated or corrupt trace, a job log with bad rows, bad options. Each is
# one line on stderr naming the file and the position, and exit 2 - but a
# trace cut inside its CPU data is read as far as it goes, flagged truncated.
. "$(dirname "$0")/lib/test-lib.sh"
. "$(dirname "$0")/lib/analyze-lib.sh"
need BUILT:t/gentrace
plan 31

"$GEN" basic "$TMP/b.dat" "$TMP/b.csv"
size=$(stat -c %s "$TMP/b.dat")

# one_line_error DESC PATTERN - last run_cmd: exit 2, exactly one stderr line matching PATTERN
one_line_error() {
	if [ "$rc" = 2 ] && [ "$(printf '%s\n' "$err" | wc -l)" = 1 ] && printf '%s' "$err" | grep -Eq -- "$2"; then
		_report 0 "$1"
	else
		_report 1 "$1"
		echo "#   rc=$rc stderr: $err"
	fi
}

# truncated anywhere: in the header or the options (refused), or in the CPU data (a recording
# cut short: read as far as it goes, flagged in 'incomplete')
data=$(($(trace-cmd report --stat -i "$TMP/b.dat" 2>/dev/null | sed -n 's/^CPU0 data recorded at offset=\(0x[0-9a-f]*\).*/\1/p')))
for n in 5 64 1000 3000 4096 9000 $((size - 4096)) $((size - 1)); do
	head -c "$n" "$TMP/b.dat" > "$TMP/t.dat"
	rm -f "$TMP/t.json"
	run_cmd "$PREFLIGHT" analyze -q --trace "$TMP/t.dat" -o "$TMP/t.json"
	if [ "$data" -gt 0 ] && [ "$n" -gt "$data" ]; then
		like "$rc:$(json_get "$TMP/t.json" incomplete.0)" "^0:trace: truncated: the file ends at byte $n of the $size " \
			"bad-1.$n trace cut at $n bytes, inside its CPU data: analysed, flagged truncated"
	else
		one_line_error "bad-1.$n trace truncated at $n bytes" "^preflight: analyze: .*t\.dat: .*(offset|headers)"
	fi
done
head -c 3000 "$TMP/b.dat" > "$TMP/t.dat"
rm -f "$TMP/t.json"
run_cmd "$PREFLIGHT" analyze -q --trace "$TMP/t.dat" -o "$TMP/t.json"
[ -e "$TMP/t.json" ]
is "$?" 1 "bad-1.9 no results.json from a bad trace"

# corrupt: an event id that no format describes, at a known place
off=$(trace-cmd report --stat -i "$TMP/b.dat" 2>/dev/null | sed -n 's/^CPU1 data recorded at offset=\(0x[0-9a-f]*\).*/\1/p')
perl -e 'open my $f, "+<", $ARGV[0] or die; seek $f, $ARGV[1] + 20, 0; print $f "\xff\xfe"; close $f' \
	"$TMP/b.dat" "$((off))" 2>/dev/null
cp "$TMP/b.dat" "$TMP/c.dat"
"$GEN" basic "$TMP/b.dat"
run_cmd "$PREFLIGHT" analyze -q --trace "$TMP/c.dat" -o "$TMP/t.json"
one_line_error "bad-2.1 corrupt event id: error with its offset" "c\.dat: offset $((off + 16)): corrupt trace data: CPU 1 .* id 65279"

# random corruption of the data: never a crash
crashed=0
for i in $(seq 1 20); do
	perl -e 'srand($ARGV[2]); open my $f, "+<", $ARGV[0] or die; binmode $f;
		for (1..30) { seek $f, 4096 + int(rand($ARGV[1] - 4096)), 0; print $f chr(int(rand(256))); }' \
		"$TMP/c.dat" "$size" "$i"
	"$PREFLIGHT" analyze -q --trace "$TMP/c.dat" -o "$TMP/t.json" 2>/dev/null
	r=$?
	[ "$r" = 0 ] || [ "$r" = 2 ] || crashed=$((crashed + 1))
done
is "$crashed" 0 "bad-2.2 20 randomly corrupted traces: exit 0 or 2, never a crash"

echo "not a trace" > "$TMP/n.dat"
run_cmd "$PREFLIGHT" analyze -q --trace "$TMP/n.dat"
one_line_error "bad-2.3 not a trace file" "n\.dat: offset 0: not a trace-cmd data file"
run_cmd "$PREFLIGHT" analyze -q --trace "$TMP/missing.dat"
one_line_error "bad-2.4 missing trace" "missing\.dat: No such file"
run_cmd "$PREFLIGHT" analyze -q --trace "$TMP"
one_line_error "bad-2.5 a directory" "not a regular file"

# v7 compressed, truncated in its CPU data: read as far as it goes (more in t/0523)
if trace-cmd convert -i "$TMP/b.dat" -o "$TMP/b7.dat" --file-version 7 --compression any >/dev/null 2>&1; then
	n=$(($(stat -c %s "$TMP/b7.dat") - 300))
	head -c $n "$TMP/b7.dat" > "$TMP/t7.dat"
	rm -f "$TMP/t.json"
	run_cmd "$PREFLIGHT" analyze -q --trace "$TMP/t7.dat" -o "$TMP/t.json"
	like "$rc:$(json_get "$TMP/t.json" incomplete.0)" "^0:trace: truncated: the file ends at byte $n of at least " \
		"bad-2.6 truncated compressed v7 trace: analysed, flagged truncated"
else
	_report 1 "bad-2.6 trace-cmd convert to v7 failed"
fi

# job logs: the generator's metadata and header ($H, $n lines), then bad rows
H="$TMP/head.csv"
sed -n '1,/^task,seq,/p' "$TMP/b.csv" > "$H"
n=$(grep -c '' "$H")
# jl - analyze with the job log $TMP/j.csv
jl() { run_cmd "$PREFLIGHT" analyze -q --trace "$TMP/b.dat" --joblog "$TMP/j.csv" -o "$TMP/t.json"; }
{ cat "$H"; grep -m1 '^io,' "$TMP/b.csv" | sed 's/$/,7/'; } > "$TMP/j.csv"; jl
one_line_error "bad-3.1 a row with too many fields" "j\.csv:$((n + 1)): bad job-log row: 10 fields, the header has 9"
{ cat "$H"; echo "ctl100,1,12x,1,2,3,1,0,0"; } > "$TMP/j.csv"; jl
one_line_error "bad-3.2 a field that is not a number" "j\.csv:$((n + 1)): bad job-log row: release_ns '12x' is not a number"
{ cat "$H"; echo "ctl100,1,50,100,110,3,1,0,0"; echo "ctl100,2,2000000000,1,0,3,1,0,0"; } > "$TMP/j.csv"; jl
one_line_error "bad-3.3 times out of order" "j\.csv:$((n + 2)): bad job-log row: times out of order"
tail -n +2 "$TMP/b.csv" > "$TMP/j.csv"; jl
one_line_error "bad-3.4 no version header" "j\.csv:$((n - 1)): not a preflight job log"
sed 's/^# preflight-joblog v1/# preflight-joblog v9/' "$TMP/b.csv" > "$TMP/j.csv"; jl
one_line_error "bad-3.5 unknown version" "j\.csv:1: job-log format v9 is not supported"
sed 's/,cpu_ns,/,cpu_time,/' "$TMP/b.csv" > "$TMP/j.csv"; jl
one_line_error "bad-3.6 a required column missing" "j\.csv:$n: bad job-log header: no 'cpu_ns' column"
{ cat "$H"; printf 'ctl100,"1,2\n'; } > "$TMP/j.csv"; jl
one_line_error "bad-3.7 an unterminated quote" "j\.csv:[0-9]+: bad job-log row"
{ cat "$H"; echo "ctl100,-1,1,1,1,1,1,0,0"; } > "$TMP/j.csv"; jl
one_line_error "bad-3.8 a negative seq" "j\.csv:$((n + 1)): bad job-log row: seq '-1'"
printf '' > "$TMP/j.csv"; jl
one_line_error "bad-3.9 an empty file" "j\.csv: not a preflight job log"

# options
run_cmd "$PREFLIGHT" analyze
one_line_error "bad-4.1 nothing to analyze" "nothing to analyze"
mkdir "$TMP/emptyrun"
run_cmd "$PREFLIGHT" analyze "$TMP/emptyrun"
one_line_error "bad-4.1a a run directory with nothing in it: named, and what was looked for" \
	"emptyrun: nothing to analyze: no trace.dat, trace-NNN.dat, jobs.csv or cyclictest.json in it"
mkdir "$TMP/badrun" "$TMP/badrun/01-idle"
cp "$TOP/t/fixtures/cyclictest/us.json" "$TMP/badrun/01-idle/cyclictest.json"
printf '{"complete": tru' > "$TMP/badrun/run.json"
run_cmd "$PREFLIGHT" analyze "$TMP/badrun"
one_line_error "bad-4.1b a run directory whose run.json is not JSON: file:line:column, not a guess that it was killed" \
	"badrun/run.json:1:[0-9]+: not a run manifest"
run_cmd "$PREFLIGHT" analyze --trace "$TMP/b.dat" --top x
one_line_error "bad-4.2 --top not a number" "--top: 'x'"
run_cmd "$PREFLIGHT" analyze --trace "$TMP/b.dat" --slot-ms 0
one_line_error "bad-4.3 --slot-ms 0" "--slot-ms: '0'"
run_cmd "$PREFLIGHT" analyze "$TMP/nodir"
one_line_error "bad-4.4 RUN_DIR missing" "nodir: not a run directory"
run_cmd "$PREFLIGHT" analyze --help
like "$out" '--top N .*default: 5' "bad-4.5 --help lists the options with defaults"
done_testing
