#!/bin/sh
# 0620-check-prove.t - 'preflight check' output is TAP that prove and its
# JUnit formatter run as they are: as a test script, through --exec, and as
# JUnit XML with one testcase per requirement and element
. "$(dirname "$0")/lib/test-lib.sh"
. "$(dirname "$0")/lib/check-lib.sh"
FX="$TOP/t/fixtures/results"
SEED="$TOP/budgets/seed.ini"
need PERL:TAP::Formatter::JUnit
plan 14

# verdicts RESULTS - a test script for prove that checks RESULTS
verdicts() {
	printf '#!/bin/sh\nexec "%s" check "%s" --budgets "%s"\n' "$PREFLIGHT" "$1" "$SEED" > "$TMP/$2.t"
	chmod +x "$TMP/$2.t"
}

verdicts "$FX/pass.json" pass
run_cmd prove "$TMP/pass.t"
is "$rc" 0 "prove-1.1 prove passes a run whose measured requirements are met" ||
	printf '%s\n%s\n' "$out" "$err" | head -20 | sed 's/^/#   /'
like_line "Result: PASS" "prove-1.2 prove's verdict: PASS"
skipped=$(perl -MTAP::Parser -e '
	my $p = TAP::Parser->new({ exec => [ $ARGV[0] ] }); $p->run;
	print join(",", $p->skipped), " of ", scalar($p->passed), " ok"' "$TMP/pass.t")
is "$skipped" "12,13,14,15 of 15 ok" "prove-1.3 TAP::Parser sees the not measured requirements as skipped"

verdicts "$FX/fail.json" fail
run_cmd prove "$TMP/fail.t"
is "$rc" 1 "prove-2.1 prove fails a run with a failed requirement"
like_line "Failed tests: +2-3, 6, 10" "prove-2.2 prove names the failed tests"

run_cmd prove --exec "$PREFLIGHT check --budgets $SEED" "$FX/fail.json"
is "$rc" 1 "prove-3.1 prove --exec 'preflight check --budgets FILE' RESULTS"
like_line "Tests=15" "prove-3.2 every test counted"

run_cmd prove --formatter TAP::Formatter::JUnit --exec "$PREFLIGHT check --budgets $SEED" "$FX/fail.json"
printf '%s\n' "$out" > "$TMP/junit.xml"
is "$(grep -c '<testcase ' "$TMP/junit.xml")" 15 "prove-4.1 JUnit: one testcase per requirement and element"
is "$(grep -c '<failure ' "$TMP/junit.xml")" 4 "prove-4.2 JUnit: the four failed requirements are failures"
like_line '<testcase name="2 - REQ-LAT-001 ctl100 wakeup_latency max">' \
	"prove-4.3 JUnit testcase named by requirement, element and metric only: stable from run to run"
like_line "#   188 us <= 62 us \(margin -203 %\)" \
	"prove-4.3b JUnit failure carries the value, the bound and the margin"
like_line "worst case: ctl100 job 4711: 188 us late - ksoftirqd/1 \(NET_RX\) 120 us" \
	"prove-4.4 JUnit failure carries the culprit line, readable"
if test_have_prereq PERL:XML::Parser; then
	xmlok=$(perl -MXML::Parser -e 'XML::Parser->new->parsefile($ARGV[0]); print "ok"' "$TMP/junit.xml" 2>&1)
	is "$xmlok" ok "prove-4.5 JUnit output is well-formed XML"
elif test_have_prereq CMD:xmllint; then
	ok "prove-4.5 JUnit output is well-formed XML" xmllint --noout "$TMP/junit.xml"
else
	skip prove-4.5 "no XML parser here (XML::Parser or xmllint)"
fi
run_cmd prove --formatter TAP::Formatter::JUnit --exec "$PREFLIGHT check --budgets $SEED" "$FX/pass.json"
is "$(printf '%s\n' "$out" | grep -c '<failure ')" 0 "prove-4.6 JUnit: no failure when the measured requirements are met"
done_testing
