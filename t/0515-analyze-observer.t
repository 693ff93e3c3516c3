#!/bin/sh
# 0515-analyze-observer.t - the observer effect on the synthetic 'observer' trace
# (t/tools/gentrace.c describes it): the time preflight's own threads, listed by thread id
# in the recorder's header, stood between release and start, exactly; a thread that is only
# named "preflight" is not counted; a trace without the list leaves the observer unknown
. "$(dirname "$0")/lib/test-lib.sh"
. "$(dirname "$0")/lib/analyze-lib.sh"
need BUILT:t/gentrace
plan 14

"$GEN" observer "$TMP/o.dat" "$TMP/o.csv"
run_cmd "$PREFLIGHT" analyze --trace "$TMP/o.dat" --joblog "$TMP/o.csv" -o "$TMP/r.json" --top 5
is "$rc" 0 "obs-1.1 analyze exits 0"
R="$TMP/r.json"
is "$(json_get "$R" trace.observer_pids)" "[400,401]" "obs-1.2 the observer's thread ids from the recorder's header"
is "$(json_get "$R" tasks.name=ctl100.decomposition.observer_ns.max)" 80000 \
	"obs-2.1 ctl100: the recorder's thread stood 80 us between release and start (90 us less a 10 us IRQ)"
is "$(json_get "$R" tasks.name=ctl100.decomposition.observer_ns.max_id)" 4 "obs-2.2 ... in job 4"
is "$(json_get "$R" tasks.name=ctl100.decomposition.observer_ns.count)" 11 "obs-2.3 one sample per traced job"
is "$(json_get "$R" tasks.name=ctl100.observer_jobs)" 1 \
	"obs-2.4 one job delayed by the observer: the unlisted thread named preflight (job 2) is not the observer"
is "$(json_get "$R" tasks.name=ctl100.activation_latency_ns.max_id)" 9 "obs-2.5 (job 9 stays the worst)"
is "$(json_get "$R" tasks.name=io.decomposition.observer_ns.max)" 0 "obs-2.6 io: no observer time"
is "$(json_get "$R" tasks.name=io.observer_jobs)" 0 "obs-2.7 io: no job delayed by the observer"
like "$out" "ctl100: the observer \(preflight's own threads\) stood between release and start in 1 of 11 jobs: max 80.0 µs" \
	"obs-3.1 the summary says it for ctl100"
case $out in *"io: the observer"*) r=1 ;; *) r=0 ;; esac
is "$r" 0 "obs-3.2 ... and not for io, which the observer never delayed"

# the trace without the recorder's header: observer unknown, not zero
"$GEN" basic "$TMP/b.dat" "$TMP/b.csv"
run_cmd "$PREFLIGHT" analyze --trace "$TMP/b.dat" --joblog "$TMP/b.csv" -o "$TMP/b.json"
is "$(json_get "$TMP/b.json" trace.observer_pids)" null "obs-4.1 a trace without the list: observer_pids null"
is "$(json_get "$TMP/b.json" tasks.name=ctl100.decomposition.observer_ns)" null "obs-4.2 ... observer_ns null"
is "$(json_get "$TMP/b.json" tasks.name=ctl100.observer_jobs)" null "obs-4.3 ... observer_jobs null"
