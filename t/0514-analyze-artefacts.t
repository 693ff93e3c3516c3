#!/bin/sh
# 0514-analyze-artefacts.t - wakeup latencies that are artefacts of context
# switches missing from the trace are no samples: on traces/ref/app-alone.dat
# (this VM's kernel never traces CPU 1's switch from idle) tokio-rt-worker 76
# was woken twice without a switch-in seen in between and 70 once with its
# switch-in inferred seconds later; before, they showed wakeup latencies of
# 2.16 s and 609 ms. --tick sets how late an inferred switch-in may be and
# still give an upper-bound sample.
. "$(dirname "$0")/lib/test-lib.sh"
plan 7

R="$TMP/r.json"
run_cmd "$PREFLIGHT" analyze --trace "$TOP/traces/ref/app-alone.dat" -o "$R"
is "$rc" 0 "art-1.1 the reference trace analyses"
is "$(json_get "$R" threads.pid=76.wakeups_unresolved):$(json_get "$R" threads.pid=76.wakeup_latency_ns.max)" 2:106441 \
	"art-1.2 a wakeup superseded by the next one is unresolved; the one seen is measured (106 us, not 2.16 s)"
is "$(json_get "$R" threads.pid=70.wakeups_unresolved):$(json_get "$R" threads.pid=70.wakeup_latency_ns.max)" 4:11218 \
	"art-1.3 tokio-rt-worker 70: four unresolved, its latency 11 us (not 609 ms)"
worst=$(json_get "$R" 'threads.*.wakeup_latency_ns.max' | tr ' ' '\n' | grep -v null | sort -n | tail -1)
ok "art-1.4 no thread's wakeup latency in this 3 s trace is an artefact of a second or more ($worst ns)" \
	test "$worst" -lt 1000000000
is "$(json_get "$R" threads.pid=26574.switches_inferred)" 298 "art-1.5 the switch-ins inferred for io are counted on its thread"
like "$out" "note: [0-9]+ wakeups are no latency sample" "art-1.6 the summary says how many wakeups are unresolved"
"$PREFLIGHT" analyze -q --tick 1us --trace "$TOP/traces/ref/app-alone.dat" -o "$TMP/t.json"
is "$(json_get "$TMP/t.json" threads.pid=26574.wakeups_unresolved):$(json_get "$TMP/t.json" threads.pid=26574.wakeup_latency_inferred_ns)" 297:null \
	"art-1.7 with --tick 1us io's 297 inferred switch-ins (4 ms default: upper-bound samples) are all unresolved"
