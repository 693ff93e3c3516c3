#!/bin/sh
# 0563-analyze-tail.t - the tail statistics end to end (issue 28, docs/statistics.md):
# analyze puts tasks.*.tail in results.json from the job log (a model for a
# stationary exponential tail, none with the reason for a level shift or too
# few jobs); check judges exceedance(DURATION) and pwcet(PROBABILITY) on the
# upper end of the model's interval, and never passes one without a model;
# summary carries the tail under a latency requirement. The job logs are
# t/lib/tail-joblog.pl's, the same bytes everywhere.
. "$(dirname "$0")/lib/test-lib.sh"
plan 33

GEN="$TOP/t/lib/tail-joblog.pl"
perl "$GEN" exp 20000 7 > "$TMP/exp.csv"
perl "$GEN" shift 20000 7 > "$TMP/shift.csv"
# r3 NUMBER - to 3 significant digits
r3() { perl -e 'printf "%.3g\n", $ARGV[0]' "$1"; }

run_cmd "$PREFLIGHT" analyze --joblog "$TMP/exp.csv" -o "$TMP/exp.json" -q
is "$rc:$err" "0:" "tail-run-1.1 analyze a job log of 20000 io jobs: exit 0"
T=tasks.name=io.tail.activation_latency_ns
is "$(json_get "$TMP/exp.json" $T.count $T.assumptions_hold $T.reason $T.model.exceedances $T.model.threshold_rule | tr '\n' ' ')" \
	"20000 true null 142 sqrt-n " "tail-run-1.2 io: n, every assumption holds, ceil(sqrt(n)) = 142 exceedances"
is "$(r3 "$(json_get "$TMP/exp.json" $T.pwcet_ns.1e-9.value)") $(r3 "$(json_get "$TMP/exp.json" $T.pwcet_ns.1e-9.ci.1)")" \
	"6.07e+04 1.49e+05" "tail-run-1.3 ... the 1e-9 level 60.7 us, its profile-likelihood interval's upper end 149 us (true: 20 + 3 ln 1e9 = 82.2 us; the delta method's was 98 us)"
is "$(r3 "$(json_get "$TMP/exp.json" $T.rate_hz)")" "100" "tail-run-1.4 ... the rate from the releases: 100 Hz"
is "$(json_get "$TMP/exp.json" $T.run_needed_binomial.1e-9)" "2995732273" "tail-run-1.5 ... zero-failure run for 1e-9: ln 0.05 / ln(1 - 1e-9)"
like "$(json_get "$TMP/exp.json" $T.ccdf.0)" '^\[2[0-9]*(\.0)?,1(\.0)?\]$' "tail-run-1.6 ... the exceedance curve starts at the smallest sample, P = 1"
is "$(json_get "$TMP/exp.json" $T.tests.ljung_box_series.gating $T.tests.runs.gating | tr '\n' ' ')" "false true " \
	"tail-run-1.7 ... Ljung-Box on the series is information, the runs test gates"
is "$(json_get "$TMP/exp.json" tasks.name=io.tail.response_time_ns.count)" "20000" "tail-run-1.8 ... the response time's tail too"
C=tasks.name=ctl100.tail.activation_latency_ns
is "$(json_get "$TMP/exp.json" $C.assumptions_hold $C.model $C.reason | tr '\n' '|')" \
	"false|null|too few samples for a tail model (n = 200, it needs 1000)|" "tail-run-1.9 ctl100's 200 jobs: no model, the reason"

run_cmd "$PREFLIGHT" analyze --joblog "$TMP/shift.csv" -o "$TMP/shift.json" -q
is "$(json_get "$TMP/shift.json" $T.assumptions_hold $T.model $T.pwcet_ns | tr '\n' ' ')" "false null null " \
	"tail-run-2.1 a 2 us level shift at half time: rejected, no model, no level"
like "$(json_get "$TMP/shift.json" $T.reason)" "one distribution over the run \(KS between halves\) rejected" \
	"tail-run-2.2 ... the reason names the KS test"

