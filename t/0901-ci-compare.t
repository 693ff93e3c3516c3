#!/bin/sh
# 0901-ci-compare.t - preflight baseline / compare on synthetic runs whose
# truth is known (build/t/ci_genruns, fixed seeds): a +20 % shift, a single
# 4x maximum and a count 0 -> 1 are REGRESSED with 10 + 3 runs; too few
# samples is SKIP; identity rules; the outputs (TAP13, JUnit, JSON, Markdown);
# one name per metric, its results.json path, and a baseline of the older names read.
. "$(dirname "$0")/lib/test-lib.sh"
need BUILT:preflight BUILT:t/ci_genruns
need CMD:xmllint
plan 50

G="$B/t/ci_genruns"
D="$TMP/runs"
mkdir -p "$D"

# jp FILE EXPR - print a perl expression over the decoded JSON file ($j)
jp() { perl -MJSON::PP -e 'local $/; open my $f, "<", $ARGV[0] or die; my $j = decode_json(<$f>); print eval $ARGV[1]' "$1" "$2"; }

# state KEY FILE - the state of one metric in a compare.json
state() { jp "$2" "join '', map { \$_->{key} eq '$1' ? \"\$_->{state} \$_->{rule}\" : () } @{\$j->{results}}"; }

"$G" "$D/base" --runs 10 --seed 11 || exit 1
"$G" "$D/same" --runs 3 --seed 12 --first 11 || exit 1

# --- ci-compare-1: baseline create
run_cmd "$PREFLIGHT" baseline create "$D"/base/run-0[1-9] -o "$TMP/small.json"
is "$rc" 2 "ci-compare-1.1 nine runs are too few: exit 2"
like "$err" "9 runs given, a baseline needs at least 10" "ci-compare-1.2 the error says how many"
run_cmd "$PREFLIGHT" baseline create "$D"/base/run-0[1-9] -o "$TMP/small.json" --allow-small
is "$rc" 0 "ci-compare-1.3 --allow-small accepts them"
run_cmd "$PREFLIGHT" baseline create "$D"/base/run-* -o "$TMP/bl.json" --tolerance-for '*.exec_time.*=5%'
is "$rc" 0 "ci-compare-1.4 ten runs make a baseline"
is "$(json_get "$TMP/bl.json" schema)" preflight-baseline/1 "ci-compare-1.5 schema"
is "$(json_get "$TMP/bl.json" identity.board)/$(json_get "$TMP/bl.json" identity.kernel_release)" \
	synthetic-board/6.1.0-test "ci-compare-1.6 identity from sysinfo.json"
is "$(jp "$TMP/bl.json" 'my $m = $j->{metrics}{"tasks.io.activation_latency_ns.p99"}; scalar(@{$m->{values}}) . " $m->{samples}[0]"')" "10 5000" \
	"ci-compare-1.7 per metric: ten run values and their sample counts"
is "$(jp "$TMP/bl.json" '$j->{histograms}{"tasks.io.activation_latency_ns"}{count}')" 50000 \
	"ci-compare-1.8 the runs' histograms merged (10 x 5000 samples)"
is "$(jp "$TMP/bl.json" 'my $t = $j->{tolerance}; "$t->{default}{percent} $t->{default}{abs} $t->{default}{bins} $t->{metrics}{q(tasks.*.exec_time_ns.*)}{percent}"')" \
	"10 2000 2 5" "ci-compare-1.9 tolerances: defaults 10 %, 2 us, 2 bins, and one per metric"

# --- ci-compare-2: unchanged runs
run_cmd "$PREFLIGHT" compare --baseline "$TMP/bl.json" "$D"/same/run-* --json "$TMP/same.json" \
	--junit "$TMP/same.xml" --md "$TMP/same.md"
is "$rc" 0 "ci-compare-2.1 alike runs: exit 0"
like "$(state tasks.io.activation_latency_ns.p50 "$TMP/same.json")" "^SAME mann-whitney" "ci-compare-2.2 p50 SAME"
like "$out" "^TAP version 13" "ci-compare-2.3 TAP13 on stdout"
like "$out" "  baseline: \{median: [0-9.]+, min: [0-9.]+, max: [0-9.]+, runs: 10\}" "ci-compare-2.4 YAML block with the baseline"
printf '%s\n' "$out" > "$TMP/same.tap"
ok "ci-compare-2.5 prove reads the TAP13" prove -e cat "$TMP/same.tap"

