#!/bin/sh
# 0613-check-small-n.t - numbers that are not what their names say are
# marked, in results.json, in check's TAP and in the texts: a percentile
# whose rank is the top sample (fewer samples than it needs: p99 of 11 jobs)
# is the max, said with n; a stddev computed from values cyclictest never
# wrote (its overflows) is an estimate, the least spread they allow, so check
# judges it as the lower bound it is.
. "$(dirname "$0")/lib/test-lib.sh"
. "$(dirname "$0")/lib/analyze-lib.sh"
need BUILT:t/gentrace CMD:gnuplot
plan 20

# verdict RESULTS METRIC BOUND - check one metric against BOUND; $rc and $out
verdict() {
	printf '[REQ-X-001]\ntext = the requirement\nmetric = %s\nbound = %s\n' "$2" "$3" > "$TMP/b.ini"
	run_cmd "$PREFLIGHT" check "$1" --budgets "$TMP/b.ini"
}

# --- small-1: ctl100 has 11 jobs, io 12 (t/tools/gentrace.c 'basic')
"$GEN" basic "$TMP/b.dat" "$TMP/b.csv"
R="$TMP/r.json"
run_cmd "$PREFLIGHT" analyze --trace "$TMP/b.dat" --joblog "$TMP/b.csv" -o "$R"
is "$(json_get "$R" tasks.name=ctl100.activation_latency_ns.is_max)" '["p99","p99.9","p99.99","p99.999"]' \
	"small-1.1 results.json: is_max names the percentiles 11 samples cannot give (p99 and above)"
is "$(json_get "$R" tasks.name=ctl100.activation_latency_ns.p99)" "$(json_get "$R" tasks.name=ctl100.activation_latency_ns.max)" \
	"small-1.2 ... which are the max"
like "$(printf '%s\n' "$out" | grep '^ctl100 ')" "^ctl100 +trace\+joblog +11 +=max +2013\.0 " "small-1.3 analyze's text marks them in the table ..."
like "$out" "^p99 = max \(fewer than the 100 jobs p99 needs\): io \(n = 12\), ctl100 \(n = 11\)$" "small-1.3a ... and says with what n"
verdict "$R" tasks.ctl100.activation_latency_ns.p99 '<= 3ms'
is "$rc:$(printf '%s\n' "$out" | sed -n '3,5p' | tr '\n' '|')" \
	"0:ok 1 - REQ-X-001 ctl100 activation_latency p99|#   2.013 ms <= 3 ms (margin 33 %)|#   p99 = max, n = 11: too few samples for p99 (it needs 100)|" \
	"small-1.4 check: the verdict says p99 is the max, n = 11"
verdict "$R" tasks.ctl100.activation_latency_ns.p90 '<= 3ms'
like "$rc:$out" "^0:" "small-1.5 p90 of 11 (rank 10) is no max ..."
unlike_max=$(printf '%s\n' "$out" | grep -c '= max')
is "$unlike_max" 0 "small-1.6 ... and is not marked"
verdict "$R" 'tasks.*.activation_latency_ns.p99.99' '<= 3ms'
is "$(printf '%s\n' "$out" | grep -c '^#   p99.99 = max, n = 1[12]: too few samples for p99.99 (it needs 10000)')" 2 \
	"small-1.7 one mark per task, each with its own n"

# --- est-1: cyclictest overflows (t/fixtures/cyclictest/ovf.json): stddev estimated, a lower bound
C="$TMP/ct.json"
"$PREFLIGHT" analyze -q --cyclictest "$TOP/t/fixtures/cyclictest/ovf.json" -o "$C"
is "$(json_get "$C" cyclictest.all.latency_ns.estimated)" '["stddev"]' "est-1.1 the fixture's stddev is estimated"
verdict "$C" cyclictest.all.latency_ns.stddev '<= 100us'
is "$rc:$(printf '%s\n' "$out" | sed -n '3,4p' | tr '\n' '|')" \
	"1:not ok 1 - REQ-X-001 cyclictest all latency stddev|#   950.337 us <= 100 us (only a bound is known: >= 950.337 us)|" \
	"est-1.2 an estimate above the budget fails: it is the least the spread can be"