cat > "$TMP/tail.ini" <<'INI'
[REQ-T1]
text   = one io activation in a million or fewer later than 100 us
metric = tasks.io.tail.activation_latency_ns.exceedance(100us)
bound  = <= 1e-6
[REQ-T2]
text   = the 1e-9 level of every task within 62 us
metric = tasks.*.tail.activation_latency_ns.pwcet(1e-9)
bound  = <= 62us
[REQ-T3]
text   = below the threshold
metric = tasks.io.tail.activation_latency_ns.exceedance(10us)
bound  = <= 1e-9
INI
run_cmd "$PREFLIGHT" check "$TMP/exp.json" --budgets "$TMP/tail.ini"
is "$rc" 1 "tail-check-1.1 check on the exponential: exit 1 (one fails)"
like "$(printf '%s\n' "$out" | grep -A1 '^ok 1 - REQ-T1 io tail activation_latency exceedance(100us)$' | tail -1)" \
	"^#   0\.0000000527 <= 0\.000001 \(margin 95 %\)$" "tail-check-1.2 exceedance(100us): the upper end 5.3e-8 passes 1e-6 (beyond the fitted bounded tail's end: 0, its interval from 0)"
like "$(printf '%s\n' "$out" | grep -A1 '^not ok 2 - REQ-T2 io tail activation_latency pwcet(1e-9)$' | tail -1)" \
	"^#   149\.187 us <= 62 us" "tail-check-1.3 pwcet(1e-9): the upper end 149 us fails 62 us"
like "$out" "ok 3 - REQ-T2 ctl100 tail activation_latency pwcet\(1e-9\) # SKIP not measured: no tail model: too few samples" \
	"tail-check-1.4 ... ctl100 without a model: not measured, never a pass"
like "$(printf '%s\n' "$out" | grep -A1 '^not ok 4 - REQ-T3 io tail activation_latency exceedance(10us)$' | tail -1)" \
	"^#   0\.0071 <= 0\.000000001 \(only a bound is known: >= 0\.0071\)$" \
	"tail-check-1.5 a duration below the threshold: P >= the share above it (0.0071), which fails"
run_cmd "$PREFLIGHT" check "$TMP/shift.json" --budgets "$TMP/tail.ini"
like "$out" "ok 1 - REQ-T1 io tail activation_latency exceedance\(100us\) # SKIP not measured: no tail model: .*one distribution over the run" \
	"tail-check-2.1 the level shift: exceedance() not measured, the rejected test named"
is "$(printf '%s\n' "$out" | grep -c '^ok.*SKIP not measured: no tail model')" 4 \
	"tail-check-2.2 ... every tail verdict not measured, none passed"
like "$out" "# 0 passed, 0 failed, 4 not measured \(0 not in this run, 4 without a value\)" \
	"tail-check-2.3 ... counted as without a value: results.json has the tail, not its figure"

printf '[R]\ntext = x\nmetric = tasks.io.tail.activation_latency_ns.exceedance(62)\nbound = <= 1e-9\n' > "$TMP/bad.ini"
run_cmd "$PREFLIGHT" check "$TMP/exp.json" --budgets "$TMP/bad.ini"
is "$rc:$err" "2:preflight: check: $TMP/bad.ini:3: metric 'tasks.io.tail.activation_latency_ns.exceedance(62)': 'exceedance(62)' is not exceedance(DURATION) with a unit (ns, us, ms, s) or pwcet(PROBABILITY) with 0 < PROBABILITY < 1" \
	"tail-check-3.1 exceedance() without a unit: exit 2, the budget's line"
printf '[R]\ntext = x\nmetric = tasks.io.tail.activation_latency_ns.pwcet(1.5)\nbound = <= 62us\n' > "$TMP/bad.ini"
run_cmd "$PREFLIGHT" check "$TMP/exp.json" --budgets "$TMP/bad.ini"
like "$rc:$err" "^2:.*'pwcet\(1\.5\)' is not" "tail-check-3.2 pwcet() of a probability of 1.5: exit 2"
printf '[R]\ntext = x\nmetric = app.utilisation.pwcet(1e-9)\nbound = <= 62us\n' > "$TMP/bad.ini"
run_cmd "$PREFLIGHT" check "$TMP/exp.json" --budgets "$TMP/bad.ini"
like "$rc:$err" "^2:.*apply to a tail object" "tail-check-3.3 pwcet() of anything but a task's tail: exit 2"