# --- ci-compare-3: +20 % on every percentile (p99 included)
"$G" "$D/shift" --runs 3 --seed 13 --first 11 --scale 1.2
run_cmd "$PREFLIGHT" compare --baseline "$TMP/bl.json" "$D"/shift/run-* --json "$TMP/shift.json" --tap "$TMP/shift.tap" \
	--junit "$TMP/shift.xml"
is "$rc" 1 "ci-compare-3.1 +20 % with 10 + 3 runs: exit 1"
like "$(state tasks.io.activation_latency_ns.p99 "$TMP/shift.json")" "^REGRESSED mann-whitney" "ci-compare-3.2 p99 REGRESSED"
like "$(cat "$TMP/shift.tap")" "not ok [0-9]+ - tasks.io.activation_latency_ns.p99" "ci-compare-3.3 TAP names the metric"

# --- ci-compare-4: one 4x maximum in one run
env=$(jp "$TMP/bl.json" 'my $m = 0; $_ > $m and $m = $_ for @{$j->{metrics}{"tasks.io.activation_latency_ns.max"}{values}}; int(4 * $m)')
"$G" "$D/spike" --runs 3 --seed 14 --first 11 --spike-ns "$env"
run_cmd "$PREFLIGHT" compare --baseline "$TMP/bl.json" "$D"/spike/run-* --json "$TMP/spike.json" --tap /dev/null
is "$rc" 1 "ci-compare-4.1 a single 4x max: exit 1"
is "$(state tasks.io.activation_latency_ns.max "$TMP/spike.json")" "REGRESSED envelope-3x" "ci-compare-4.2 max REGRESSED by the 3x rule"

# --- ci-compare-5: a count 0 -> 1
"$G" "$D/count" --runs 3 --seed 15 --first 11 --overruns 1
run_cmd "$PREFLIGHT" compare --baseline "$TMP/bl.json" "$D"/count/run-* --json "$TMP/count.json" --tap /dev/null
is "$(state tasks.io.overruns "$TMP/count.json")/$rc" "REGRESSED zero-count/1" "ci-compare-5.1 overruns 0 -> 1 REGRESSED"

# --- ci-compare-6: too few samples beyond a percentile
"$G" "$D/few" --runs 3 --seed 16 --first 11 --samples 500
run_cmd "$PREFLIGHT" compare --baseline "$TMP/bl.json" "$D"/few/run-* --json "$TMP/few.json" --tap "$TMP/few.tap"
is "$(state tasks.io.activation_latency_ns.p99 "$TMP/few.json")" "SKIP samples" "ci-compare-6.1 p99 of 500 samples: SKIP"
like "$(cat "$TMP/few.tap")" "ok [0-9]+ - tasks.io.activation_latency_ns.p99 # SKIP new run 1 has 500 samples: p99 needs 1000" \
	"ci-compare-6.2 the SKIP says why"

# --- ci-compare-7: identity
"$G" "$D/other" --runs 3 --seed 17 --first 11 --board other-board --kernel 6.2.0-test
run_cmd "$PREFLIGHT" compare --baseline "$TMP/bl.json" "$D"/other/run-* --tap /dev/null
is "$rc" 2 "ci-compare-7.1 another board: exit 2"
like "$err" "identity mismatch: board \(baseline 'synthetic-board', .* 'other-board'\)" "ci-compare-7.2 the error names the field"
run_cmd "$PREFLIGHT" compare --baseline "$TMP/bl.json" "$D"/other/run-* --tap /dev/null --ignore-identity board
is "$rc" 0 "ci-compare-7.3 --ignore-identity board; a new kernel is what CI compares"

# --- ci-compare-8: outputs
ok "ci-compare-8.1 JUnit is well-formed XML" xmllint --noout "$TMP/same.xml"
is "$(xmllint --xpath 'string(//testcase[@name="tasks.io.activation_latency_ns.p99"]/@classname)' "$TMP/same.xml")" \
	synthetic-board.synthetic.io "ci-compare-8.2 JUnit classname board.scenario.task, name the results.json path"
