#!/bin/sh
# 0909-ci-compare-tail.t - compare's rule tail-1e-6 (issue 28 item 4): the
# baseline keeps per task the fitted 1e-6 level of every run with its 95 %
# interval (or why a run has none), and compare judges a move of that level
# from both intervals. Synthetic runs (build/t/ci_genruns) given tail objects
# whose levels are known (settail LEVEL LO HI, in us): every number below is
# known by construction.
#   baseline: run i (1..10) level 100 + 0.5 (i - 1) us, interval level - 20 .. level + 30:
#   median 102.25 us, intervals 80 .. 134.5 us, tolerance 10 % of the median, 10.225 us
. "$(dirname "$0")/lib/test-lib.sh"
need BUILT:preflight BUILT:t/ci_genruns
plan 34

G="$B/t/ci_genruns"
D="$TMP/runs"
K='tasks.io.tail.activation_latency_ns.pwcet(1e-6)'
mkdir -p "$D"

# jp FILE EXPR - print a perl expression over the decoded JSON file ($j)
jp() { perl -MJSON::PP -e 'local $/; open my $f, "<", $ARGV[0] or die; my $j = decode_json(<$f>); print eval $ARGV[1]' "$1" "$2"; }

# verdict FILE - "state rule" of the tail verdict in a compare.json
verdict() { jp "$1" "join '', map { \$_->{key} eq '$K' ? \"\$_->{state} \$_->{rule}\" : () } @{\$j->{results}}"; }
# field FILE EXPR - an expression over the tail verdict (\$v) of a compare.json
field() { jp "$1" "my (\$v) = grep { \$_->{key} eq '$K' } @{\$j->{results}}; $2"; }

# settail RUN LEVEL LO HI - give task io's activation latency a tail model with this 1e-6 level (us)
settail() {
	perl -MJSON::PP -i -0777 -pe 'BEGIN { ($l, $lo, $hi) = map { $_ * 1000 } splice @ARGV, 0, 3 } my $j = decode_json($_);
		$j->{tasks}[0]{tail} = { activation_latency_ns => { source => "joblog", count => 5000, rate_hz => 100,
			ccdf => [], tests => undef, assumptions_hold => JSON::PP::true, reason => undef,
			model => { kind => "gpd-pot", threshold_ns => 30000, exceedances => 72, shape => 0.05, scale_ns => 4000 },
			pwcet_ns => { "1e-6" => { value => $l, ci => [$lo, $hi] }, "1e-9" => { value => 3 * $l, ci => [2 * $l, 9 * $l] } },
			gev => undef }, response_time_ns => undef };
		$_ = JSON::PP->new->canonical->encode($j)' "$2" "$3" "$4" "$1/results.json"
}

# notail RUN REASON - io's activation latency: a tail object without a model, for REASON
notail() {
	perl -MJSON::PP -i -0777 -pe 'BEGIN { $why = shift @ARGV } my $j = decode_json($_);
		$j->{tasks}[0]{tail} = { activation_latency_ns => { source => "joblog", count => 5000, rate_hz => 100,
			ccdf => [], tests => undef, assumptions_hold => JSON::PP::false, reason => $why,
			model => undef, pwcet_ns => undef, gev => undef }, response_time_ns => undef };
		$_ = JSON::PP->new->canonical->encode($j)' "$2" "$1/results.json"
}

"$G" "$D/base" --runs 10 --seed 11 >/dev/null || exit 1
for i in 1 2 3 4 5 6 7 8 9 10; do
	l=$(perl -e "print 100 + 0.5 * ($i - 1)")
	settail "$D/base/run-$(printf %02d "$i")" "$l" "$(perl -e "print $l - 20")" "$(perl -e "print $l + 30")"
done
# new runs: the other metrics as the baseline's (nothing else regresses), the tail as each case sets it
newruns() { rm -rf "$D/$1"; "$G" "$D/$1" --runs 3 --seed 12 --first 11 >/dev/null || exit 1; }
# judge NAME "LEVEL LO HI"... - three new runs in D/NAME with these tails (one for all, or one per run),
# compared with bl.json into TMP/NAME.json and TMP/NAME.tap
judge() {
	_name=$1; shift
	newruns "$_name"
	_i=0
	for _r in "$D/$_name"/run-*; do
		_i=$((_i + 1))
		[ "$#" -gt 1 ] && eval "_t=\${$_i}" || _t=$1
		settail "$_r" $_t
	done
	run_cmd "$PREFLIGHT" compare --baseline "$TMP/bl.json" "$D/$_name"/run-* --json "$TMP/$_name.json" --tap "$TMP/$_name.tap"
}