# summary: the tail under a latency requirement's verdict
mkdir -p "$TMP/run"
cp "$TOP/t/fixtures/run/run.json" "$TMP/run/"
cp "$TMP/exp.json" "$TMP/run/results.json"
printf '[REQ-LAT-001]\ntext = io activation latency <= 62 us\nmetric = tasks.io.activation_latency_ns.max\nbound = <= 62us\n' > "$TMP/lat.ini"
"$PREFLIGHT" check "$TMP/run/results.json" --budgets "$TMP/lat.ini" --json "$TMP/run/verdicts.json" > /dev/null
run_cmd "$PREFLIGHT" summary "$TMP/run"
like "$(printf '%s\n' "$out" | grep -A1 '^  PASS         REQ-LAT-001 io activation_latency max: 47\.344 us <= 62 us (margin 24 %), n = 20000$' | tail -1)" \
	"^               tail \(job log's activation latency\): n = 20000, P\(> 62 us\) = 1\.4e-10 per activation \[0, 8\.1e-06\], at most 2\.9 per hour at 100 Hz; to show P <= 1e-09 at 95 %: 6\.6e\+06 activations \(1\.1e\+03 min\) by the model, 3e\+09 \(5e\+05 min\) with none above" \
	"tail-sum-1.1 summary: the tail's line under the latency verdict"
cp "$TMP/shift.json" "$TMP/run/results.json"
"$PREFLIGHT" check "$TMP/run/results.json" --budgets "$TMP/lat.ini" --json "$TMP/run/verdicts.json" > /dev/null
run_cmd "$PREFLIGHT" summary "$TMP/run"
like "$out" "               tail \(job log's activation latency\): no model: randomness \(runs test\) rejected \(p = [^)]*\); one distribution over the run \(KS between halves\) rejected \(p = [^)]*\); to show P <= 1e-09 at 95 % without one, a run would need 3e\+09 activations \(5e\+05 min\) with none above 62 us" \
	"tail-sum-1.2 ... no model: the reason and the zero-failure run"
# a bound below the model's threshold (34.7 us): no run length by the model, said in words (it printed "?")
cp "$TMP/exp.json" "$TMP/run/results.json"
printf '[REQ-LAT-001]\ntext = io activation latency <= 30 us\nmetric = tasks.io.activation_latency_ns.max\nbound = <= 30us\n' > "$TMP/lat30.ini"
"$PREFLIGHT" check "$TMP/run/results.json" --budgets "$TMP/lat30.ini" --json "$TMP/run/verdicts.json" > /dev/null
run_cmd "$PREFLIGHT" summary "$TMP/run"
like "$(printf '%s\n' "$out" | grep '^               tail (job log')" \
	"^               tail \(job log's activation latency\): n = 20000, P\(> 30 us\) >= 0\.0071 per activation \(the bound is below the model's threshold\); to show P <= 1e-09 at 95 %: the model cannot say \(the bound is below its threshold\), 3e\+09 activations \(5e\+05 min\) with none above$" \
	"tail-sum-1.2a a bound below the threshold: the model's run length is said to be unknown, not '?'"

