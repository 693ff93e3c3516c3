#!/bin/sh
# 0501-analyze-culprit-chain.t - culprits that explain, on the 'chain' trace of
# t/tools/gentrace.c: ctl100 is released by io, which was itself 3283 us late
# (a hog held its CPU), and then waits behind twelve hackbench threads. The
# culprit names the chain, the pid of every thread, the trace time of the
# release (to find it in KernelShark) and the share explained; more threads
# than fit are summed, so the parts still add up, and 'complete' is true only
# when they do.
. "$(dirname "$0")/lib/test-lib.sh"
. "$(dirname "$0")/lib/analyze-lib.sh"
need BUILT:t/gentrace
plan 13

"$GEN" chain "$TMP/c.dat"
R="$TMP/c.json"
run_cmd "$PREFLIGHT" analyze --trace "$TMP/c.dat" -o "$R"
is "$rc" 0 "chain-1.1 the chain trace is analysed"
C=tasks.name=ctl100.culprits.0
is "$(json_get "$R" $C.latency_ns)/$(json_get "$R" $C.release_ns)/$(json_get "$R" $C.pid)" 3412000/1000000000000/100 \
	"chain-1.2 ctl100's job: 3412 us late, released at T0, its thread's pid"
is "$(json_get "$R" $C.released_by)" '{"latency_ns":3283000,"pid":101,"seq":0,"task":"io"}' \
	"chain-1.3 released by io (pid 101, job 0), itself 3283 us late"
is "$(json_get "$R" $C.waker_pid)" 101 "chain-1.4 the waker's pid"
is "$(json_get "$R" $C.contributors.0.name)/$(json_get "$R" $C.contributors.0.duration_ns)/$(json_get "$R" $C.contributors.0.pid)" \
	"hackbench/10000/$(json_get "$R" $C.contributors.0.id)" "chain-1.5 after the waking: a hackbench thread 10 us, with its pid"
is "$(json_get "$R" $C.contributors.7.kind)/$(json_get "$R" $C.contributors.7.name)/$(json_get "$R" $C.contributors.7.duration_ns)/$(json_get "$R" $C.contributors.8 2>/dev/null || echo none)" \
	"others/6 others/52000/none" "chain-1.6 more parts than fit: seven kept, the rest summed (5 hackbench + 2 us to the start marker)"
is "$(json_get "$R" $C.explained_ns)/$(json_get "$R" $C.explained)/$(json_get "$R" $C.complete)" 3412000/1.0/true \
	"chain-1.7 3290 us waiting for io + 120 us hackbench + 2 us = the lateness: complete"
line=$(printf '%s\n' "$out" | grep '^ctl100 job 0 ')
like "$line" "^ctl100 job 0 \(pid 100, released at 1000\.000000000 s\): 3412 µs late \(wakeup latency 122 µs\) — released by io \(pid 101, job 0\) after 3290 µs, io itself 3283 µs late; hackbench \(pid 4[01][0-9]\) 10 µs, hackbench \(pid 4[01][0-9]\) 10 µs, hackbench \(pid 4[01][0-9]\) 10 µs, hackbench \(pid 4[01][0-9]\) 10 µs, rest 82 µs \[100 % explained\]$" \
	"chain-1.8 the summary line: release time, the chain, pids, the rest and the share explained"
I=tasks.name=io.culprits.0
is "$(json_get "$R" $I.released_by)/$(json_get "$R" $I.waker_pid)/$(json_get "$R" $I.contributors.0.name)/$(json_get "$R" $I.contributors.0.pid)" \
	"null/null/hog/200" "chain-1.9 io, woken by its timer: no releaser, the hog by pid"
like "$(printf '%s\n' "$out" | grep '^io job 0 ')" "— hog \(pid 200\) 3281 µs, switch-in to start 2\.0 µs; its timer interrupt came 5\.0 µs after the release \[100 % explained\]$" \
	"chain-1.10 ... and its line"

# a trace of the markers alone has no CPU history (every switch inferred): never complete
"$GEN" markers "$TMP/m.dat"
run_cmd "$PREFLIGHT" analyze --trace "$TMP/m.dat" -o "$TMP/m.json"
is "$(perl -MJSON::PP -e 'local $/; open my $f, "<", $ARGV[0] or die; my $j = decode_json(<$f>);
	print join ",", map { my $t = $_; map { $_->{complete} ? "true" : "false" } @{$t->{culprits}} } @{$j->{tasks}}' "$TMP/m.json")" \
	"false,false,false,false,false,false,false,false,false,false" "chain-2.1 no sched_switch in the trace: no culprit is complete"
like "$(printf '%s\n' "$out" | grep -m1 '^ctl100 job ')" " explained: history incomplete\]$" "chain-2.2 ... and the line says so"
"$GEN" basic "$TMP/b.dat"
"$PREFLIGHT" analyze -q --trace "$TMP/b.dat" -o "$TMP/b.json"
is "$(perl -MJSON::PP -e 'local $/; open my $f, "<", $ARGV[0] or die; my $j = decode_json(<$f>);
	my ($n, $bad) = (0, 0);
	for my $t (@{$j->{tasks}}) { for my $c (@{$t->{culprits}}) { $n++;
		my $sum = 0; $sum += $_->{duration_ns} for @{$c->{contributors}};
		$bad++ if ($sum == $c->{latency_ns} ? 1 : 0) != ($c->{complete} ? 1 : 0) } }
	print "$n:$bad"' "$TMP/b.json")" "10:0" "chain-3.1 on the basic trace, complete exactly when the contributors add up to the lateness"