# --- ci-tail-1: the baseline keeps the levels and their intervals
run_cmd "$PREFLIGHT" baseline create "$D"/base/run-* -o "$TMP/bl.json"
is "$rc" 0 "ci-tail-1.1 baseline create of runs with tail models"
is "$(jp "$TMP/bl.json" "my \$t = \$j->{tails}{q($K)}; join ' ', scalar(@{\$t->{values}}), \$t->{values}[0], \$t->{values}[9], \"\$t->{ci}[9][0]..\$t->{ci}[9][1]\", \$t->{p}, \$t->{series}, scalar(@{\$t->{absent}})")" \
	"10 100000 104500 84500..134500 1e-06 activation_latency 0" \
	"ci-tail-1.2 tails.<key>: ten levels (ns), their 95 % intervals, p, the series, none absent"
is "$(jp "$TMP/bl.json" 'join ",", sort keys %{$j->{tails}}')" "$K" \
	"ci-tail-1.3 a series without a tail object (io's response time, the tasks without a job log) has none"

# --- ci-tail-2: the level moved up beyond both intervals: REGRESSED, exit 1
judge up "200 170 240"
is "$rc:$(verdict "$TMP/up.json")" "1:REGRESSED tail-1e-6" "ci-tail-2.1 new level 200 us (170..240) against 80..134.5: REGRESSED, exit 1"
is "$(jp "$TMP/up.json" '$j->{summary}{regressed}')" 1 "ci-tail-2.2 ... the only regression (the other metrics as the baseline's)"
is "$(field "$TMP/up.json" 'join " ", $v->{kind}, $v->{unit}, $v->{baseline}{median}, $v->{new_median}, $v->{shift}, $v->{tolerance}, "@{$v->{tail}{baseline_ci}}", "@{$v->{tail}{new_ci}}", $v->{tail}{p}')" \
	"tail ns 102250 200000 97750 10225 80000 134500 170000 240000 1e-06" \
	"ci-tail-2.3 compare.json: medians, shift, tolerance and both intervals (ns)"
# block FILE - the TAP line of the tail verdict and its YAML block
block() { perl -ne 'BEGIN { $k = shift } $in = 1 if / - \Q$k\E( #.*)?$/; print if $in; $in = 0 if /^  \.\.\.$/' "$K" "$1"; }
is "$(block "$TMP/up.tap" | sed -n '1s/^not ok [0-9]* - /not ok N - /p; 3,5p; 12,13p')" "not ok N - $K
  state: REGRESSED
  rule: tail-1e-6
  unit: ns
  tail: {p: 1e-06, baseline_ci: [80000, 134500], new_ci: [170000, 240000]}
  reason: \"the 1e-6 level moved up: every new run's 95 % interval (170.0 us..240.0 us) lies above every baseline run's (80.0 us..134.5 us), median shift 97.8 us above the tolerance 10.2 us\"" \
	"ci-tail-2.4 TAP: not ok, the rule, both intervals and the reason in its YAML block"
"$PREFLIGHT" compare --baseline "$TMP/bl.json" "$D"/up/run-* --md "$TMP/up.md" --tap /dev/null >/dev/null
like "$(cat "$TMP/up.md")" "\\| REGRESSED \\| \`$(printf '%s' "$K" | sed 's/[.()]/\\&/g')\` \\| 102\\.2 us \\(100\\.0 us\\.\\.104\\.5 us\\) \\| 200\\.0 us \\| 97\\.8 us \\| - \\| tail-1e-6 \\|" \
	"ci-tail-2.6 compare.md: a row of its own"

# --- ci-tail-3: intervals overlapping: no regression
judge near "110 90 140"
is "$rc:$(verdict "$TMP/near.json")" "0:SAME tail-1e-6" \
	"ci-tail-3.1 new 110 us (90..140) against 80..134.5: SAME (140 within 134.5 + 10.225), exit 0"
judge wide "120 95 180"
is "$rc:$(verdict "$TMP/wide.json")" "0:UNKNOWN tail-1e-6" \
	"ci-tail-3.2 new 120 us (95..180): overlapping, reaching beyond: UNKNOWN, exit 0"
