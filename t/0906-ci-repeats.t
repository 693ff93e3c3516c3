#!/bin/sh
# 0906-ci-repeats.t - repeated runs for CI, on this machine: 'preflight run
# --repeats 2' writes run-01 and run-02 (each with its own UUID), prints the
# plain progress line when stderr is not a terminal (every 10 s of a phase),
# and the runs go through 'baseline create --allow-small' and 'compare'.
. "$(dirname "$0")/lib/test-lib.sh"
need BUILT:preflight BUILT:flightapp
need TRACEFS
need RT
plan 8

cat > "$TMP/tiny.ini" <<'INI'
[scenario]
name        = ci-tiny
description = a short idle cyclictest phase, then the app on a profile

[flightapp]
profile = omap3-60
sim     = no

[phase idle]
duration = 2s
measure  = cyclictest

[phase app]
duration = 14s
measure  = flightapp
INI

run_cmd "$PREFLIGHT" run "$TMP/tiny.ini" --repeats 2 -o "$TMP/r"
case $rc in 0|1) r=ok ;; *) r="exit $rc" ;; esac
is "$r" ok "ci-rep-1.1 two repeats ran (exit 0 or 1: verdicts, not failures)" || printf '%s\n' "$err" | tail -5 | sed 's/^/# /'
is "$(ls "$TMP/r" | paste -sd' ')" "run-01 run-02" "ci-rep-1.2 each repeat its own run directory"
u1=$(json_get "$TMP/r/run-01/run.json" uuid)
u2=$(json_get "$TMP/r/run-02/run.json" uuid)
like "$u1 $u2" "^[0-9a-f-]{36} [0-9a-f-]{36}$" "ci-rep-1.3 run.json carries a UUID"
ok "ci-rep-1.4 the UUIDs differ" [ "$u1" != "$u2" ]
like "$err" "preflight: run: 2 of 2 repeats in $TMP/r/run-NN: " "ci-rep-1.5 one summary line for the repeats"

# --- stderr is a file here, not a terminal: plain lines, no redraw
like "$err" "preflight: run: \[2/2\] app \(flightapp\): 1[0-4]s / 14s, [0-4]s left  worst: io [0-9]+us" \
	"ci-rep-2.1 a plain progress line after 10 s of a phase, with the worst latency so far"
is "$(printf '%s' "$err" | tr -cd '\r\033' | wc -c)" 0 "ci-rep-2.2 no carriage return or escape sequence in a log"

# --- the real runs through baseline and compare
"$PREFLIGHT" baseline create "$TMP"/r/run-* --allow-small -o "$TMP/bl.json" >/dev/null
run_cmd "$PREFLIGHT" compare --baseline "$TMP/bl.json" "$TMP/r/run-02" --json "$TMP/c.json" --tap /dev/null
case $rc in 0|1) r=ok ;; *) r="exit $rc: $err" ;; esac
is "$r:$(json_get "$TMP/c.json" board)" "ok:$(json_get "$TMP/r/run-01/sysinfo.json" hostname)" \
	"ci-rep-3.1 a real run compares against a baseline of real runs"
done_testing
