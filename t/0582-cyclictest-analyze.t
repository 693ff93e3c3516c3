#!/bin/sh
# 0582-cyclictest-analyze.t - 'preflight analyze --cyclictest' on its own (the
# kernel baseline without a trace or job log): results.json with only the
# cyclictest member, the summary reproducing cyclictest's numbers, and a
# budget check on it
. "$(dirname "$0")/lib/test-lib.sh"
. "$(dirname "$0")/lib/analyze-lib.sh"
FX="$TOP/t/fixtures/cyclictest"
plan 15

R="$TMP/ct.json"
run_cmd "$PREFLIGHT" analyze --cyclictest "$FX/us.json" -o "$R"
is "$rc" 0 "cta-1.1 --cyclictest alone is enough to analyze"
is "$(json_get "$R" trace)/$(json_get "$R" tasks)/$(json_get "$R" app)/$(json_get "$R" slots)" "null/[]/null/null" \
	"cta-1.2 no trace, no tasks, no app, no slots"
is "$(json_get "$R" inputs.cyclictest)" "$FX/us.json" "cta-1.3 inputs.cyclictest names the file"
is "$(json_get "$R" cyclictest.threads.0.latency_ns.max)/$(json_get "$R" cyclictest.threads.1.latency_ns.min)" \
	"$(($(json_get "$FX/us.json" thread.0.max) * 1000))/$(($(json_get "$FX/us.json" thread.1.min) * 1000))" \
	"cta-1.4 the cyclictest member: T0 max, T1 min in ns, cyclictest's own"
# the summary: cyclictest's min, avg (%.2f) and max, in its unit
t0=$(printf '%s\n' "$out" | grep '^T0 ')
is "$(echo $t0)" "T0 0 2000 $(json_get "$FX/us.json" thread.0.min) $(json_get "$FX/us.json" thread.0.avg | awk '{ printf "%.2f", $1 }') 6.31 48 $(json_get "$FX/us.json" thread.0.max) 0" \
	"cta-1.5 summary row: thread, cpu, cycles, min, mean, stddev, p99, max, overflows as cyclictest printed them"
like "$out" "cyclictest baseline \(.*us.json, json, times in µs\)" "cta-1.6 summary names the file, format and unit"

run_cmd "$PREFLIGHT" analyze --cyclictest "$FX/ns.json" -o "$R"
n0=$(printf '%s\n' "$out" | grep '^T0 ' | awk '{ print $4 "/" $8 }')
is "$rc:$n0" "0:$(json_get "$FX/ns.json" thread.0.min)/$(json_get "$FX/ns.json" thread.0.max)" \
	"cta-1.7 -N file: min and max in ns in the summary"
like "$out" "times in ns" "cta-1.8 ... and says ns"

# a run directory holding only cyclictest.json
mkdir "$TMP/run"
cp "$FX/us.json" "$TMP/run/cyclictest.json"
run_cmd "$PREFLIGHT" analyze -q "$TMP/run"
is "$rc:$(json_get "$TMP/run/results.json" cyclictest.format)" "0:json" "cta-2.1 a run directory with only cyclictest.json"

# a run killed as its app started: the baseline phase is done, the app's job log is still empty
mkdir -p "$TMP/killed/01-idle" "$TMP/killed/02-app"
cp "$FX/us.json" "$TMP/killed/01-idle/cyclictest.json"
: > "$TMP/killed/02-app/jobs.csv"
echo '{"scenario": "t0582", "complete": false}' > "$TMP/killed/run.json"
run_cmd "$PREFLIGHT" analyze "$TMP/killed"
is "$rc:$(json_get "$TMP/killed/results.json" partial)/$(json_get "$TMP/killed/results.json" cyclictest.format)" \
	"0:true/json" "cta-2.3 a killed run whose job log is empty: its baseline analysed, marked partial"
like "$err" "note: $TMP/killed/02-app/jobs.csv: empty, its writer was stopped before it wrote anything: left out" \
	"cta-2.4 the empty job log is named and left out"
# the same empty job log in a run that completed is an error in its evidence
echo '{"scenario": "t0582", "complete": true}' > "$TMP/killed/run.json"
rm "$TMP/killed/results.json"
run_cmd "$PREFLIGHT" analyze -q "$TMP/killed"
is "$rc" 2 "cta-2.5 in a completed run an empty job log is bad input (exit 2)"

# the budgets on it are measured, the app's are not
run_cmd "$PREFLIGHT" check "$TMP/run/results.json" --budgets "$TOP/budgets/kernel-baseline.ini"
like "$(printf '%s\n' "$out" | paste -sd'|')" "ok 1 - REQ-KLAT-001 T0 latency max\|#   $(json_get "$FX/us.json" thread.0.max) us <= 100 us" \
	"cta-2.2 check measures the kernel baseline of a cyclictest-only results.json"

# still nothing at all is a usage error, and a bad file stays a one-line exit 2
run_cmd "$PREFLIGHT" analyze -o "$R"
is "$rc:$err" "2:preflight: analyze: nothing to analyze: give RUN_DIR, --trace, --joblog or --cyclictest (see 'preflight analyze --help')" \
	"cta-3.1 no input: exit 2 naming every way in"
printf '{"thread": {"0": {"cycles": 1' > "$TMP/bad.json"
run_cmd "$PREFLIGHT" analyze --cyclictest "$TMP/bad.json" -o "$R"
is "$rc:$(printf '%s\n' "$err" | wc -l)" "2:1" "cta-3.2 a truncated cyclictest file alone: one line, exit 2"
done_testing