ok "ci-compare-8.4 JUnit with failures and skips valid against the schema GitLab / Jenkins read (t/fixtures/junit.xsd)" \
	xmllint --noout --schema "$TOP/t/fixtures/junit.xsd" "$TMP/same.xml" "$TMP/shift.xml"
like "$(cat "$TMP/same.md")" "\| SAME \| \`tasks.io.activation_latency_ns.p50\` \|" "ci-compare-8.3 compare.md has the table"

# --- ci-compare-9: A/A self-check
run_cmd "$PREFLIGHT" compare --baseline "$TMP/bl.json" --self-check
like "$out" "self-check: .*: 20 A/A splits x 22 metrics: [0-9]+ REGRESSED \(false alarms, [0-9.]+ % of" "ci-compare-9.1 --self-check reports the false-alarm rate"

# --- ci-compare-10: a metric the baseline lacks (a new task) is said, not judged
cp -r "$D/same" "$D/newtask"
perl -MJSON::PP -i -0777 -pe 'my $j = decode_json($_); my %t = %{$j->{tasks}[0]}; $t{name} = "newtask";
	push @{$j->{tasks}}, \%t; $_ = JSON::PP->new->canonical->encode($j)' "$D/newtask/run-11/results.json"
run_cmd "$PREFLIGHT" compare --baseline "$TMP/bl.json" "$D"/newtask/run-* --json "$TMP/nt.json" --tap "$TMP/nt.tap"
is "$rc:$(jp "$TMP/nt.json" 'scalar @{$j->{not_in_baseline}}'):$(grep -c '^# 14 metrics of the new runs not in the baseline, not compared: tasks.newtask.activation_latency_ns.p50' "$TMP/nt.tap")" \
	"0:14:1" "ci-compare-10.1 a new task's metrics: listed in compare.json and the TAP, not compared"
# --- ci-compare-11: run against run, no baseline file (--baseline RUN_DIR)
run_cmd "$PREFLIGHT" compare --baseline "$D/base/run-01" "$D/spike/run-11" --json "$TMP/rr-spike.json" --tap /dev/null
is "$rc:$(state tasks.io.activation_latency_ns.max "$TMP/rr-spike.json")" "1:REGRESSED envelope-3x" \
	"ci-compare-11.1 --baseline RUN_DIR: one run against another, a 4x maximum REGRESSED"
like "$out" "^compare: 1 REGRESSED, .* \\(1 run against $D/base/run-01\\)$" "ci-compare-11.2 ... the summary names the run compared against"
run_cmd "$PREFLIGHT" compare --baseline "$D/base/run-01" "$D/count/run-11" --json "$TMP/rr-count.json" --tap /dev/null
is "$rc:$(state tasks.io.overruns "$TMP/rr-count.json")" "1:REGRESSED zero-count" "ci-compare-11.3 ... a count 0 -> 1 REGRESSED"
run_cmd "$PREFLIGHT" compare --baseline "$D/base/run-01" "$D/same/run-11" --json "$TMP/rr-same.json" --tap /dev/null
is "$rc:$(jp "$TMP/rr-same.json" 'scalar grep { $_->{state} eq "REGRESSED" } @{$j->{results}}')" "0:0" \
	"ci-compare-11.4 ... a run like it: nothing REGRESSED (a shift needs more runs: UNKNOWN)"
run_cmd "$PREFLIGHT" compare --baseline "$D/base/run-01" "$D/base/run-01"
like "$rc:$err" "^2:.*is in the baseline" "ci-compare-11.5 ... a run against itself is refused (exit 2)"

# --- ci-compare-12: one name per metric, its results.json path; a baseline of the older names still reads
# (t/fixtures/ci/baseline-older-names.json: this test's base runs, by the preflight before the change)
OLD="$TOP/t/fixtures/ci/baseline-older-names.json"
run_cmd "$PREFLIGHT" compare --baseline "$OLD" "$D"/same/run-*
is "$rc:$(printf '%s\n' "$out" | cmp -s - "$TMP/same.tap" && echo same)" "0:same" \
	"ci-compare-12.1 a baseline keyed subject.metric.stat: the same TAP as the baseline of this version"
