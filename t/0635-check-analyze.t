#!/bin/sh
# 0635-check-analyze.t - end to end: a synthetic trace and job log
# (gentrace) through 'preflight analyze --cyclictest' into 'preflight
# check': the verdicts are well-formed TAP and carry results.json's numbers
. "$(dirname "$0")/lib/test-lib.sh"
. "$(dirname "$0")/lib/check-lib.sh"
GEN="$B/t/gentrace"
[ -x "$GEN" ] || { echo "1..1"; echo "not ok 1 - gentrace not built (run make unit-tests)"; exit 1; }
plan 7

cd "$TMP" || exit 1
"$GEN" basic t.dat jobs.csv > /dev/null 2>&1
run_cmd "$PREFLIGHT" analyze --trace t.dat --joblog jobs.csv \
	--cyclictest "$TOP/t/fixtures/cyclictest/us.json" -o results.json -q
is "$rc" 0 "e2e-1.1 analyze writes results.json with the cyclictest baseline"
is "$(json_get results.json cyclictest.all.latency_ns.count)" 4000 "e2e-1.2 cyclictest member from cyclictest_load()"

cat "$TOP/budgets/seed.ini" "$TOP/budgets/kernel-baseline.ini" > budgets.ini
run_cmd "$PREFLIGHT" check results.json --budgets budgets.ini
printf '%s\n' "$out" > verdicts.tap
case $rc in 0|1) r=ok ;; *) r="exit $rc: $err" ;; esac
is "$r" ok "e2e-1.3 check gives a verdict (exit 0 or 1)"
parse=$(perl -MTAP::Parser -e '
	my $p = TAP::Parser->new({ source => $ARGV[0] }); $p->run;
	print $p->parse_errors ? join("; ", $p->parse_errors) : "ok"' verdicts.tap)
is "$parse" ok "e2e-1.4 TAP::Parser reads the verdicts without a parse error"
bad=$(perl -ne 'if (/^(not )?ok /) { print "test: $_" unless /^(not )?ok [0-9]+ - REQ-[A-Z]+-[0-9]+ [^ ]+( [^ #]+)*( # SKIP not measured: .+)?$/; $want = !/# SKIP/; next }
	if ($want) { print "value: $_" unless /^#   -?[0-9.]+( (us|ns|ms|s|%))? (<|<=|>|>=|==|!=) -?[0-9.]+( (us|ns|ms|s|%))?( \(margin -?[0-9]+ %\))?$/; $want = 0 }' verdicts.tap)
is "$bad" "" "e2e-1.5 every verdict: id, element and metric as its name, then value, bound, margin (or SKIP not measured)"
max=$(json_get results.json tasks.1.wakeup_latency_ns.max)
name=$(json_get results.json tasks.1.name)
like_verdict "^(not )?ok [0-9]+ - REQ-LAT-001 $name wakeup_latency max$" "$(perl -e 'my $v = sprintf("%.3f", $ARGV[0] / 1000); $v =~ s/\.?0+$//; print $v' "$max") us <= 62 us" \
	"e2e-1.6 the task's wakeup latency max is results.json's, in us"
like_line "^# [0-9]+ passed, [0-9]+ failed, [0-9]+ not measured( \\([0-9]+ not in this run, [0-9]+ without a value\\))?$" "e2e-1.7 summary line"
done_testing
