#!/bin/sh
# 0528-analyze-negative.t - no execution, response or latency time below zero (issue 27.2): the
# synthetic 'inferback' trace (t/tools/gentrace.c: io's switch-in missing, inferred back to its
# wakeup with a local timer interrupt after it) gives ctl100 128 us, not 128 - 300 us (the recorded
# run t/fixtures/report-run showed io -185.5 us, ctl100 -190.6 us); 'early', a start marker before
# its own release, is a corrupt input refused with the file and byte offset. 'ipi' (the same with
# call_function_single's interrupts, vector 251): the interrupt's name whole in the culprits (it
# was cut to "call_function_single interrupt (vector " in the recorded run).
. "$(dirname "$0")/lib/test-lib.sh"
. "$(dirname "$0")/lib/analyze-lib.sh"
need BUILT:t/gentrace
plan 13

"$GEN" inferback "$TMP/ib.dat"
run_cmd "$PREFLIGHT" analyze --trace "$TMP/ib.dat" -o "$TMP/ib.json"
is "$rc" 0 "negcmd-1.1 analyze exits 0"
is "$(json_get "$TMP/ib.json" tasks.name=ctl100.exec_time_ns.min)" 128000 \
	"negcmd-1.2 ctl100's execution time: 38 + 90 us, the interrupt after io's wakeup is io's (it was -172 us)"
is "$(json_get "$TMP/ib.json" tasks.name=io.exec_time_ns.min)" 100000 "negcmd-1.3 io's: 100 us"
is "$(json_get "$TMP/ib.json" tasks.name=ctl100.response_time_ns.max)" 700000 "negcmd-1.4 ctl100's response time 700 us"
is "$(json_get "$TMP/ib.json" tasks.name=io.activation_latency_ns.max)" 500000 "negcmd-1.5 io's activation latency 500 us"
# every task's time distribution (period jitter is signed by definition) is at or above zero
neg=$(perl -MJSON::PP -e 'local $/; my $r = decode_json(<>);
	for my $t (@{$r->{tasks}}) { for my $k (sort keys %$t) {
		next if $k eq "period_jitter_ns" || ref $t->{$k} ne "HASH" || !defined $t->{$k}{min};
		print "$t->{name}.$k=$t->{$k}{min} " if $t->{$k}{min} < 0 } }' "$TMP/ib.json")
is "$neg" "" "negcmd-1.6 no distribution of a task below zero"

"$GEN" early "$TMP/early.dat"
run_cmd "$PREFLIGHT" analyze --trace "$TMP/early.dat" -o "$TMP/early.json"
is "$rc" 2 "negcmd-2.1 a start marker before its release: exit 2 (it gave a latency of -50 us)"
like "$err" "^preflight: analyze: $TMP/early.dat: offset [0-9]*: corrupt marker: task 0 job 0 started at 1000.000500000 s, before its release at 1000.000550000 s: a negative activation latency" \
	"negcmd-2.2 ... one line naming the file, the byte offset, the job and both times"
ok "negcmd-2.3 ... and no results.json" test ! -e "$TMP/early.json"

"$GEN" ipi "$TMP/ipi.dat"
run_cmd "$PREFLIGHT" analyze --trace "$TMP/ipi.dat" -o "$TMP/ipi.json"
is "$rc" 0 "negcmd-3.1 analyze of the IPI's trace exits 0"
is "$(json_get "$TMP/ipi.json" tasks.name=ctl100.culprits.0.contributors.1.name)" \
	"call_function_single interrupt (vector 251)" "negcmd-3.2 a contributor's name whole, its vector number too"
is "$(json_get "$TMP/ipi.json" tasks.name=ctl100.culprits.0.summary)" \
	"ctl100 job 0 (pid 100, released at 1000.000000000 s): 12 µs late — CPU idle 5.0 µs, call_function_single interrupt (vector 251) 5.0 µs, switch-in to start 2.0 µs [100 % explained]" \
	"negcmd-3.3 ... and in the summary line"
is "$(json_get "$TMP/ipi.json" tasks.name=ctl100.exec_time_ns.min)" 128000 "negcmd-3.4 ctl100's execution time as without the IPI's name"
