#!/bin/sh
# 0770-selftest.t - the selftest's comparison on a recorded selftest (t/fixtures/selftest:
# a quick run's trace and storm trace, the executive's job logs, the injector log, the
# recorder's summary, flightapp-perf's figures): 'preflight selftest --from' analyses them
# again and compares with the injector's time stamps. Exact counts and distributions of
# this one recording; edited injector logs show that the comparison follows them.
. "$(dirname "$0")/lib/test-lib.sh"
need BUILT:preflight CMD:gzip
plan 25

F="$TOP/t/fixtures/selftest"
# fixture - a copy of the recorded selftest in $1, job logs unpacked
fixture() {
	mkdir -p "$1" && cp "$F"/* "$1"/ && gzip -d "$1"/*.csv.gz
}
fixture "$TMP/in"
run_cmd "$PREFLIGHT" selftest --from "$TMP/in" -o "$TMP/out"
is "$rc" 1 "st-1.1 the recorded selftest fails some cases: exit 1" || echo "$err" | sed 's/^/#   /'
is "$(echo "$out" | head -2 | tr '\n' ' ')" "TAP version 13 1..9 " "st-1.2 TAP with a plan of nine cases"
J="$TMP/out/selftest.json"
is "$(json_get "$J" schema)" preflight-selftest/1 "st-1.3 selftest.json names its schema"
like "$out" '^ok 4 - selftest-4 overrun: 20 injections, 20 valid$' "st-1.4 overruns: every count exact"
is "$(json_get "$J" cases.name=overrun.checks)" \
	'[{"expected":20,"measured":20,"name":"overruns","ok":true},{"expected":20,"measured":20,"name":"deadline misses","ok":true},{"expected":20,"measured":20,"name":"missed activations (trace)","ok":true},{"expected":20,"measured":20,"name":"missed activations (job log, none resynchronised silently)","ok":true},{"expected":20,"measured":20,"name":"slot overruns","ok":true}]' \
	"st-1.5 overruns, misses, missed activations (trace and job log), slot overruns"
like "$out" '^ok 5 - selftest-5 migrate: 20 injections, 20 valid$' "st-1.6 migrations counted exactly"
like "$out" '#   ok  lost events \(analysis = recorder\): expected 1475, measured 1475' \
	"st-1.7 lost events: the analysis counts what the recorder counted"
like "$out" '#   ok  jobs overlapping a loss flagged: expected 12, measured 12' \
	"st-1.8 every job that overlaps a loss is flagged in jobs.csv"
is "$(json_get "$J" cases.name=block.valid) $(json_get "$J" cases.name=block.invalid)" "15 5" \
	"st-1.9 blocking: 15 valid injections, 5 where the tick released the victim after the hog ended"
is "$(json_get "$J" cases.name=block.error)" '{"count":15,"max":9767,"min":6397,"p50":7430,"p99":9767,"unit":"ns"}' \
	"st-1.10 blocking: the error distribution (activation latency - (hog end - release))"
like "$out" '#   ok  culprit line kept names the hog: expected 15, measured 15' \
	"st-1.11 blocking: every culprit line names the hog by its pid"
is "$(json_get "$J" cases.name=timer.error.p50)" 11996 "st-1.12 timer: the trace's timer expiry vs the hog's interruption"
is "$(echo "$out" | grep -A1 '^not ok 3 ' | tail -1 | cut -d' ' -f4-9)" "worst: st_tick slot 164 release_ns 10583238212799" \
	"st-1.13 a failed case names its worst injection's time stamps"
is "$(json_get "$J" cases.name=agree.checks.0.measured)" 1400 "st-1.14 trace vs job log: every job matched"
is "$(json_get "$J" pass)" false "st-1.15 selftest.json: pass is false when a case failed"

# the comparison follows the injector log, not the plan
fixture "$TMP/m1"
awk -F, -v OFS=, '$1 == "overrun" && !done { $6 = sprintf("%.0f", $4 + 1000000); done = 1 } { print }' "$F/inject.csv" > "$TMP/m1/inject.csv"
run_cmd "$PREFLIGHT" selftest --from "$TMP/m1" -o "$TMP/o1"
like "$out" '^#   NOT overruns: expected 19, measured 20$' "st-2.1 an injection that did not overrun by the injector's clock is not expected to"
fixture "$TMP/m2"
awk -F, -v OFS=, '$1 == "block" { $6 = sprintf("%.0f", $6 - 500) } { print }' "$F/inject.csv" > "$TMP/m2/inject.csv"
run_cmd "$PREFLIGHT" selftest --from "$TMP/m2" -o "$TMP/o2"
is "$(json_get "$TMP/o2/selftest.json" cases.name=block.error.p50)" 7930 "st-2.2 a hog ending 500 ns earlier: every error 500 ns larger"
fixture "$TMP/m3"
awk -F, -v OFS=, '$1 == "migrate" && !done { $10 = $7; done = 1 } { print }' "$F/inject.csv" > "$TMP/m3/inject.csv"
run_cmd "$PREFLIGHT" selftest --from "$TMP/m3" -o "$TMP/o3"
like "$out" '#   NOT migrations: expected 19, measured 20' "st-2.3 a move the injector did not see change CPU is not expected"

# bad input
fixture "$TMP/b1"
sed -i '25s/.*/block,st_victim,x/' "$TMP/b1/inject.csv"
run_cmd "$PREFLIGHT" selftest --from "$TMP/b1" -o "$TMP/ob1"
like "$rc:$err" '^2:preflight: selftest: .*inject.csv:25: bad injection row$' "st-3.1 a bad injector row: exit 2, file and line"
fixture "$TMP/b2"
sed -i '1s/.*/# something else/' "$TMP/b2/inject.csv"
run_cmd "$PREFLIGHT" selftest --from "$TMP/b2" -o "$TMP/ob2"
like "$rc:$err" '^2:.*inject.csv:1: not an injector log' "st-3.2 not an injector log: exit 2"
run_cmd "$PREFLIGHT" selftest --help
like "$(echo "$out" | tr '\n' ' ')" '--output DIR .*default.*--quick .*default.*--cpu N .*default.*--from DIR .*default' \
	"st-3.3 --help lists every option with its default"
run_cmd "$PREFLIGHT" selftest --cpu 4096
like "$rc:$err" "^2:.*--cpu '4096': not an online CPU" "st-3.4 --cpu outside the online CPUs: exit 2"

# the qualification summary's "measurement validity" section
cp -r "$TOP/t/fixtures/run" "$TMP/run" && mkdir "$TMP/run/selftest" && cp "$J" "$TMP/run/selftest/"
run_cmd "$PREFLIGHT" summary "$TMP/run"
like "$out" '^WARNING: the selftest failed on this machine: the verdicts below rest on measurements it could not validate' \
	"st-4.1 a failed selftest: the summary says so at the top"
like "$out" '^  4   overrun     20    20      counts                          pass$' \
	"st-4.2 the summary's measurement validity table: one line per case"
run_cmd "$PREFLIGHT" report "$TMP/run" -o "$TMP/run/report.html"
like "$(grep -c 'SELFTEST FAILED\|<h3>Selftest (preflight selftest --quick' "$TMP/run/report.html")" '^2$' \
	"st-4.3 the reviewer report: the failed selftest at the top and its table under Measurement validity"