is "$(printf '%s\n' "$out" | grep -Ec '^ok [0-9]+ - (tasks\.io\.activation_latency_ns\.p99|tasks\.io\.overruns|app\.utilisation|cyclictest\.threads\.0\.latency_ns\.max)$')" 4 \
	"ci-compare-12.2 ... every verdict named by its results.json path (tasks.io.activation_latency_ns.p99, not io.activation_latency.p99)"
run_cmd "$PREFLIGHT" compare --baseline "$OLD" "$D"/same/run-* --junit "$TMP/old.xml" --tap /dev/null
is "$(xmllint --xpath 'count(//testcase[@name="tasks.io.exec_time_ns.p50"])' "$TMP/old.xml")" 1 \
	"ci-compare-12.3 ... JUnit names the path too"
run_cmd "$PREFLIGHT" baseline create "$D"/base/run-* -o "$TMP/bl-path.json" --tolerance-for 'tasks.*.activation_latency_ns.max=20%'
is "$rc:$(jp "$TMP/bl-path.json" '$j->{tolerance}{metrics}{q(tasks.*.activation_latency_ns.max)}{percent}')" "0:20" \
	"ci-compare-12.4 --tolerance-for a glob of results.json paths"
# tol KEY FILE - the tolerance of one metric in a compare.json
tol() { jp "$2" "join '', map { \$_->{key} eq '$1' ? \$_->{tolerance} : () } @{\$j->{results}}"; }
jp "$OLD" '$j->{tolerance}{metrics} = { q(*.activation_latency.max) => { percent => 20 } }; JSON::PP->new->canonical->encode($j)' > "$TMP/old20.json"
"$PREFLIGHT" compare --baseline "$TMP/old20.json" "$D"/same/run-* --json "$TMP/old20c.json" --tap /dev/null >/dev/null
"$PREFLIGHT" compare --baseline "$TMP/bl-path.json" "$D"/same/run-* --json "$TMP/path20c.json" --tap /dev/null >/dev/null
k=tasks.io.activation_latency_ns.max
is "$(tol $k "$TMP/old20c.json")/$([ "$(tol $k "$TMP/old20c.json")" != "$(tol $k "$TMP/same.json")" ] && echo not-default)" \
	"$(tol $k "$TMP/path20c.json")/not-default" \
	"ci-compare-12.5 an older glob (*.activation_latency.max=20%) in an older baseline: the tolerance of the path's glob"

# --- ci-compare-13: a tolerance written as budgets write numbers (pf_parse_quantity), nothing else
run_cmd "$PREFLIGHT" baseline create "$D"/base/run-* -o "$TMP/tol-us.json" --tolerance '15%,3 µs,1.5bins'
is "$rc:$(jp "$TMP/tol-us.json" 'my $t = $j->{tolerance}{default}; "$t->{percent} $t->{abs} $t->{bins}"')" "0:15 3000 1.5" \
	"ci-compare-13.1 --tolerance '15%,3 µs,1.5bins': 15 %, 3000 ns, 1.5 bins"
run_cmd "$PREFLIGHT" baseline create "$D"/base/run-* -o "$TMP/tol-ms.json" --tolerance '0.5ms'
is "$rc:$(jp "$TMP/tol-ms.json" 'my $t = $j->{tolerance}{default}; "$t->{percent} $t->{abs} $t->{bins}"')" "0:10 500000 2" \
	"ci-compare-13.2 --tolerance 0.5ms: the absolute floor alone, the rest the defaults"
for bad in '0x10%' '-5%' '2furlongs' '1e999us' 'nan%' '2usbins' ''; do
	run_cmd "$PREFLIGHT" baseline create "$D"/base/run-* -o "$TMP/tol-bad.json" --tolerance "$bad"
	is "$rc:$([ -e "$TMP/tol-bad.json" ] && echo written)" "2:" "ci-compare-13.3 --tolerance '$bad': refused (exit 2), nothing written"
done
done_testing