like "$(field "$TMP/wide.json" '$v->{reason}')" "^the 95 % intervals overlap \\(new 95.0 us..180.0 us, baseline 80.0 us..134.5 us\\)" \
	"ci-tail-3.3 ... the reason says so"
run_cmd "$PREFLIGHT" compare --baseline "$TMP/bl.json" "$D"/wide/run-* --tap "$TMP/wide.tap" --strict
is "$rc:$(block "$TMP/wide.tap" | sed -n '1s/ [0-9]* - .*//p')" "1:not ok" "ci-tail-3.4 ... UNKNOWN fails with --strict, as every rule's"
judge one "130 110 160" "200 170 240" "200 170 240"
is "$rc:$(verdict "$TMP/one.json")" "0:UNKNOWN tail-1e-6" \
	"ci-tail-3.5 median 200 us but one new run's interval (110..160) overlaps the baseline's: not REGRESSED (every new run must lie above)"
judge down "50 40 65"
is "$rc:$(verdict "$TMP/down.json"):$(field "$TMP/down.json" 'substr($v->{reason}, 0, 9)')" "0:SAME tail-1e-6:improved:" \
	"ci-tail-3.6 new 50 us (40..65) below 80: the mirror, SAME saying improved"

# --- ci-tail-4: no model on one side: not judged (SKIP) with the reason, never a pass or a regression
newruns rej
notail "$D/rej/run-11" "ljung_box_exceedances rejects independence (p 0.0012 < 0.0125)"
for r in "$D"/rej/run-12 "$D"/rej/run-13; do settail "$r" 200 170 240; done
run_cmd "$PREFLIGHT" compare --baseline "$TMP/bl.json" "$D"/rej/run-* --json "$TMP/rej.json" --tap "$TMP/rej.tap"
is "$rc:$(verdict "$TMP/rej.json")" "0:SKIP tail-1e-6" \
	"ci-tail-4.1 a new run's model rejected (the others 200 us): SKIP, not REGRESSED, exit 0"
like "$(cat "$TMP/rej.tap")" "ok [0-9]+ - tasks\\.io\\.tail\\.activation_latency_ns\\.pwcet\\(1e-6\\) # SKIP new run 1 \\($D/rej/run-11\\): no tail model: ljung_box_exceedances rejects independence \\(p 0\\.0012 < 0\\.0125\\): not judged" \
	"ci-tail-4.2 ... TAP: a SKIP directive with the run and its reason"
is "$(field "$TMP/rej.json" 'join " ", map { defined $_ ? $_ : "null" } $v->{shift}, $v->{tail}{new_ci}[0], $v->{baseline}{median}')" "null null null" \
	"ci-tail-4.3 ... compare.json: no numbers where none was judged"
cp -r "$D/base" "$D/base-rej"
notail "$D/base-rej/run-03" "too few samples: 800, the tests need 1000"
run_cmd "$PREFLIGHT" baseline create "$D"/base-rej/run-* -o "$TMP/bl-rej.json"
is "$rc:$(jp "$TMP/bl-rej.json" "my \$t = \$j->{tails}{q($K)}; scalar(@{\$t->{values}}) . ' ' . \$t->{absent}[0]{run} . ' ' . \$t->{absent}[0]{reason}")" \
	"0:9 2 too few samples: 800, the tests need 1000" \
	"ci-tail-4.4 the baseline keeps a run without a model: its index and reason"
run_cmd "$PREFLIGHT" compare --baseline "$TMP/bl-rej.json" "$D"/up/run-* --json "$TMP/brej.json" --tap /dev/null
is "$rc:$(verdict "$TMP/brej.json"):$(field "$TMP/brej.json" '$v->{reason}')" \
	"0:SKIP tail-1e-6:baseline run 3 ($D/base-rej/run-03): no tail model: too few samples: 800, the tests need 1000: not judged" \
	"ci-tail-4.5 ... and compare does not judge against it (the new runs 200 us: no REGRESSED)"
newruns gone
run_cmd "$PREFLIGHT" compare --baseline "$TMP/bl.json" "$D"/gone/run-* --json "$TMP/gone.json" --tap /dev/null
is "$rc:$(verdict "$TMP/gone.json"):$(field "$TMP/gone.json" '$v->{reason}')" \
	"0:SKIP tail-1e-6:new run 1 ($D/gone/run-11) has no tail for it (no job log): not judged" \
	"ci-tail-4.6 new runs without a tail object (no job log): SKIP saying so"