# report: X1, the exceedance curve on log-log axes with the model and the budget
cp "$TMP/exp.json" "$TMP/run/results.json"
"$PREFLIGHT" check "$TMP/run/results.json" --budgets "$TMP/lat.ini" --json "$TMP/run/verdicts.json" > /dev/null
if test_have_prereq CMD:gnuplot; then
	"$PREFLIGHT" report "$TMP/run" -o "$TMP/r.html" > /dev/null 2>&1
	x1=$(perl -MMIME::Base64 -ne 'print decode_base64($1) if /<figure id="fig-X1"><img [^>]*src="data:image\/svg\+xml;base64,([^"]+)"/' "$TMP/r.html" |
		perl -ne 'print "$1\n" while /<text[^>]*>([^<]*)<\/text>/g')
	like "$x1" "io: tail model" "tail-rep-1.1 X1: the io task's curve and its tail model"
	like "$x1" "budget 62 µs" "tail-rep-1.2 ... and the budget"
	# the key right of the plot, clear of the curves (inside, its opaque box hid them), and the budget
	# line inside the x range, clear of the y tick labels (at the range's edge it crossed them)
	is "$(perl -MMIME::Base64 -ne 'print decode_base64($1) if /<figure id="fig-X1"><img [^>]*src="data:image\/svg\+xml;base64,([^"]+)"/' "$TMP/r.html" |
		perl -ne '$x = $1 if /<g transform="translate\(([0-9.]+),[0-9.]+\)/; next unless /<text[^>]*>([^<]*)<\/text>/; my $t = $1;
			if ($t =~ /^[0-9]+$|^1e\+[0-9]+$/) { $tick = $x if $x > $tick } elsif ($t =~ /^1e-?[0-9]+$/) { $ylab = $x }
			elsif ($t eq "io: tail model") { $key = $x } elsif ($t =~ /^budget /) { $bud = $x }
			END { print join " ", $key > $tick ? "key-outside" : "key-inside", $bud > $ylab + 20 ? "budget-clear" : "budget-at-axis" }')" \
		"key-outside budget-clear" "tail-rep-1.4 X1: its key right of the plot, its budget line clear of the y axis's labels"
	like "$(grep -o '<span class="tail">[^<]*' "$TMP/r.html")" \
		'^<span class="tail">tail \(job log.s activation latency\): n = 20000, P\(&gt; 62 us\) = 1\.4e-10 per activation \[0, 8\.1e-06\], at most 2\.9 per hour at 100 Hz; to show P &lt;= 1e-09 at 95 %: 6\.6e\+06 activations \(1\.1e\+03 min\) by the model, 3e\+09 \(5e\+05 min\) with none above$' \
		"tail-rep-1.3 the verdict table: the tail beside REQ-LAT-001, as the summary says it"
else
	skip "tail-rep-1.1 tail-rep-1.2 tail-rep-1.3 tail-rep-1.4"
fi

# the wakeup latency REQ-LAT-001 judges has its own tail, the trace's: its verdict is read with that
# one, not with the job log's activation latency (here the level shift's, which has no model)
perl -MJSON::PP -e 'local $/; open my $a, "<", $ARGV[0] or die; my $e = decode_json(<$a>); open my $b, "<", $ARGV[1] or die;
	my $s = decode_json(<$b>); my ($io) = grep { $_->{name} eq "io" } @{$e->{tasks}}; my ($sio) = grep { $_->{name} eq "io" } @{$s->{tasks}};
	$io->{wakeup_latency_ns} = $io->{activation_latency_ns}; $io->{tail}{wakeup_latency_ns} = { %{$io->{tail}{activation_latency_ns}}, source => "trace" };
	$io->{tail}{activation_latency_ns} = $sio->{tail}{activation_latency_ns}; print JSON::PP->new->canonical->encode($e)' \
	"$TMP/exp.json" "$TMP/shift.json" > "$TMP/run/results.json"
printf '[REQ-LAT-001]\ntext = io wakeup latency <= 62 us\nmetric = tasks.io.wakeup_latency_ns.max\nbound = <= 62us\n' > "$TMP/wlat.ini"
"$PREFLIGHT" check "$TMP/run/results.json" --budgets "$TMP/wlat.ini" --json "$TMP/run/verdicts.json" > /dev/null
run_cmd "$PREFLIGHT" summary "$TMP/run"
like "$(printf '%s\n' "$out" | grep -A1 'REQ-LAT-001 io wakeup_latency max' | tail -1)" \
	"^               tail \(trace's wakeup latency\): n = 20000, P\(> 62 us\) = 1\.4e-10 per activation" \
	"tail-sum-1.3 a wakeup-latency verdict: the trace's wakeup latency's tail under it"
if test_have_prereq CMD:gnuplot; then
	"$PREFLIGHT" report "$TMP/run" -o "$TMP/w.html" > /dev/null 2>&1
	like "$(grep -o '<span class="tail">[^<]*' "$TMP/w.html")" '^<span class="tail">tail \(trace.s wakeup latency\): n = 20000, P\(&gt; 62 us\)' \
		"tail-rep-1.5 ... and in the report's verdict table"
	x1=$(perl -MMIME::Base64 -ne 'print decode_base64($1) if /<figure id="fig-X1"><img [^>]*src="data:image\/svg\+xml;base64,([^"]+)"/' "$TMP/w.html" |
		perl -ne 'print "$1\n" while /<text[^>]*>([^<]*)<\/text>/g')
	like "$(grep -o 'X1 exceedance curve per task ([a-z ,-]*)' "$TMP/w.html" | head -1)/$(printf '%s\n' "$x1" | grep -c 'io: tail model')" \
		'^X1 exceedance curve per task \(latency, log-log\)/1$' \
		"tail-rep-1.6 X1 draws io's wakeup latency's curve, with its model (its activation latency's has none), ctl100's activation latency (it has no other): 'latency'"
	# io's 20-70 us spans less than a decade: its axis is labelled with 1-2-5 values (it had none)
	like "$(printf '%s\n' "$x1" | grep -x '[0-9]*' | paste -sd' ')" "(^| )20 50( |$)" \
		"tail-rep-1.7 X1's x axis within two decades: labelled 20 and 50, not left bare"
else
	skip "tail-rep-1.5 tail-rep-1.6 tail-rep-1.7"
fi