like "$(printf '%s\n' "$out" | sed -n 5p)" "^#   cyclictest.all.latency_ns.stddev is estimated: .* a lower bound$" "est-1.2a ... and the estimate is named"
like "$out" "measured: cyclictest.all.latency_ns.stddev = an estimate, known only as >= 950.337 us" \
	"est-1.3 ... and the measured line says it is an estimate"
verdict "$C" cyclictest.all.latency_ns.stddev '<= 2ms'
is "$rc:$(printf '%s\n' "$out" | sed -n 3p)" \
	"1:ok 1 - REQ-X-001 cyclictest all latency stddev # SKIP not measured: only a bound is known (>= 0.95 ms), which cannot decide" \
	"est-1.4 an estimate within the budget proves nothing: not measured (nothing measured: exit 1)"
"$PREFLIGHT" analyze -q --cyclictest "$TOP/t/fixtures/cyclictest/us.json" -o "$TMP/us.json"
verdict "$TMP/us.json" cyclictest.all.latency_ns.stddev '<= 2ms'
like "$rc:$(printf '%s\n' "$out" | sed -n '3,4p' | tr '\n' '|')" "^0:ok 1 - REQ-X-001 cyclictest all latency stddev\|#   [0-9.]+ ms <= 2 ms \(margin [0-9]+ %\)\|$" \
	"est-1.5 an exact stddev is judged as it is"
run_cmd "$PREFLIGHT" analyze --cyclictest "$TOP/t/fixtures/cyclictest/ovf.json" -o "$TMP/ct2.json"
like "$(printf '%s\n' "$out" | grep '^T0 ')" "^T0 .* [0-9.]+~ " "est-1.6 analyze's text marks the estimated stddev ..."
like "$out" "stddev~ estimated: " "est-1.6a ... and says what that means"
run_cmd "$PREFLIGHT" analyze --cyclictest "$TOP/t/fixtures/cyclictest/us.json" -o "$TMP/us2.json"
is "$(printf '%s\n' "$out" | grep -c '~')" 0 "est-1.7 ... and no exact one"

# --- small-2: the qualification summary of a run (t/fixtures/run, its results.json files given
# the is_max that analyze now writes: p99.99 of 5986 cyclictest samples and of each task's jobs)
cp -r "$TOP/t/fixtures/run" "$TMP/run"
for f in "$TMP/run/results.json" "$TMP"/run/0*/results.json; do
	perl -MJSON::PP -MPOSIX=ceil -e '
		local $/; open my $in, "<", $ARGV[0] or die; my $j = JSON::PP->new->decode(<$in>); close $in;
		my @q = ([p50 => 0.5], [p90 => 0.9], [p99 => 0.99], ["p99.9" => 0.999], ["p99.99" => 0.9999], ["p99.999" => 0.99999]);
		sub walk { my $v = shift;
			if (ref $v eq "HASH") {
				if (exists $v->{count} && exists $v->{"p99.99"} && $v->{count}) {
					my @m = map { $_->[0] } grep { ceil($_->[1] * $v->{count}) >= $v->{count} } @q;
					$v->{is_max} = \@m if @m;
				}
				walk($_) for values %$v;
			} elsif (ref $v eq "ARRAY") { walk($_) for @$v }
		}
		# the fixture is trimmed to what the summary reads: a task latency'"'"'s count is its jobs
		$_->{activation_latency_ns}{count} //= $_->{jobs} for @{$j->{tasks} || []};
		walk($j); open my $out, ">", $ARGV[0] or die; print $out JSON::PP->new->canonical->encode($j);
	' "$f"
done
run_cmd "$PREFLIGHT" summary "$TMP/run"
like "$out" "^    baseline cyclictest max 7037\.0 us, p99\.99 = max, n = 5986, 5986 samples$" \
	"small-2.1 summary: the baseline's p99.99 of 5986 samples is the max, said with n"
like "$out" "^  ctl100 +7618\.6 us +=max n=600 +- +8126\.8 us " "small-2.2 summary: a task's p99.99 column says =max with n"
run_cmd "$PREFLIGHT" report "$TMP/run" -o "$TMP/r.html"
is "$rc:$(grep -o 'class="n at-max" data-ns="7618642">[^<]*' "$TMP/r.html" | head -1)" \
	'0:class="n at-max" data-ns="7618642">7618.6 (= max)' \
	"small-2.3 report: the task table's p99.99 cell says it is the max, its n the row's N (issue 32.13: one line less)"