# --- ci-tail-5: a baseline without tails (written before this rule) is read, and says it cannot judge
jp "$TMP/bl.json" 'delete $j->{tails}; JSON::PP->new->canonical->encode($j)' > "$TMP/bl-old.json"
run_cmd "$PREFLIGHT" compare --baseline "$TMP/bl-old.json" "$D"/up/run-* --json "$TMP/old.json" --tap "$TMP/old.tap"
is "$rc:$(verdict "$TMP/old.json")" "0:SKIP tail-1e-6" "ci-tail-5.1 a baseline without tails: read, the tail not judged, exit 0"
like "$(cat "$TMP/old.tap")" "# SKIP the baseline holds no tail levels \\(made before compare judged tails\\): not judged; make it again with this preflight to judge it" \
	"ci-tail-5.2 ... the TAP says why"
is "$(jp "$TMP/old.json" '$j->{summary}{regressed} . " " . scalar(@{$j->{not_in_baseline}})')" "0 0" \
	"ci-tail-5.3 ... every other verdict as before, the tail not also listed as not in the baseline"
run_cmd "$PREFLIGHT" compare --baseline "$TOP/t/fixtures/ci/baseline-older-names.json" "$D"/up/run-* --json "$TMP/older.json" --tap /dev/null
is "$rc:$(verdict "$TMP/older.json")" "0:SKIP tail-1e-6" "ci-tail-5.4 the older-names fixture baseline (t/0901): likewise"
jp "$TMP/bl.json" '$j->{tails}{q(tasks.io.tail.activation_latency_ns.pwcet(1e-6))}{values}[1] = 200000; JSON::PP->new->canonical->encode($j)' > "$TMP/bl-bad.json"
run_cmd "$PREFLIGHT" compare --baseline "$TMP/bl-bad.json" "$D"/up/run-* --json "$TMP/bad.json" --tap /dev/null
is "$rc:$(verdict "$TMP/bad.json"):$(field "$TMP/bad.json" '$v->{reason}')" \
	"0:SKIP tail-1e-6:the baseline's tail level 2 is malformed (a number inside its interval): not judged" \
	"ci-tail-5.5 a hand-edited baseline level outside its own interval: not judged, said"

# --- ci-tail-6: run against run (--baseline RUN_DIR), the tolerance, the JUnit message
run_cmd "$PREFLIGHT" compare --baseline "$D/base/run-01" "$D/up/run-11" --json "$TMP/rr.json" --tap /dev/null
is "$rc:$(verdict "$TMP/rr.json"):$(field "$TMP/rr.json" '"@{$v->{tail}{baseline_ci}}"')" "1:REGRESSED tail-1e-6:80000 130000" \
	"ci-tail-6.1 --baseline RUN_DIR: one run's interval against another's"
run_cmd "$PREFLIGHT" baseline create "$D"/base/run-* -o "$TMP/bl-tol.json" --tolerance-for 'tasks.*.tail.*=100%'
is "$rc" 0 "ci-tail-6.2 --tolerance-for a glob of the tail keys is accepted (it names metrics of the runs)"
run_cmd "$PREFLIGHT" compare --baseline "$TMP/bl-tol.json" "$D"/up/run-* --json "$TMP/tol.json" --tap /dev/null
is "$rc:$(verdict "$TMP/tol.json"):$(field "$TMP/tol.json" '$v->{tolerance}')" "0:UNKNOWN tail-1e-6:102250" \
	"ci-tail-6.3 ... a 100 % floor (102.25 us) above the 97.75 us shift: not REGRESSED"
run_cmd "$PREFLIGHT" compare --baseline "$TMP/bl.json" "$D"/up/run-* --junit "$TMP/up.xml" --tap /dev/null
like "$(cat "$TMP/up.xml")" "<failure message=\"REGRESSED: new 1e-6 level median 200.0 us \\(95 % intervals 170.0 us..240.0 us, 3 runs\\), baseline median 102.2 us \\(80.0 us..134.5 us, 10 runs\\), shift 97.8 us, tolerance 10.2 us, rule tail-1e-6: " \
	"ci-tail-6.4 JUnit: the failure message with both intervals"

