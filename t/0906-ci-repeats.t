#!/bin/sh
# 0906-ci-repeats.t - repeated runs for CI, on this machine: 'preflight run
# --repeats 2' writes run-01 and run-02 (each with its own UUID), prints the
# plain progress line when stderr is not a terminal (every --progress-every S),
# and the runs go through 'baseline create --allow-small' and 'compare'. After
# the analysis the traces are removed when every requirement was met (repeats:
# --keep-trace on-fail) and kept compressed (v7, zstd) by a single run.
. "$(dirname "$0")/lib/test-lib.sh"
need BUILT:preflight BUILT:flightapp
need TRACEFS
need RT
plan 17

cat > "$TMP/tiny.ini" <<'INI'
[scenario]
name        = ci-tiny
description = a short idle cyclictest phase, then the app on a profile

[flightapp]
profile = omap3-60
sim     = no

[phase idle]
duration = 1s
measure  = cyclictest

[phase app]
duration = 6s
measure  = flightapp
INI
# (6 s: the app phase is the one long enough for a progress line after its first 4 s
# (--progress-every 4), with 2 s to spare on a loaded machine; each of the three runs costs
# its whole length)

cat > "$TMP/pass.ini" <<'INI'
[REQ-PASS]
text   = the app ran
metric = app.utilisation
bound  = <= 100%
INI

# (no report: what it costs buys no assertion here)
run_cmd "$PREFLIGHT" run "$TMP/tiny.ini" --repeats 2 -o "$TMP/r" --budgets "$TMP/pass.ini" --no-report \
	--progress-every 4
case $rc in 0|1) r=ok ;; *) r="exit $rc" ;; esac
is "$r" ok "ci-rep-1.1 two repeats ran (exit 0 or 1: verdicts, not failures)" || printf '%s\n' "$err" | tail -5 | sed 's/^/# /'
is "$(ls "$TMP/r" | paste -sd' ')" "run-01 run-02" "ci-rep-1.2 each repeat its own run directory"
u1=$(json_get "$TMP/r/run-01/run.json" uuid)
u2=$(json_get "$TMP/r/run-02/run.json" uuid)
like "$u1 $u2" "^[0-9a-f-]{36} [0-9a-f-]{36}$" "ci-rep-1.3 run.json carries a UUID"
ok "ci-rep-1.4 the UUIDs differ" [ "$u1" != "$u2" ]
like "$err" "preflight: run: 2 of 2 repeats in $TMP/r/run-NN: " "ci-rep-1.5 one summary line for the repeats"

# --- stderr is a file here, not a terminal: plain lines, no redraw
like "$err" "preflight: run: \[2/2\] app \(flightapp\): [45]s / 6s, [01]s left  worst: ([a-z0-9]+ [0-9]+us )*io [0-9]+us" \
	"ci-rep-2.1 a plain progress line after 4 s of a phase, with the worst latency so far"
is "$(printf '%s' "$err" | tr -cd '\r\033' | wc -c)" 0 "ci-rep-2.2 no carriage return or escape sequence in a log"
is "$(printf '%s' "$err" | grep -Ec '\] app \(flightapp\): [1-3]s / 6s')" 0 \
	"ci-rep-2.3 ... and none between the first and that one: every 4 s, as --progress-every says"

# --- the traces after the analysis: repeats that met every requirement keep none
is "$(json_get "$TMP/r/run-01/run.json" exit_code traces.0.file traces.0.action traces.0.bytes)" "0
02-app/trace.dat
removed
0" "ci-rep-4.1 repeats default to --keep-trace on-fail: a passed run's trace is removed, run.json says so"
ok "ci-rep-4.2 ... and it is gone" [ ! -e "$TMP/r/run-01/02-app/trace.dat" -a ! -e "$TMP/r/run-02/02-app/trace.dat" ]
like "$(cat "$TMP/r/run-01/run.log")" "02-app/trace.dat: removed \([0-9]+ -> 0 bytes, --keep-trace on-fail\)" \
	"ci-rep-4.3 run.log says what became of the trace"

# a single run keeps it, compressed, and it analyses to the same tasks
run_cmd "$PREFLIGHT" run "$TMP/tiny.ini" -o "$TMP/one" --budgets "$TMP/pass.ini" --no-report
dat=$TMP/one/02-app/trace.dat
is "$(json_get "$TMP/one/run.json" traces.0.action)" compressed "ci-rep-5.1 a single run keeps its trace compressed"
is "$(head -c 11 "$dat" | tail -c 1)" 7 "ci-rep-5.2 ... as a trace-cmd version 7 file"
rec=$(json_get "$TMP/one/run.json" traces.0.bytes_recorded)
now=$(wc -c < "$dat")
ok "ci-rep-5.3 ... smaller than recorded ($now < $rec bytes), run.json has both sizes" \
	[ "$now" -lt "$rec" -a "$now" -eq "$(json_get "$TMP/one/run.json" traces.0.bytes)" ]
"$PREFLIGHT" analyze -q --trace "$dat" -o "$TMP/again.json"
is "$(json_get "$TMP/again.json" 'tasks.*.jobs' 'tasks.*.activation_latency_ns.max')" \
	"$(json_get "$TMP/one/results.json" 'tasks.*.jobs' 'tasks.*.activation_latency_ns.max')" \
	"ci-rep-5.4 the compressed trace analyses to the same jobs and worst latencies"
grep -q "02-app/trace.dat" "$TMP/one/SHA256SUMS" && (cd "$TMP/one" && sha256sum --quiet -c SHA256SUMS) >/dev/null 2>&1
is "$?" 0 "ci-rep-5.5 SHA256SUMS is written after the compression and holds"

# --- the real runs through baseline and compare
"$PREFLIGHT" baseline create "$TMP"/r/run-* --allow-small -o "$TMP/bl.json" >/dev/null
# a new run, not one the baseline holds (compare refuses those: t/0907)
run_cmd "$PREFLIGHT" compare --baseline "$TMP/bl.json" "$TMP/one" --json "$TMP/c.json" --tap /dev/null
case $rc in 0|1) r=ok ;; *) r="exit $rc: $err" ;; esac
is "$r:$(json_get "$TMP/c.json" board)" "ok:$(json_get "$TMP/r/run-01/sysinfo.json" hostname)" \
	"ci-rep-3.1 a real run compares against a baseline of real runs"
done_testing