# --- ci-tail-7: --self-check splits the tail levels as it splits the other metrics' runs
run_cmd "$PREFLIGHT" compare --baseline "$TMP/bl-old.json" --self-check
before=$out
run_cmd "$PREFLIGHT" compare --baseline "$TMP/bl.json" --self-check
is "$rc:$(printf '%s\n' "$out" | perl -ne 'print "$1 $2 $3" if /x (\d+) metrics: (\d+) REGRESSED .* (\d+) SAME/')" \
	"0:$(printf '%s\n' "$before" | perl -ne 'print $1 + 1, " $2 ", $3 + 20 if /x (\d+) metrics: (\d+) REGRESSED .* (\d+) SAME/')" \
	"ci-tail-7.1 one tail level more, judged SAME in each of the 20 A/A splits (no false alarm)"
# --- ci-tail-8: end to end on analyze's own tail objects (t/lib/tail-joblog.pl: io 20 us + an
# exponential of mean 3 us, 20000 jobs; ctl100 200 jobs, too few), run against run
# e2e NAME KIND SEED SHIFT_NS - a run directory of a job log, io's start and end moved by SHIFT_NS
e2e() {
	mkdir -p "$TMP/e2e/$1"
	perl "$TOP/t/lib/tail-joblog.pl" "$2" 20000 "$3" |
		perl -pe 'BEGIN { $d = shift } s/^io,(\d+),(\d+),(\d+),(\d+),/"io,$1,$2," . ($3 + $d) . "," . ($4 + $d) . ","/e' "$4" \
		> "$TMP/e2e/$1.csv"
	"$PREFLIGHT" analyze --joblog "$TMP/e2e/$1.csv" -o "$TMP/e2e/$1/results.json" -q || exit 1
	"$PREFLIGHT" compare --baseline "$TMP/e2e/a" "$TMP/e2e/$1" --json "$TMP/e2e/$1.cmp.json" --tap /dev/null >/dev/null
}
# e2e_state FILE KEY - the state of one key of a compare.json
e2e_state() { jp "$1" "join '', map { \$_->{key} eq '$2' ? \$_->{state} : () } @{\$j->{results}}"; }
mkdir -p "$TMP/e2e/a"
perl "$TOP/t/lib/tail-joblog.pl" exp 20000 7 > "$TMP/e2e/a.csv"
"$PREFLIGHT" analyze --joblog "$TMP/e2e/a.csv" -o "$TMP/e2e/a/results.json" -q || exit 1
e2e b exp 8 0
e2e up exp 8 40000
e2e up10 exp 8 10000
e2e rej shift 7 0
C='tasks.ctl100.tail.activation_latency_ns.pwcet(1e-6)'
is "$(for x in b up up10 rej; do printf '%s ' "$(e2e_state "$TMP/e2e/$x.cmp.json" "$K")"; done)" "SAME REGRESSED UNKNOWN SKIP " \
	"ci-tail-8.1 io's 1e-6 level (53.7 us, 46.1..66.4): another seed SAME, +40 us REGRESSED, +10 us UNKNOWN (intervals overlap), a level shift in the run (no model) SKIP"
like "$(field "$TMP/e2e/up.cmp.json" '$v->{reason}')" "^the 1e-6 level moved up: every new run's 95 % interval \(87.7 us..119.3 us\) lies above every baseline run's \(48.1 us..75.2 us\), median shift 39.9 us" \
	"ci-tail-8.2 ... the +40 us run: its interval and the baseline's, as analyze fitted them"
like "$(field "$TMP/e2e/rej.cmp.json" '$v->{reason}')" "^new run 1 \($TMP/e2e/rej\): no tail model: randomness \(runs test\) rejected .*KS between halves\) rejected" \
	"ci-tail-8.3 ... the rejected run: analyze's reason"
is "$(e2e_state "$TMP/e2e/up.cmp.json" "$C"):$(jp "$TMP/e2e/up.cmp.json" "join '', map { \$_->{key} eq '$C' ? \$_->{reason} : () } @{\$j->{results}}")" \
	"SKIP:baseline run 1 ($TMP/e2e/a): no tail model: too few samples for a tail model (n = 200, it needs 1000): not judged" \
	"ci-tail-8.4 ctl100's 200 jobs: not judged, analyze's reason"
done_testing
